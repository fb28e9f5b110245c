#!/usr/bin/env bash
# Session 19, fourth GPU call (tree: main with rung 14 for FP8, dispatch.e4m3, and the worker's
# mixes merged): every FP8 configuration verified (gpu_tests, as scripts/gpu_dispatch.sh's fp8
# step filters them), the two shipped recordings made again with dispatch.e4m3 in them (written
# straight to $OUT), then the square sizes for FP8 against same-run cuBLASLt with what time is
# left.
set -u
out=${OUT:-gpu-out}
work=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
pack() { tar -czf "$out/call4.tgz" -C "$work" .; }
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests" OUT=$work scripts/gpu_check.sh >"$work/build.log" 2>&1 || {
    pack; exit 1; }
t=build-gpu/bin/tclens
echo "built at $(elapsed) s" >>"$work/times.txt"
timeout 90 build-gpu/bin/gpu_tests \
    --gtest_filter='Dispatch/*e4m3*:DispatchOnGpu.*Fp8*:Fp8/*:Fp8OnGpu.*:Kernels/LadderVerification.*e4m3*:GemmRunnerOnGpu.PersistentRungs*:-*cublaslt*' \
    >"$work/fp8_verify.log" 2>&1
echo "fp8 verify exit $? at $(elapsed) s" >>"$work/times.txt"
pack
for name in h200 h200_b; do
    timeout 165 $t record "$out/$name.json.gz" >"$work/$name.record.log" 2>&1
    echo "record $name exit $? at $(elapsed) s" >>"$work/times.txt"
    pack
done
left=$((585 - $(elapsed)))
[ "$left" -gt 20 ] && timeout "$left" $t bench --kernels wgmma_fp8.e4m3,dispatch.e4m3 --preset square \
    --runs 20 --warmup 2 --json >"$work/fp8_square.json" 2>"$work/fp8_square.err"
echo "fp8 square exit $? at $(elapsed) s" >>"$work/times.txt"
$t --version >"$work/version.txt" 2>&1
pack
cat "$work/times.txt"; tail -4 "$work/fp8_verify.log"
