#!/usr/bin/env bash
# Session 30, second GPU call, one H200: every configuration rung 14 could pick
# (dispatch_candidates, each verified before it is timed) on 71 of the sweeps' 283 shapes whose
# 128 x 128 tiles fill at most half of the SMs over K >= 1536 with M > 256 (every fourth by the
# sweeps' ratio to cuBLAS): where the rules run 128 x 128 (128 x 64) tiles split many ways, call
# 1 found 64 x 64 tiles split fewer ways 10-25 points ahead. The committed tree (bab19e7's
# kernels). All in $OUT/call2.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens dispatch_candidates" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call2.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
echo "built at $(elapsed) s" >>"$out/times.txt"
build-gpu/bin/tclens --version >"$out/version.txt" 2>&1
shapes=$(cat tests/gpu/results/2026-12-01_h200_session30/call2_shapes.txt)
CUDA_VISIBLE_DEVICES=0 timeout 300 stdbuf -oL build-gpu/bin/dispatch_candidates bf16 $shapes \
    >"$out/candidates.md" 2>"$out/candidates.err"
echo "candidates exit $? at $(elapsed) s" >>"$out/times.txt"
gzip "$out"/*.md
tar -czf "$final/call2.tgz" -C "$out" .
cat "$out/times.txt"
