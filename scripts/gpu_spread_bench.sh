#!/usr/bin/env bash
# On a GPU server with two or more GPUs: the same sweep (the square, lab6 and llm presets) with
# one worker, with --workers 2 (app/worker/bench_spread.h: one worker per GPU), and with one
# worker again (the run-to-run noise the two-worker rows are compared with). Writes each sweep's
# JSON, stderr and wall time to $OUT (or ./gpu-out); scripts/spread_bench_summary.py compares
# them. Usage: OUT=dir scripts/gpu_spread_bench.sh [comma-separated kernel ids]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-out}
mkdir -p "$out"
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS=tclens scripts/gpu_check.sh || exit 1
tclens=build-gpu/bin/tclens
kernels=${1:-mma_cp_async.bf16,wgmma_ws.bf16,wgmma_persistent.bf16,wgmma_streamk.bf16,wgmma_fp8.e4m3}
nvidia-smi -L >"$out/gpus.txt" 2>&1
"$tclens" device >"$out/device.txt" 2>&1

# sweep NAME [bench options...]: one bench of every preset size, timed from start to exit.
sweep() {
    local name=$1
    shift
    local start end
    start=$(date +%s.%N)
    "$tclens" bench --kernels "$kernels" --preset square,lab6,llm --runs 20 --json "$@" \
        >"$out/$name.json" 2>"$out/$name.err"
    local rc=$?
    end=$(date +%s.%N)
    awk -v n="$name" -v rc="$rc" -v s="$start" -v e="$end" \
        'BEGIN { printf "%s rc=%d wall_s=%.1f\n", n, rc, e - s }' | tee -a "$out/walls.txt"
}
sweep one_worker
sweep two_workers --workers 2
sweep one_worker_again
