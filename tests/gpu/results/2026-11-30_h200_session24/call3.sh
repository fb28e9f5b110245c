#!/usr/bin/env bash
# Session 24, third GPU call, two H200s of one host (tree: call 1's kernels again, split-K's
# separate sum kernel restored after call 2 measured the fused sum slower, + the two test
# fixes). GPU 0: rung 14 verified on every (configuration, tile) pair, the runner's and the
# gate's tests, DeviceQuery and GpuTurns; then the shipped recording h200.json.gz made again.
# GPU 1: h200_b.json.gz made again. Then, time permitting, the 1000-shape sweep seed 1 over both
# GPUs (--workers 2). All in $OUT/call3.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$out/gpus.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call3.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
t=$PWD/build-gpu/bin/tclens
echo "built at $(elapsed) s" >>"$out/times.txt"
record() {  # gpu name
    local s
    s=$(date +%s)
    CUDA_VISIBLE_DEVICES=$1 timeout 260 "$t" record "$out/$2.json.gz" >"$out/$2.record.log" 2>&1
    echo "gpu $1 record $2 exit $? in $(($(date +%s) - s)) s, at $(elapsed) s" >>"$out/times.txt"
}
lane0() {
    CUDA_VISIBLE_DEVICES=0 timeout 90 build-gpu/bin/gpu_tests \
        --gtest_filter='Dispatch/*:DispatchOnGpu.*:GemmRunnerOnGpu.*:StreamGateOnGpu.*:DeviceQuery.*:GpuTurnsOnGpu.AWorkerKilled*' \
        >"$out/verify.log" 2>&1
    echo "verify exit $? at $(elapsed) s" >>"$out/times.txt"
    record 0 h200
}
lane0 &
record 1 h200_b &
wait
left=$((545 - $(elapsed)))
if [ "$left" -gt 100 ]; then
    s=$(date +%s)
    CUDA_VISIBLE_DEVICES=0,1 timeout "$left" "$t" bench --kernels dispatch.bf16 --sweep 1000 \
        --seed 1 --runs 20 --warmup 2 --workers 2 --json >"$out/sweep1000_seed1.json" 2>"$out/sweep_seed1.err"
    echo "gpus 0,1 sweep seed 1 exit $? in $(($(date +%s) - s)) s, at $(elapsed) s" >>"$out/times.txt"
fi
"$t" --version >"$out/version.txt" 2>&1
gzip -f "$out/verify.log" "$out/sweep1000_seed1.json" "$out/sweep_seed1.err"
tar -czf "$final/call3.tgz" -C "$out" .
cat "$out/times.txt"; zcat "$out/verify.log.gz" | grep -E "^\[  (FAILED|PASSED|SKIPPED) |tests ran" | head
tail -2 "$out"/*.record.log
zcat "$out/sweep1000_seed1.json.gz" | python3 -c 'import json,sys; d=json.load(sys.stdin); print({k: v for k, v in d.get("sweep", {}).items() if k != "worst"})' 2>&1 | tail -1
