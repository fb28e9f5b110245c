#!/usr/bin/env bash
# Session 20, first GPU call (tree a3d5329: rung 14's padded path on strided operands, FP8
# dispatch back in main): every configuration rung 14 picks verified (16-bit and FP8, the new
# padded shapes), the rows of rungs 9-14 in the ladder, stream-K's and FP8's series, the padded
# path's cost test; then the sweep of 200 shapes (seed 1) for rungs 9, 11, 12 and dispatch.bf16,
# and the presets for dispatch.bf16 and dispatch.e4m3, one run each.
set -u
out=${OUT:-gpu-out}
work=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests" OUT=$work scripts/gpu_check.sh >"$work/build.log" 2>&1 || {
    tar -czf "$out/call1.tgz" -C "$work" .; exit 1; }
t=build-gpu/bin/tclens
echo "built at $(elapsed) s" >>"$work/times.txt"
timeout 230 build-gpu/bin/gpu_tests --gtest_filter='Dispatch/*:DispatchOnGpu.*:StreamK/*:Fp8/*:Fp8OnGpu.*:GemmRunnerOnGpu.PersistentRungs*:Kernels/LadderVerification.*wgmma_tma*:Kernels/LadderVerification.*wgmma_ws*:Kernels/LadderVerification.*wgmma_streamk*:Kernels/LadderVerification.*dispatch*' \
    >"$work/verify.log" 2>&1
echo "verify exit $? at $(elapsed) s" >>"$work/times.txt"
timeout 130 $t bench --kernels wgmma_tma.bf16,wgmma_persistent.bf16,wgmma_streamk.bf16,dispatch.bf16 \
    --sweep 200 --seed 1 --runs 20 --warmup 2 --json >"$work/sweep_seed1.json" 2>"$work/sweep.err"
echo "sweep exit $? at $(elapsed) s" >>"$work/times.txt"
left=$((575 - $(elapsed)))
[ "$left" -gt 20 ] && timeout "$left" $t bench --kernels dispatch.bf16,dispatch.e4m3 \
    --preset square,lab6,llm --runs 20 --warmup 2 --json >"$work/presets.json" 2>"$work/presets.err"
echo "presets exit $? at $(elapsed) s" >>"$work/times.txt"
$t --version >"$work/version.txt" 2>&1
tar -czf "$out/call1.tgz" -C "$work" .
cat "$work/times.txt"; grep -E "^\[  (FAILED|PASSED|SKIPPED) |tests ran|dispatch.bf16 8192x8192" "$work/verify.log" | head -40
