#!/usr/bin/env bash
# Session 24, second GPU call, two H200s of one host (tree: call 1's + split-K summed inside rung
# 9's kernel by the last CTA of each tile, one launch). First, on GPU 0: the split-K test, rung 14
# verified on every (configuration, tile) pair, the runner's tests, and the two tests call 1
# found wrong on a shared host (DeviceQuery, GpuTurns); the sweeps and presets run only if they
# pass. Then GPU 0: the presets of dispatch.bf16 and dispatch.e4m3 three times, the 1000-shape
# sweep seed 2. GPU 1: dispatch_candidates on the presets' small shapes; every kernel's duration
# under Nsight Compute at 128x3072x3072; rung 9 and rung 8 against cuBLAS at 4096^3; the sweep
# seed 1. Then seed 3 over both GPUs (--workers 2). All in $OUT/call2.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$out/gpus.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests dispatch_candidates" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call2.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
t=$PWD/build-gpu/bin/tclens
echo "built at $(elapsed) s" >>"$out/times.txt"
CUDA_VISIBLE_DEVICES=0 timeout 150 build-gpu/bin/gpu_tests \
    --gtest_filter='SplitKOnGpu.*:Dispatch/*:DispatchOnGpu.*:GemmRunnerOnGpu.*:StreamGateOnGpu.*:DeviceQuery.*:GpuTurnsOnGpu.AWorkerKilled*' \
    >"$out/verify.log" 2>&1
verified=$?
echo "verify exit $verified at $(elapsed) s" >>"$out/times.txt"
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
    for i in 1 2 3; do
        CUDA_VISIBLE_DEVICES=0 timeout 45 "$t" bench --kernels dispatch.bf16,dispatch.e4m3 \
            --preset square,lab6,llm --runs 20 --warmup 2 --json >"$out/presets_$i.json" 2>/dev/null
        echo "presets $i exit $? at $(elapsed) s" >>"$out/times.txt"
    done
    [ "$verified" -eq 0 ] && sweep 0 2
}
lane1() {
    CUDA_VISIBLE_DEVICES=1 timeout 60 build-gpu/bin/dispatch_candidates bf16 512x512x512 \
        1024x1024x1024 16x3072x3072 64x3072x3072 128x3072x3072 256x3072x3072 16x8192x8192 \
        128x8192x8192 >"$out/candidates.md" 2>"$out/candidates.err"
    echo "candidates exit $? at $(elapsed) s" >>"$out/times.txt"
    local ncu
    ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
    CUDA_VISIBLE_DEVICES=1 timeout 60 "$ncu" --metrics gpu__time_duration.sum,launch__grid_size \
        --csv --log-file "$out/durations_128x3072x3072.csv" "$t" bench --kernels dispatch.bf16,cublas.bf16 \
        --mnk 128x3072x3072 --runs 20 --warmup 0 --no-peak >"$out/durations.log" 2>&1
    echo "durations exit $? at $(elapsed) s" >>"$out/times.txt"
    CUDA_VISIBLE_DEVICES=1 timeout 60 "$t" bench --kernels wgmma_tma.bf16,mma_cp_async.bf16,cublas.bf16 \
        --mnk 4096x4096x4096 --runs 50 --warmup 5 --json >"$out/rungs_8_9_4096.json" 2>"$out/rungs_8_9_4096.err"
    echo "rungs 8, 9 at 4096^3 exit $? at $(elapsed) s" >>"$out/times.txt"
    [ "$verified" -eq 0 ] && sweep 1 1
}
lane0 &
lane1 &
wait
[ "$verified" -eq 0 ] && sweep 0,1 3 2
"$t" --version >"$out/version.txt" 2>&1
gzip -f "$out/verify.log" "$out"/sweep1000_seed*.json "$out"/sweep_seed*.err "$out"/durations_*.csv
tar -czf "$final/call2.tgz" -C "$out" .
cat "$out/times.txt"; zcat "$out/verify.log.gz" | grep -E "^\[  (FAILED|PASSED|SKIPPED) |tests ran" | head
for s in 1 2 3; do zcat "$out/sweep1000_seed$s.json.gz" | python3 -c 'import json,sys; d=json.load(sys.stdin); print({k: v for k, v in d.get("sweep", {}).items() if k != "worst"})' 2>&1 | tail -1; done
grep -E "cuBLAS|rung 14|split" "$out/candidates.md" | head -60
