#!/usr/bin/env bash
# Session 33, fourth GPU call, one H200 (tree: call 2's rules + rung 9's 64 x 128 tiles that
# take over from 64 x 64 ones leaving both slots part empty run unsplit below K = 2048,
# kNarrowSideSplitMinK, fitted on call 3's 25 shapes; call 3's 64 x 64 rule taken back): every
# configuration (dispatch_candidates, each verified, beside same-run cuBLAS) on 24 fresh shapes
# the rule moves (validation_shapes_call4.txt: drawn after it was set, seed 34, M 65-256, N
# 72-8192, K 1536-2047; 69 of 400 drawn moved), whose rows give the rules of call 2 (64 x 128
# split 2) and this one (rung 14) in one run; the first 12 with twice the K in e4m3; the GPU
# tests of rung 14; the presets three times (dispatch.bf16, dispatch.e4m3). Everything in
# $OUT/call4.tgz, times in $OUT/times.txt.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
R=tests/gpu/results/2026-12-02_h200_session33
pack() { cp "$out/times.txt" "$final/times.txt"; tar -czf "$final/call4.tgz" -C "$out" .; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens dispatch_candidates gpu_tests" OUT=$out \
    scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || { pack; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
echo "built at $(elapsed) s" >>"$out/times.txt"
t=$PWD/build-gpu/bin/tclens
"$t" --version >"$out/version.txt" 2>&1
CUDA_VISIBLE_DEVICES=0 timeout 100 stdbuf -oL build-gpu/bin/dispatch_candidates bf16 \
    $(cat $R/validation_shapes_call4.txt) \
    >"$out/candidates_bf16.md" 2>"$out/candidates_bf16.err"
echo "candidates bf16 exit $? at $(elapsed) s" >>"$out/times.txt"
fp8=$(head -12 $R/validation_shapes_call4.txt | awk -Fx '{print $1 "x" $2 "x" 2 * $3}')
CUDA_VISIBLE_DEVICES=0 timeout 80 stdbuf -oL build-gpu/bin/dispatch_candidates e4m3 $fp8 \
    >"$out/candidates_fp8.md" 2>"$out/candidates_fp8.err"
echo "candidates e4m3 exit $? at $(elapsed) s" >>"$out/times.txt"
pack
CUDA_VISIBLE_DEVICES=0 timeout 100 build-gpu/bin/gpu_tests --gtest_filter='Dispatch*' \
    >"$out/verify.log" 2>&1
echo "verify exit $? at $(elapsed) s" >>"$out/times.txt"
for i in 1 2 3; do
    CUDA_VISIBLE_DEVICES=0 timeout 60 "$t" bench --kernels dispatch.bf16,dispatch.e4m3 \
        --preset square,lab6,llm --runs 20 --warmup 2 --seed "$i" --json \
        >"$out/presets_$i.json" 2>/dev/null
    echo "presets $i exit $? at $(elapsed) s" >>"$out/times.txt"
done
gzip "$out"/*.md "$out"/*.log "$out"/*.json
pack
cat "$out/times.txt"
zcat "$out/verify.log.gz" | tail -3
