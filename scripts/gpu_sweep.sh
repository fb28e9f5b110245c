#!/usr/bin/env bash
# `tclens bench --sweep` on a GPU server (issue 34): builds tclens (scripts/gpu_check.sh, targets
# tclens only) and runs the sweep of SWEEP_N shapes (default 200) for each seed of SWEEP_SEEDS
# (default "1 2 3") over SWEEP_KERNELS (default: the bf16 rungs from 7 up), --runs 20
# --warmup 2, writing $OUT/sweep_seedS.json (the bench with its "sweep" summary), its stderr, and
# $OUT/times.txt. Each seed's run is cut at SWEEP_LIMIT_S seconds (default 400).
set -u
cd "$(dirname "$0")/.."
out=${OUT:-gpu-out}
mkdir -p "$out"
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS=tclens OUT="$out" scripts/gpu_check.sh || exit 1
kernels=${SWEEP_KERNELS:-mma_ldmatrix_xor.bf16,mma_cp_async.bf16,wgmma_tma.bf16,wgmma_ws.bf16,wgmma_persistent.bf16,wgmma_streamk.bf16}
for seed in ${SWEEP_SEEDS:-1 2 3}; do
    started=$(date +%s)
    timeout "${SWEEP_LIMIT_S:-400}" build-gpu/bin/tclens bench --kernels "$kernels" \
        --sweep "${SWEEP_N:-200}" --seed "$seed" --runs 20 --warmup 2 --json \
        >"$out/sweep_seed$seed.json" 2>"$out/sweep_seed$seed.err"
    echo "seed $seed: exit $? in $(($(date +%s) - started)) s" >>"$out/times.txt"
done
