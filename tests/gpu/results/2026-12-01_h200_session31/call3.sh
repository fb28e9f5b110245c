#!/usr/bin/env bash
# Session 31, third GPU call, one H200: where the traced rung 12's remaining cost is, in its
# small-M mode (call 2: the consumers' per-piece trace points are most of it, their K-tile
# records and the producer little): three variants of kernels/12_wgmma_stream_k.cu
# (variant_{H,G,GH}_12_wgmma_stream_k.cu.txt, uncommitted; H: the consumers' per-piece trace
# points read both clocks but store nothing, G: those after the tile schedule as clock-only marks
# and records, GH: clock-only reads and no stores), each linked into its own tclens_V by
# scripts/gpu_variant.sh, and the tree's; the rung 12 wide and small-M cases of
# scripts/gpu_trace_overhead.sh, five traces each, in the order tree, H, G, GH, GH, G, H, tree.
# All in $OUT/call3.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
R=tests/gpu/results/2026-12-01_h200_session31
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call3.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
build-gpu/bin/tclens --version >"$out/version.txt" 2>&1
echo "built at $(elapsed) s" >>"$out/times.txt"
for v in H G GH; do
    OUT=$out scripts/gpu_variant.sh $v kernels/12_wgmma_stream_k.cu $R/variant_${v}_12_wgmma_stream_k.cu.txt >"$out/variant_$v.log" 2>&1 &
done
wait
cat "$out"/variant_*.log >>"$out/times.txt"
rm -f "$out"/variant_*/*.o
echo "variants linked at $(elapsed) s" >>"$out/times.txt"
i=0
for b in tclens tclens_H tclens_G tclens_GH tclens_GH tclens_G tclens_H tclens; do
    i=$((i + 1))
    mkdir -p "$out/trace_${i}_$b"
    TCLENS=build-gpu/bin/$b OUT=$out/trace_${i}_$b REPEAT=5 CASES='^rung 12 (wide|small M)$' BUDGET_S=100 bash scripts/gpu_trace_overhead.sh >/dev/null 2>&1
    echo "trace overhead $i $b exit $? at $(elapsed) s" >>"$out/times.txt"
done
tar -czf "$final/call3.tgz" -C "$out" .
cat "$out/times.txt"
for d in "$out"/trace_*; do echo "== $(basename "$d")"; grep "^| rung" "$d/trace_overhead.md"; done
