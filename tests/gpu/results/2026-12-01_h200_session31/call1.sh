#!/usr/bin/env bash
# Session 31, first GPU call, one H200: rung 12's tracer made after the warp-specialised start
# (kernels/12_wgmma_stream_k.cu: no spill in the traced kernels) against the code before it
# (tclens_old: the committed 12_wgmma_stream_k.cu, old_12_wgmma_stream_k.cu.txt, uncommitted,
# linked by scripts/gpu_variant.sh): the trace's cost (scripts/gpu_trace_overhead.sh, three
# traces a case) in the order new, old, old, new; both objects' SASS of the traced bf16 kernels;
# the trace tests (TraceCommandOnGpu.*) on the new tree. All in $OUT/call1.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
R=tests/gpu/results/2026-12-01_h200_session31
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call1.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
build-gpu/bin/tclens --version >"$out/version.txt" 2>&1
echo "built at $(elapsed) s" >>"$out/times.txt"
OUT=$out scripts/gpu_variant.sh old kernels/12_wgmma_stream_k.cu $R/old_12_wgmma_stream_k.cu.txt >>"$out/times.txt" 2>&1
echo "old linked exit $? at $(elapsed) s" >>"$out/times.txt"
# The traced bf16 kernels' SASS, new and old.
obj=build-gpu/kernels/CMakeFiles/tclens_kernels.dir/12_wgmma_stream_k.cu.o
for v in new old; do
    o=$obj
    [ $v = old ] && o=$out/variant_old/12_wgmma_stream_k.cu.o
    cuobjdump -sass -arch sm_90a "$o" 2>/dev/null |
        awk '/Function :/ { keep = ($0 ~ /13__nv_bfloat16/ && $0 ~ /Lb1EEEv/) } keep' | gzip >"$out/sass_$v.txt.gz"
done
rm -f "$out/variant_old/12_wgmma_stream_k.cu.o"
i=0
for b in tclens tclens_old tclens_old tclens; do
    i=$((i + 1))
    mkdir -p "$out/trace_${i}_$b"
    TCLENS=build-gpu/bin/$b OUT=$out/trace_${i}_$b BUDGET_S=100 bash scripts/gpu_trace_overhead.sh >/dev/null 2>&1
    echo "trace overhead $i $b exit $? at $(elapsed) s" >>"$out/times.txt"
done
CUDA_VISIBLE_DEVICES=0 timeout 200 build-gpu/bin/gpu_tests --gtest_filter='TraceCommandOnGpu.*' >"$out/verify.log" 2>&1
echo "gpu_tests exit $? at $(elapsed) s" >>"$out/times.txt"
gzip "$out/verify.log"
tar -czf "$final/call1.tgz" -C "$out" .
cat "$out/times.txt"
for d in "$out"/trace_*; do echo "== $(basename "$d")"; grep "^| rung" "$d/trace_overhead.md"; done
zcat "$out/verify.log.gz" | grep -E "overhead|PASSED|FAILED|OK \]" | head -30
