#!/usr/bin/env bash
# Session 25, second GPU call, one H200 (tree: call 1's + rung 14's rules on 64 x 64 tiles where
# 128 x 128 ones are few, in 12 stages where they take one wave unsplit), one after the other:
# dispatch_candidates on shapes the sweep of session 24 lost on (few tiles over K 400-2000, N <= 64,
# M = 192-208 over a deep K); the split-K, rung 14 and ladder tests (every configuration verified); the
# presets three times; the 1000-shape sweep, seed 1. All in $OUT/call2.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$out/gpus.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests dispatch_candidates" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call2.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
t=$PWD/build-gpu/bin/tclens
echo "built at $(elapsed) s" >>"$out/times.txt"
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
lane0() {
    CUDA_VISIBLE_DEVICES=0 timeout 200 build-gpu/bin/gpu_tests \
        --gtest_filter='SplitKOnGpu.*:Dispatch/*:DispatchOnGpu.*:StreamGateOnGpu.*:Kernels/LadderVerification.*' \
        >"$out/verify.log" 2>&1
    echo "verify exit $? at $(elapsed) s" >>"$out/times.txt"
    for i in 1 2 3; do
        CUDA_VISIBLE_DEVICES=0 timeout 45 "$t" bench --kernels dispatch.bf16,dispatch.e4m3 \
            --preset square,lab6,llm --runs 20 --warmup 2 --seed "$i" --json >"$out/presets_$i.json" 2>/dev/null
        echo "presets $i exit $? at $(elapsed) s" >>"$out/times.txt"
    done
}
lane1() {
    CUDA_VISIBLE_DEVICES=0 timeout 200 build-gpu/bin/dispatch_candidates bf16 64x64x1216 128x64x1408 \
        240x64x848 1152x64x576 1472x64x448 4352x64x1344 1344x816x96 912x192x768 1024x320x448 \
        720x624x176 1792x576x832 624x1904x2192 3536x544x1232 192x7360x9024 208x7664x13920 \
        1216x128x448 1280x128x1344 >"$out/candidates.md" 2>"$out/candidates.err"
    echo "candidates exit $? at $(elapsed) s" >>"$out/times.txt"
}
sweep() {
    local s=$(date +%s) left=$((595 - $(elapsed)))
    CUDA_VISIBLE_DEVICES=0 timeout "$left" "$t" bench --kernels dispatch.bf16 --sweep 1000 --seed 1 \
        --runs 20 --warmup 2 --json >"$out/sweep1000_seed1.json" 2>"$out/sweep_seed1.err"
    echo "sweep seed 1 exit $? in $(($(date +%s) - s)) s, at $(elapsed) s" >>"$out/times.txt"
}
lane1
lane0
sweep
"$t" --version >"$out/version.txt" 2>&1
gzip -f "$out/verify.log" "$out/sweep1000_seed1.json"
tar -czf "$final/call2.tgz" -C "$out" .
cat "$out/times.txt"; zcat "$out/verify.log.gz" | grep -E "^\[  (FAILED|PASSED|SKIPPED) |tests ran" | head
python3 scripts/bench_median.py "$out/presets_median.json" "$out"/presets_[123].json &&
    python3 scripts/bench_table.py "$out/presets_median.json" | grep -E "dispatch|size" | head -60
zcat "$out/sweep1000_seed1.json.gz" | python3 -c 'import json,sys; d=json.load(sys.stdin); print({k: v for k, v in d.get("sweep", {}).items() if k != "worst"})'
cat "$out/candidates.md" | head -100
