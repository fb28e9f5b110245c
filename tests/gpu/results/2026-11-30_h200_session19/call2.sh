#!/usr/bin/env bash
# Session 19, second GPU call (tree: main with rung 11's store-buffer fix, per-element
# verification, the client build's library moves and the cheaper persistent-rung trace): the
# fix checked at the shape that failed, the new GPU tests, the ladder's rows of rungs 11 and 13,
# the trace overhead of rungs 8-12 (scripts/gpu_trace_overhead.sh, 3 traces per case) and the
# trace consistency tests.
set -u
out=${OUT:-gpu-out}
work=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests" OUT=$work scripts/gpu_check.sh >"$work/build.log" 2>&1 || {
    tar -czf "$out/call2.tgz" -C "$work" .; exit 1; }
t=build-gpu/bin/tclens
echo "built at $(elapsed) s" >>"$work/times.txt"
bench1() {  # kernel mnk seed: one line "kernel mnk seed rel_rms wrong_elements verified"
    $t bench --kernels "$1" --mnk "$2" --runs 20 --warmup 0 --no-peak --no-reference --seed "$3" --json 2>/dev/null |
        python3 -c 'import json,sys
d=json.load(sys.stdin)
for r in d["results"]: print(sys.argv[1], sys.argv[2], sys.argv[3], r.get("rel_rms_error"), r.get("wrong_elements"), r.get("verified"))' "$1" "$2" "$3"
}
for seed in $(seq 1 12); do bench1 wgmma_persistent.bf16 9136x3680x80 $seed; done >"$work/r11_repeat.txt" 2>&1
for seed in 1 2 3 4 5 6; do bench1 wgmma_fp8.e4m3 9136x3680x80 $seed; bench1 wgmma_persistent.bf16 9136x3680x48 $seed; done >>"$work/r11_repeat.txt" 2>&1
echo "repeat at $(elapsed) s" >>"$work/times.txt"
timeout 200 build-gpu/bin/gpu_tests --gtest_filter='GemmRunnerOnGpu.*:UserKernelGpu.OneWrongElement*:UserKernelGpu.WrongKernel*:Kernels/LadderVerification.VerifiesOrSaysWhyNot/wgmma_persistent*:Kernels/LadderVerification.VerifiesOrSaysWhyNot/wgmma_fp8*' \
    >"$work/verify.log" 2>&1
echo "verify exit $? at $(elapsed) s" >>"$work/times.txt"
OUT=$work REPEAT=3 BUDGET_S=170 timeout 230 scripts/gpu_trace_overhead.sh >"$work/trace_overhead.log" 2>&1
echo "trace overhead exit $? at $(elapsed) s" >>"$work/times.txt"
left=$((560 - $(elapsed)))
[ "$left" -gt 20 ] && timeout "$left" ctest --test-dir build-gpu -R 'gpu\.TraceCommandOnGpu\.Rung' --output-on-failure \
    >"$work/trace_ctest.log" 2>&1
echo "trace ctest exit $? at $(elapsed) s" >>"$work/times.txt"
$t --version >"$work/version.txt" 2>&1
tar -czf "$out/call2.tgz" -C "$work" .
cat "$work/times.txt"; cat "$work/r11_repeat.txt"; tail -5 "$work/verify.log"; cat "$work/trace_overhead.md" 2>/dev/null | tail -15
