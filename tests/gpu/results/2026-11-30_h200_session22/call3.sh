#!/usr/bin/env bash
# Session 22, third GPU call, two H200s of one host (tree: call 2's + rung 14 sending 1024 or
# more short-K tiles with N a multiple of 4 to the padded copies and rung 11). GPU 0: rung 14
# verified on every configuration with the padded-path cost test (now also 8192 x 8191 x 43 on
# the short-K GEMM), then the 1000-shape sweep of dispatch.bf16, seed 1. GPU 1: Nsight Compute's
# time per kernel on two of call 2's losing short-K shapes (scripts/gpu_dispatch_kernels.sh), then
# seed 2. Then seed 3 spread over both GPUs (--workers 2). All in $OUT/call3.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call3.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
t=$PWD/build-gpu/bin/tclens
echo "built at $(elapsed) s" >>"$out/times.txt"
sweep() {  # seed limit_s, GPUs from the caller's environment
    local s
    s=$(date +%s)
    timeout "$2" "$t" bench --kernels dispatch.bf16 --sweep 1000 --seed "$1" --runs 20 --warmup 2 \
        --json "${@:3}" >"$out/sweep1000_seed$1.json" 2>"$out/sweep_seed$1.err"
    echo "sweep seed $1 exit $? in $(($(date +%s) - s)) s, at $(elapsed) s" >>"$out/times.txt"
}
lane0() {
    CUDA_VISIBLE_DEVICES=0 timeout 60 build-gpu/bin/gpu_tests --gtest_filter='Dispatch/*:DispatchOnGpu.*' \
        >"$out/verify.log" 2>&1
    echo "verify exit $? at $(elapsed) s" >>"$out/times.txt"
    CUDA_VISIBLE_DEVICES=0 sweep 1 $((420 - $(elapsed)))
}
lane1() {
    CUDA_VISIBLE_DEVICES=1 OUT=$out SHAPES="9991x6207x24 2807x1792x65" timeout 50 \
        scripts/gpu_dispatch_kernels.sh >"$out/dispatch_kernels.log" 2>&1
    echo "dispatch kernels exit $? at $(elapsed) s" >>"$out/times.txt"
    CUDA_VISIBLE_DEVICES=1 sweep 2 $((420 - $(elapsed)))
}
lane0 &
lane1 &
wait
sweep 3 $((535 - $(elapsed))) --workers 2
"$t" --version >"$out/version.txt" 2>&1
gzip -f "$out/verify.log" "$out"/sweep1000_seed*.json
tar -czf "$final/call3.tgz" -C "$out" .
cat "$out/times.txt"; zcat "$out/verify.log.gz" | grep -E "^\[  (FAILED|PASSED) |x[0-9]+ ms, " | head
cat "$out/dispatch_kernels/summary.md" 2>/dev/null | head -30
for s in 1 2 3; do zcat "$out/sweep1000_seed$s.json.gz" | python3 -c 'import json,sys; d=json.load(sys.stdin); print({k: v for k, v in d.get("sweep", {}).items() if k != "worst"})' 2>&1 | tail -1; done
