#!/usr/bin/env bash
# Session 33, second GPU call, one H200 (tree: rung 14's FP8 rules ask the 16-bit rules of the
# problem with half the K and run rung 9's kernel in e4m3 where they choose it; rung 13's kernel
# split into K ranges taken out, and with it the persistent kernel's gridDim.y): the GPU tests of
# rung 14 (every FP8 configuration on its sizes), rungs 11 and 13 (the persistent kernel changed),
# FP8, split-K and the padded copies; the presets three times (dispatch.bf16, dispatch.e4m3);
# then every FP8 configuration (dispatch_candidates e4m3) on shapes around the 16-bit rules'
# split-K threshold (K / 2 = 1536 ... 4096 for M = 128-256), and the 16-bit candidates of two of
# their equivalents. Results in $OUT.
set -u
out=${OUT:-gpu-out}
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens dispatch_candidates gpu_tests" OUT=$out \
    scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || { tail -30 "$out/build.log"; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
echo "built at $(elapsed) s" >>"$out/times.txt"
t=$PWD/build-gpu/bin/tclens
"$t" --version >"$out/version.txt" 2>&1
CUDA_VISIBLE_DEVICES=0 timeout 200 build-gpu/bin/gpu_tests \
    --gtest_filter='Dispatch*:*Fp8*:*SplitK*:PadCopyOnGpu.*:*wgmma_persistent*:*wgmma_fp8*:GemmRunnerOnGpu.Persistent*' \
    >"$out/verify.log" 2>&1
echo "verify exit $? at $(elapsed) s" >>"$out/times.txt"
gzip "$out/verify.log"
for i in 1 2 3; do
    CUDA_VISIBLE_DEVICES=0 timeout 60 "$t" bench --kernels dispatch.bf16,dispatch.e4m3 \
        --preset square,lab6,llm --runs 20 --warmup 2 --seed "$i" --json \
        >"$out/presets_$i.json" 2>"$out/presets_$i.err"
    echo "presets $i exit $? at $(elapsed) s" >>"$out/times.txt"
    [ -s "$out/presets_$i.err" ] || rm -f "$out/presets_$i.err"
done
shapes="128x3072x4096 256x3072x4096 128x3072x6144 256x3072x6144 192x3072x3072 256x4096x4096
128x3072x8192 256x3072x8192 256x2048x3072 160x3072x3072"
CUDA_VISIBLE_DEVICES=0 timeout 150 stdbuf -oL build-gpu/bin/dispatch_candidates e4m3 $shapes \
    >"$out/candidates_fp8.md" 2>"$out/candidates_fp8.err"
echo "candidates e4m3 exit $? at $(elapsed) s" >>"$out/times.txt"
CUDA_VISIBLE_DEVICES=0 timeout 60 stdbuf -oL build-gpu/bin/dispatch_candidates bf16 \
    128x3072x1536 256x3072x1536 256x3072x2048 >"$out/candidates_bf16.md" 2>"$out/candidates_bf16.err"
echo "candidates bf16 exit $? at $(elapsed) s" >>"$out/times.txt"
cat "$out/times.txt" "$out"/*.err 2>/dev/null
zcat "$out/verify.log.gz" | tail -5
