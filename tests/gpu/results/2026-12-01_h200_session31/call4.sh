#!/usr/bin/env bash
# Session 31, fourth GPU call, one H200: rung 12's consumers holding their phases after each K
# loop in their lanes until the kernel's end (kernels/trace.cuh, HeldPhaseLog; the tree), and
# variant Q (variant_Q_12_wgmma_stream_k.cu.txt, uncommitted: the tree with the producer's
# records each stored after the next K tile's loads are issued, linked into tclens_Q by
# scripts/gpu_variant.sh): the rung 12 cases of scripts/gpu_trace_overhead.sh, five traces each,
# in the order tree, Q, Q, tree; the trace tests (TraceCommandOnGpu.*, rung 12 now held to 3 %)
# with the tree's tclens and then with tclens_Q in its place; all eight cases on the tree.
# All in $OUT/call4.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
R=tests/gpu/results/2026-12-01_h200_session31
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call4.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
build-gpu/bin/tclens --version >"$out/version.txt" 2>&1
echo "built at $(elapsed) s" >>"$out/times.txt"
OUT=$out scripts/gpu_variant.sh Q kernels/12_wgmma_stream_k.cu $R/variant_Q_12_wgmma_stream_k.cu.txt >>"$out/times.txt" 2>&1
rm -f "$out"/variant_*/*.o
echo "variant linked at $(elapsed) s" >>"$out/times.txt"
i=0
for b in tclens tclens_Q tclens_Q tclens; do
    i=$((i + 1))
    mkdir -p "$out/trace_${i}_$b"
    TCLENS=build-gpu/bin/$b OUT=$out/trace_${i}_$b REPEAT=5 CASES='rung 12' BUDGET_S=100 bash scripts/gpu_trace_overhead.sh >/dev/null 2>&1
    echo "trace overhead $i $b exit $? at $(elapsed) s" >>"$out/times.txt"
done
CUDA_VISIBLE_DEVICES=0 timeout 150 build-gpu/bin/gpu_tests --gtest_filter='TraceCommandOnGpu.*' >"$out/verify_tree.log" 2>&1
echo "gpu_tests (tree) exit $? at $(elapsed) s" >>"$out/times.txt"
cp build-gpu/bin/tclens build-gpu/bin/tclens_tree && cp build-gpu/bin/tclens_Q build-gpu/bin/tclens
CUDA_VISIBLE_DEVICES=0 timeout 150 build-gpu/bin/gpu_tests --gtest_filter='TraceCommandOnGpu.*' >"$out/verify_Q.log" 2>&1
echo "gpu_tests (Q) exit $? at $(elapsed) s" >>"$out/times.txt"
cp build-gpu/bin/tclens_tree build-gpu/bin/tclens
mkdir -p "$out/trace_all_tree"
OUT=$out/trace_all_tree BUDGET_S=100 bash scripts/gpu_trace_overhead.sh >/dev/null 2>&1
echo "trace overhead (all cases, tree) exit $? at $(elapsed) s" >>"$out/times.txt"
gzip "$out"/verify_*.log
tar -czf "$final/call4.tgz" -C "$out" .
cat "$out/times.txt"
for d in "$out"/trace_*; do echo "== $(basename "$d")"; grep "^| rung" "$d/trace_overhead.md"; done
for v in tree Q; do echo "== tests $v"; zcat "$out/verify_$v.log.gz" | grep -E "overhead of|FAILED|^\[  PASSED|Failure" | head -20; done
