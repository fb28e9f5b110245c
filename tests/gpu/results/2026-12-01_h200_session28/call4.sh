#!/usr/bin/env bash
# Session 28, fourth GPU call, one H200, on the tree with the short-K rules as call 3's sweeps
# left them (an odd N up to six K tiles; fewer tiles than half the SMs give way to rung 9 where
# they are at most one per 8 SMs or K > 96): rung 14's GPU tests on every configuration, then
# dispatch_candidates on 36 fresh shapes (validation_shapes.py: drawn after the rules were set,
# in the classes they decide) to check the rules on shapes they were not fitted on. All in
# $OUT/call4.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$out/gpus.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests dispatch_candidates" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call4.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
build-gpu/bin/tclens --version >"$out/version.txt" 2>&1
echo "built at $(elapsed) s" >>"$out/times.txt"
CUDA_VISIBLE_DEVICES=0 timeout 60 build-gpu/bin/gpu_tests \
    --gtest_filter='Dispatch/*:DispatchOnGpu.*' >"$out/verify.log" 2>&1
echo "verify exit $? at $(elapsed) s" >>"$out/times.txt"
CUDA_VISIBLE_DEVICES=0 timeout $((220 - $(elapsed))) stdbuf -oL build-gpu/bin/dispatch_candidates bf16 \
    $(cat tests/gpu/results/2026-12-01_h200_session28/validation_shapes.txt) \
    >"$out/candidates.md" 2>"$out/candidates.err"
echo "candidates exit $? at $(elapsed) s" >>"$out/times.txt"
gzip -f "$out/verify.log"
tar -czf "$final/call4.tgz" -C "$out" .
cat "$out/times.txt"; zcat "$out/verify.log.gz" | grep -E "^\[  (FAILED|PASSED|SKIPPED) |tests ran" | head -20
grep -E "rung 14|short-K" "$out/candidates.md" | cut -c1-120 | head -80
