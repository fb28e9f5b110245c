#!/usr/bin/env bash
# Session 23, first GPU call, one H200 (tree: session 22's + the runner's timed launches behind a
# stream gate). The runner's and the gate's GPU tests; the square, lab6 and llm presets of
# dispatch.bf16 and dispatch.e4m3 three times with the host quiet; Nsight Compute --set full on
# the short-K GEMM and on cuBLAS at 9991x6207x24 (their stall reasons); the trace overhead
# (scripts/gpu_trace_overhead.sh) and, time permitting, the traced rung 11's profile
# (scripts/gpu_trace_ncu.sh). All in $OUT/call1.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$out/gpus.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call1.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
t=$PWD/build-gpu/bin/tclens
echo "built at $(elapsed) s" >>"$out/times.txt"
timeout 60 build-gpu/bin/gpu_tests --gtest_filter='GemmRunnerOnGpu.*:StreamGateOnGpu.*:KernelProfile*' \
    >"$out/verify.log" 2>&1
echo "verify exit $? at $(elapsed) s" >>"$out/times.txt"
for i in 1 2 3; do
    timeout 45 "$t" bench --kernels dispatch.bf16,dispatch.e4m3 --preset square,lab6,llm \
        --runs 20 --warmup 2 --json >"$out/presets_$i.json" 2>/dev/null
    echo "presets $i exit $? at $(elapsed) s" >>"$out/times.txt"
done
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
mkdir -p "$out/short_k_ncu"
for run in "ours|dispatch.bf16|short_k_gemm" "cublas|cublas.bf16|tensorop"; do
    IFS='|' read -r name kernel regex <<<"$run"
    timeout 90 "$ncu" --set full --import-source no -k "regex:$regex" --launch-skip 1 --launch-count 1 \
        -f -o "$out/short_k_ncu/$name" "$t" bench --kernels "$kernel" --mnk 9991x6207x24 \
        --runs 3 --warmup 0 --no-peak >"$out/short_k_ncu/$name.log" 2>&1
    "$ncu" --import "$out/short_k_ncu/$name.ncu-rep" --page details --print-details all \
        >"$out/short_k_ncu/$name.details.txt" 2>&1
    "$ncu" --import "$out/short_k_ncu/$name.ncu-rep" --page source --print-source sass --csv \
        >"$out/short_k_ncu/$name.source.csv" 2>/dev/null
    echo "ncu $name at $(elapsed) s" >>"$out/times.txt"
done
left=$((540 - $(elapsed)))
OUT=$out BUDGET_S=$((left - 40)) timeout "$left" scripts/gpu_trace_overhead.sh >"$out/trace_overhead.log" 2>&1
echo "trace overhead exit $? at $(elapsed) s" >>"$out/times.txt"
left=$((580 - $(elapsed)))
[ "$left" -gt 60 ] && OUT=$out timeout "$left" scripts/gpu_trace_ncu.sh >"$out/trace_ncu.log" 2>&1
echo "trace ncu exit $? at $(elapsed) s" >>"$out/times.txt"
"$t" --version >"$out/version.txt" 2>&1
gzip -f "$out/verify.log"
(cd "$out" && tar -czf short_k_ncu.tgz short_k_ncu && rm -rf short_k_ncu)
[ -d "$out/trace_ncu" ] && (cd "$out" && tar -czf trace_ncu.tgz trace_ncu && rm -rf trace_ncu)
tar -czf "$final/call1.tgz" -C "$out" .
cat "$out/times.txt"; zcat "$out/verify.log.gz" | grep -E "^\[  (FAILED|PASSED) |tests ran" | head
cat "$out/trace_overhead.md" 2>/dev/null | tail -12
