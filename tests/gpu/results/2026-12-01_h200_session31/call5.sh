#!/usr/bin/env bash
# Session 31, fifth GPU call, one H200 (the session's last device time): the trace recorder's SM
# clock read as %clock64 (kernels/trace_warp.cuh), on call 4's tree (rung 12's consumers holding
# their phases after each K loop). How ptxas reads the clock in the traced rung 12 kernels (SASS
# counts), the trace tests of rungs 8-12 (TraceCommandOnGpu.Rung*: each rung's trace against its
# profile, the median overhead of three traces at most 3 %), then the rung 12 cases of
# scripts/gpu_trace_overhead.sh while device time lasts. Written straight into $OUT.
set -u
out=${OUT:-gpu-out}
mkdir -p "$out"
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || exit 1
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
build-gpu/bin/tclens --version >"$out/version.txt" 2>&1
echo "built at $(elapsed) s" >>"$out/times.txt"
cuobjdump -sass -arch sm_90a build-gpu/kernels/CMakeFiles/tclens_kernels.dir/12_wgmma_stream_k.cu.o 2>/dev/null |
    awk '/Function :/ { keep = ($0 ~ /13__nv_bfloat16/ && $0 ~ /Lb1EEEv/) } keep' >"$out/sass.txt"
for r in "S2UR.*SR_CLOCKLO" "CS2R.*SR_CLOCKLO" "SR_GLOBALTIMER"; do
    echo "$r: $(grep -cE "$r" "$out/sass.txt")" >>"$out/times.txt"
done
gzip "$out/sass.txt"
CUDA_VISIBLE_DEVICES=0 timeout 80 build-gpu/bin/gpu_tests --gtest_filter='TraceCommandOnGpu.Rung*' >"$out/verify.log" 2>&1
echo "gpu_tests exit $? at $(elapsed) s" >>"$out/times.txt"
grep -E "overhead of|FAILED|^\[  PASSED|Failure" "$out/verify.log"
gzip "$out/verify.log"
mkdir -p "$out/trace_tree"
OUT=$out/trace_tree REPEAT=5 CASES='rung 12' BUDGET_S=25 timeout 40 bash scripts/gpu_trace_overhead.sh >/dev/null 2>&1
echo "trace overhead exit $? at $(elapsed) s" >>"$out/times.txt"
cat "$out/times.txt"
grep "^| rung" "$out/trace_tree/trace_overhead.md"
