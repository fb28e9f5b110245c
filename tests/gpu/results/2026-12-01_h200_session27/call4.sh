#!/usr/bin/env bash
# Session 27, fourth GPU call, one H200, on the tree whose trace recorder reads its buffers'
# addresses from the sink in constant memory (kernels/trace_warp.cuh: five registers fewer in
# every recording thread; rung 12's traced kernels still spill under ptxas): every trace GPU test
# (rungs 8-12 and kernels of yours), the trace overhead table, rung 12's traced kernels' SASS
# (where they spill), and Nsight Compute on rung 12 traced and untraced at 3072^3
# (KERNEL=wgmma_streamk.bf16 scripts/gpu_trace_ncu.sh). All in $OUT/call4.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$out/gpus.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call4.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
t=$PWD/build-gpu/bin/tclens
"$t" --version >"$out/version.txt" 2>&1
echo "built at $(elapsed) s" >>"$out/times.txt"
CUDA_VISIBLE_DEVICES=0 timeout 150 build-gpu/bin/gpu_tests --gtest_filter='TraceCommandOnGpu.*' \
    >"$out/verify.log" 2>&1
echo "verify exit $? at $(elapsed) s" >>"$out/times.txt"
CUDA_VISIBLE_DEVICES=0 OUT=$out BUDGET_S=60 timeout 80 scripts/gpu_trace_overhead.sh \
    >"$out/trace_overhead.log" 2>&1
echo "trace overhead exit $? at $(elapsed) s" >>"$out/times.txt"
cuobjdump -sass -arch sm_90a "$t" 2>/dev/null |
    awk '/Function : .*stream_k_gemm/{p=1} /Function : /&&!/stream_k_gemm/{p=0} p' | gzip >"$out/stream_k_sass.txt.gz"
echo "sass at $(elapsed) s" >>"$out/times.txt"
CUDA_VISIBLE_DEVICES=0 KERNEL=wgmma_streamk.bf16 SIZE=3072x3072x3072 OUT=$out timeout 90 \
    scripts/gpu_trace_ncu.sh >"$out/trace_ncu.log" 2>&1
echo "trace ncu exit $? at $(elapsed) s" >>"$out/times.txt"
[ -d "$out/trace_ncu" ] && (cd "$out" && rm -f trace_ncu/probe.json && tar -czf trace_ncu.tgz trace_ncu && rm -rf trace_ncu)
gzip -f "$out/verify.log"
tar -czf "$final/call4.tgz" -C "$out" .
cat "$out/times.txt"; zcat "$out/verify.log.gz" | grep -E "^\[  (FAILED|PASSED|SKIPPED) |tests ran|overhead of" | head -20
tail -14 "$out/trace_overhead.md" 2>/dev/null
zcat "$out/stream_k_sass.txt.gz" | grep -E "Function :|STL|LDL" | cut -c1-110 | head -40
