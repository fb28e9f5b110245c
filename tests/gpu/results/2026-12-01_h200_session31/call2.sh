#!/usr/bin/env bash
# Session 31, second GPU call, one H200: where the traced rung 12's remaining cost is, in its
# small-M mode above all (call 1: 5-7 % at 64x3072x3072 with the tracer made after the start):
# three variants of kernels/12_wgmma_stream_k.cu (variant_{P,C,W}_12_wgmma_stream_k.cu.txt,
# uncommitted; P: the producer untraced, C: the consumers untraced, W: the consumers without
# their K-tile records), each linked into its own tclens_V by scripts/gpu_variant.sh, and the
# tree's; the rung 12 cases of scripts/gpu_trace_overhead.sh, five traces each, in the order
# tree, P, C, W, W, C, P, tree. All in $OUT/call2.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
R=tests/gpu/results/2026-12-01_h200_session31
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call2.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
build-gpu/bin/tclens --version >"$out/version.txt" 2>&1
echo "built at $(elapsed) s" >>"$out/times.txt"
for v in P C W; do
    OUT=$out scripts/gpu_variant.sh $v kernels/12_wgmma_stream_k.cu $R/variant_${v}_12_wgmma_stream_k.cu.txt >"$out/variant_$v.log" 2>&1 &
done
wait
cat "$out"/variant_?.log >>"$out/times.txt"
rm -f "$out"/variant_*/*.o
echo "variants linked at $(elapsed) s" >>"$out/times.txt"
i=0
for b in tclens tclens_P tclens_C tclens_W tclens_W tclens_C tclens_P tclens; do
    i=$((i + 1))
    mkdir -p "$out/trace_${i}_$b"
    TCLENS=build-gpu/bin/$b OUT=$out/trace_${i}_$b REPEAT=5 CASES='rung 12' BUDGET_S=100 bash scripts/gpu_trace_overhead.sh >/dev/null 2>&1
    echo "trace overhead $i $b exit $? at $(elapsed) s" >>"$out/times.txt"
done
tar -czf "$final/call2.tgz" -C "$out" .
cat "$out/times.txt"
for d in "$out"/trace_*; do echo "== $(basename "$d")"; grep "^| rung" "$d/trace_overhead.md"; done
