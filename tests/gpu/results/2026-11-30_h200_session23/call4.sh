#!/usr/bin/env bash
# Session 23, fourth GPU call, two H200s of one host (tree: call 3's + 128 x 64 tiles for N <= 64
# and 128 x 128 for deep K over more than 256 rows, from call 3's candidates). GPU 0: rung 14
# verified on every (configuration, tile) pair, the runner's and the gate's tests; the presets of
# dispatch.bf16 and dispatch.e4m3 three times; the 1000-shape sweep, seed 2. GPU 1: the sweep,
# seed 1. Then seed 3 over both GPUs (--workers 2). All in $OUT/call4.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call4.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
t=$PWD/build-gpu/bin/tclens
echo "built at $(elapsed) s" >>"$out/times.txt"
sweep() {  # devices seed [workers]
    local s left
    s=$(date +%s)
    left=$((590 - $(elapsed)))
    CUDA_VISIBLE_DEVICES=$1 timeout "$left" "$t" bench --kernels dispatch.bf16 --sweep 1000 \
        --seed "$2" --runs 20 --warmup 2 --workers "${3:-1}" --json \
        >"$out/sweep1000_seed$2.json" 2>"$out/sweep_seed$2.err"
    echo "gpus $1 sweep seed $2 exit $? in $(($(date +%s) - s)) s, at $(elapsed) s" >>"$out/times.txt"
}
lane0() {
    CUDA_VISIBLE_DEVICES=0 timeout 120 build-gpu/bin/gpu_tests \
        --gtest_filter='Dispatch/*:DispatchOnGpu.*:GemmRunnerOnGpu.*:StreamGateOnGpu.*' \
        >"$out/verify.log" 2>&1
    echo "verify exit $? at $(elapsed) s" >>"$out/times.txt"
    for i in 1 2 3; do
        CUDA_VISIBLE_DEVICES=0 timeout 45 "$t" bench --kernels dispatch.bf16,dispatch.e4m3 \
            --preset square,lab6,llm --runs 20 --warmup 2 --json >"$out/presets_$i.json" 2>/dev/null
        echo "presets $i exit $? at $(elapsed) s" >>"$out/times.txt"
    done
    sweep 0 2
}
lane0 &
sweep 1 1 &
wait
sweep 0,1 3 2
"$t" --version >"$out/version.txt" 2>&1
gzip -f "$out/verify.log" "$out"/sweep1000_seed*.json "$out"/sweep_seed*.err
tar -czf "$final/call4.tgz" -C "$out" .
cat "$out/times.txt"; zcat "$out/verify.log.gz" | grep -E "^\[  (FAILED|PASSED) |tests ran" | head
for s in 1 2 3; do zcat "$out/sweep1000_seed$s.json.gz" | python3 -c 'import json,sys; d=json.load(sys.stdin); print({k: v for k, v in d.get("sweep", {}).items() if k != "worst"})' 2>&1 | tail -1; done
