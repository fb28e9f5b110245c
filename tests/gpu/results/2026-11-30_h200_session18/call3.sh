#!/usr/bin/env bash
# Session 18, third GPU call: rung 14 verified through the GPU registry, the rung-11 path's one
# wrong result of call 2 repeated, the two shipped recordings made again with rung 14, then the
# GPU tests of the paths the registry split changed, as long as the call lasts.
set -u
out=${OUT:-gpu-out}
work=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests" OUT=$work scripts/gpu_check.sh || {
    tar -czf "$out/call3.tgz" -C "$work" .; exit 1; }
t=build-gpu/bin/tclens
echo "built at $(elapsed) s" >>"$work/times.txt"
timeout 120 build-gpu/bin/gpu_tests --gtest_filter='Dispatch/*:DispatchOnGpu.*' >"$work/verify.log" 2>&1
echo "verify exit $? at $(elapsed) s" >>"$work/times.txt"
for i in 1 2 3; do
    timeout 60 $t bench --kernels wgmma_persistent.bf16,dispatch.bf16 --mnk 9136x3680x80 --runs 20 \
        --no-peak >>"$work/r11_9136x3680x80.txt" 2>&1
done
echo "r11 repeat at $(elapsed) s" >>"$work/times.txt"
for name in h200 h200_b; do
    timeout 150 $t record "$work/$name.json.gz" >"$work/$name.record.log" 2>&1
    echo "record $name exit $? at $(elapsed) s" >>"$work/times.txt"
done
left=$((550 - $(elapsed)))
if [ "$left" -gt 30 ]; then
    TCLENS_RESULTS_DIR=$work timeout "$left" ctest --test-dir build-gpu --output-on-failure -L gpu \
        -R 'StreamK|Fp8|GemmRunnerOnGpu|BenchCommandOnGpu|KernelProfile|SourceProfile|TraceCommandOnGpu|WorkerOnGpu|UserKernelGpu|RecordCommandOnGpu|Ladder' \
        >"$work/ctest.log" 2>&1
    echo "ctest exit $? at $(elapsed) s" >>"$work/times.txt"
fi
$t --version >"$work/version.txt" 2>&1
tar -czf "$out/call3.tgz" -C "$work" .
cat "$work/times.txt"; tail -3 "$work/verify.log"
