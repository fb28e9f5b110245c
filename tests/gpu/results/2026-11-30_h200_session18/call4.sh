#!/usr/bin/env bash
# Session 18, fourth GPU call: rungs 11 and 13 with their Configs' numbers in plain C++
# (kernels/persistent_gemm.h) verified and timed as before, and rung 14 with the stream-K rule
# for split-K's case over a wide N (kernels/dispatch_rules.cpp, kStreamKMinN) on the presets.
set -u
out=${OUT:-gpu-out}
work=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests" OUT=$work scripts/gpu_check.sh || {
    tar -czf "$out/call4.tgz" -C "$work" .; exit 1; }
echo "built at $(elapsed) s" >>"$work/times.txt"
timeout 150 build-gpu/bin/gpu_tests --gtest_filter='Kernels/LadderVerification.*wgmma_persistent*:Kernels/LadderVerification.*wgmma_fp8*:Kernels/LadderVerification.*dispatch*:Dispatch/*:DispatchOnGpu.*:Fp8/*:StreamK/*:TraceCommandOnGpu.RungEleven*' \
    >"$work/verify.log" 2>&1
echo "verify exit $? at $(elapsed) s" >>"$work/times.txt"
left=$((320 - $(elapsed)))
[ "$left" -gt 20 ] && timeout "$left" build-gpu/bin/tclens bench \
    --kernels wgmma_tma.bf16,wgmma_persistent.bf16,wgmma_streamk.bf16,dispatch.bf16,wgmma_fp8.e4m3 \
    --preset square,lab6,llm --runs 20 --warmup 2 --json >"$work/presets.json" 2>"$work/presets.err"
echo "presets exit $? at $(elapsed) s" >>"$work/times.txt"
build-gpu/bin/tclens --version >"$work/version.txt" 2>&1
tar -czf "$out/call4.tgz" -C "$work" .
cat "$work/times.txt"; grep -E "^\[  (PASSED|FAILED)" "$work/verify.log"
