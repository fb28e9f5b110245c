#!/usr/bin/env bash
# Session 18, second GPU call: the merged tree (rung descriptors without CUDA, launches through
# kernels/gpu_registry.h, rung 14) built, rung 14 verified on every configuration its rules pick
# and timed: scripts/gpu_dispatch.sh's verify, sweep (200 shapes, seed 1) and presets steps.
set -u
out=${OUT:-gpu-out}
work=$(mktemp -d)
started=$(date +%s)
OUT=$work DISPATCH_STEPS=verify scripts/gpu_dispatch.sh
echo "verify done at $(($(date +%s) - started)) s"
OUT=$work DISPATCH_STEPS=sweep SWEEP_N=200 SWEEP_SEEDS=1 SWEEP_LIMIT_S=170 scripts/gpu_dispatch.sh
echo "sweep done at $(($(date +%s) - started)) s"
left=$((560 - ($(date +%s) - started)))
[ "$left" -gt 30 ] && timeout "$left" build-gpu/bin/tclens bench \
    --kernels wgmma_tma.bf16,wgmma_persistent.bf16,wgmma_streamk.bf16,dispatch.bf16 \
    --preset square,lab6,llm --runs 20 --warmup 2 --json >"$work/presets.json" 2>>"$work/stderr.log"
echo "presets exit $? at $(($(date +%s) - started)) s" | tee -a "$work/times.txt"
build-gpu/bin/tclens --version >"$work/version.txt" 2>&1
tar -czf "$out/call2.tgz" -C "$work" .
tail -20 "$work/verify.log"
