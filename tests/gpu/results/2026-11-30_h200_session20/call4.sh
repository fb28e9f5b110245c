#!/usr/bin/env bash
# Session 20, fourth GPU call (tree: call 3's + the element tolerance's floor): rung 14 verified
# on every configuration (16-bit and FP8) with the padded-path cost test; rungs 1-3 at 3072^3
# against the new element tolerance; the square, lab6 and llm presets for dispatch.bf16 and
# dispatch.e4m3 three times (median of 3); the sweep of 200 shapes, seed 2. Results go straight
# to $OUT, so a call cut short by the device time left still returns what finished.
set -u
out=${OUT:-gpu-out}
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || exit 1
rm -f "$out/build.log" "$out/nvidia_smi.txt"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
t=build-gpu/bin/tclens
echo "built at $(elapsed) s" >>"$out/times.txt"
timeout 70 build-gpu/bin/gpu_tests --gtest_filter='Dispatch/*:DispatchOnGpu.*' >"$out/verify.log" 2>&1
echo "verify exit $? at $(elapsed) s" >>"$out/times.txt"
timeout 30 $t bench --kernels naive_fma.f32,smem_tiled.f32,register_tiled.f32 --mnk 3072x3072x3072 \
    --runs 20 --warmup 1 --no-peak >"$out/rungs1to3_3072.txt" 2>&1
echo "rungs 1-3 exit $? at $(elapsed) s" >>"$out/times.txt"
for i in 1 2 3; do
    timeout 40 $t bench --kernels dispatch.bf16,dispatch.e4m3 --preset square,lab6,llm \
        --runs 20 --warmup 2 --json >>"$out/presets3.json" 2>/dev/null
    echo "presets $i exit $? at $(elapsed) s" >>"$out/times.txt"
done
timeout 90 $t bench --kernels dispatch.bf16 --sweep 200 --seed 2 --runs 20 --warmup 2 --json \
    >"$out/sweep_seed2.json" 2>/dev/null
echo "sweep exit $? at $(elapsed) s" >>"$out/times.txt"
$t --version >"$out/version.txt" 2>&1
cat "$out/times.txt"; grep -E "^\[  (FAILED|PASSED) |dispatch.bf16 [0-9]+x[0-9]+x[0-9]+ [0-9.]+ ms" "$out/verify.log"; cat "$out/rungs1to3_3072.txt" | tail -6
