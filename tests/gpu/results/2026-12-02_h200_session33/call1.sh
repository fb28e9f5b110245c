#!/usr/bin/env bash
# Session 33, first GPU call, one H200: rung 9's kernel with e4m3 inputs (k32 wgmma, B^T's K-major
# boxes) in its five tiles, split or not, beside the FP8 persistent configurations and same-run
# cuBLASLt (dispatch_candidates e4m3: each verified before it is timed) on the FP8 presets and a
# few ragged and skinny shapes; then rung 14's GPU tests (DispatchVerification covers
# dispatch.e4m3 on its sizes, now through rung 9's kernel where the rules say). Results in $OUT.
set -u
final=${OUT:-gpu-out}
out=$final
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens dispatch_candidates gpu_tests" OUT=$out \
    scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || { tail -30 "$out/build.log"; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
echo "built at $(elapsed) s" >>"$out/times.txt"
build-gpu/bin/tclens --version >"$out/version.txt" 2>&1
shapes="1024x1024x1024 512x512x512 16x3072x3072 64x3072x3072 128x3072x3072 256x3072x3072
512x3072x3072 16x8192x8192 128x8192x8192 200x520x400 432x16x7696 17x33x129 768x768x768
1024x3072x3072 2048x2048x2048"
CUDA_VISIBLE_DEVICES=0 timeout 300 stdbuf -oL build-gpu/bin/dispatch_candidates e4m3 $shapes \
    >"$out/candidates.md" 2>"$out/candidates.err"
echo "candidates exit $? at $(elapsed) s" >>"$out/times.txt"
CUDA_VISIBLE_DEVICES=0 timeout 150 build-gpu/bin/gpu_tests \
    --gtest_filter='Dispatch*:*Fp8*:*SplitK*' >"$out/verify.log" 2>&1
echo "gpu_tests exit $? at $(elapsed) s" >>"$out/times.txt"
gzip -k "$out/verify.log"
cat "$out/times.txt" "$out/candidates.err"
tail -5 "$out/verify.log"
