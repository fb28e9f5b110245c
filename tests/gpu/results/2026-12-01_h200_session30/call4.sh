#!/usr/bin/env bash
# Session 30, fourth GPU call, one H200: every configuration rung 14 could pick
# (dispatch_candidates, each verified before it is timed) on 85 of the sweeps' shapes that rung 14
# runs unsplit on rung 9's 64 x 128 (M <= 64) or 128 x 128 tiles over K < 768 or 1536 while rung
# 11's tiles fill less than 70 % of a wave (46 of 96 and 39 of 78: the worst 30 and every fourth
# of the first, every second of the second, by the sweeps' ratio to cuBLAS; the two classes of
# those rules least well served after call 3's rule). The tree of call 3's rule. All in
# $OUT/call4.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens dispatch_candidates" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call4.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
echo "built at $(elapsed) s" >>"$out/times.txt"
build-gpu/bin/tclens --version >"$out/version.txt" 2>&1
shapes=$(cat tests/gpu/results/2026-12-01_h200_session30/call4_shapes.txt)
CUDA_VISIBLE_DEVICES=0 timeout 400 stdbuf -oL build-gpu/bin/dispatch_candidates bf16 $shapes \
    >"$out/candidates.md" 2>"$out/candidates.err"
echo "candidates exit $? at $(elapsed) s" >>"$out/times.txt"
gzip "$out"/*.md
tar -czf "$final/call4.tgz" -C "$out" .
cat "$out/times.txt"
