#!/usr/bin/env bash
# Session 32, fifth GPU call, one H200: rung 12's trace with the SM clock read as the low half of
# %clock64 (CS2R) instead of %clock (S2UR into a uniform register, waited on by the next use):
# kernels/12_wgmma_stream_k.cu compiled with -DTCLENS_TRACE_CLOCK64 (kernels/trace_warp.cuh) into
# tclens_c64 (scripts/gpu_variant.sh) beside the tree; the rung 12 cases of
# scripts/gpu_trace_overhead.sh, five traces each, in the order tree, c64, c64, tree; results
# written after each step. All in $OUT/call5.tgz.
set -u
final=${OUT:-gpu-out}
out=$final/call5
mkdir -p "$out"
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || exit 1
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
build-gpu/bin/tclens --version >"$out/version.txt" 2>&1
echo "built at $(elapsed) s" >>"$out/times.txt"
OUT=$out scripts/gpu_variant.sh c64 kernels/12_wgmma_stream_k.cu -- -DTCLENS_TRACE_CLOCK64 >>"$out/times.txt" 2>&1
echo "c64 linked exit $? at $(elapsed) s" >>"$out/times.txt"
rm -rf "$out"/variant_c64
i=0
for b in tclens tclens_c64 tclens_c64 tclens; do
    i=$((i + 1))
    mkdir -p "$out/trace_${i}_$b"
    TCLENS=build-gpu/bin/$b OUT=$out/trace_${i}_$b REPEAT=5 CASES='rung 12' BUDGET_S=60 bash scripts/gpu_trace_overhead.sh >/dev/null 2>&1
    echo "trace overhead $i $b exit $? at $(elapsed) s" >>"$out/times.txt"
    rm -f "$out/trace_${i}_$b"/*.json "$out/trace_${i}_$b"/*.json.gz
done
cat "$out/times.txt"
for d in "$out"/trace_*; do echo "== $(basename "$d")"; grep "^| rung" "$d/trace_overhead.md"; done
