#!/usr/bin/env bash
# Session 25, third GPU call, one H200 (tree: call 2's + rung 14's rules from its measurements:
# N <= 64 on 64 x 64 tiles where 128 x 64 ones are few, 64 x 64 tiles over a short K wherever they fill one
# wave of two an SM, 64 x 128 over a deep K where 64 x 64 ones would fill less than 90 % of both
# slots, split-K from K = 768 for at most 8 tiles), one after the other: the split-K and rung 14
# tests (every configuration verified); the presets three times; dispatch_candidates on shapes
# the sweep lost on; the 1000-shape sweep, seed 1. All in $OUT/call3.tgz; the next call (call4.sh) runs
# seed 2 on the same build.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$out/gpus.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests dispatch_candidates" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call3.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
t=$PWD/build-gpu/bin/tclens
echo "built at $(elapsed) s" >>"$out/times.txt"
lane0() {
    CUDA_VISIBLE_DEVICES=0 timeout 200 build-gpu/bin/gpu_tests \
        --gtest_filter='SplitKOnGpu.*:Dispatch/*:DispatchOnGpu.*:StreamGateOnGpu.*' \
        >"$out/verify.log" 2>&1
    echo "verify exit $? at $(elapsed) s" >>"$out/times.txt"
    for i in 1 2 3; do
        CUDA_VISIBLE_DEVICES=0 timeout 45 "$t" bench --kernels dispatch.bf16,dispatch.e4m3 \
            --preset square,lab6,llm --runs 20 --warmup 2 --seed "$i" --json >"$out/presets_$i.json" 2>/dev/null
        echo "presets $i exit $? at $(elapsed) s" >>"$out/times.txt"
    done
}
lane1() {
    CUDA_VISIBLE_DEVICES=0 timeout 100 build-gpu/bin/dispatch_candidates bf16 6448x208x9136 \
        3536x544x1232 192x7360x9024 73x11959x8596 6503x103x11927 >"$out/candidates.md" \
        2>"$out/candidates.err"
    echo "candidates exit $? at $(elapsed) s" >>"$out/times.txt"
}
sweep() {
    local s=$(date +%s) left=$((595 - $(elapsed)))
    CUDA_VISIBLE_DEVICES=0 timeout "$left" "$t" bench --kernels dispatch.bf16 --sweep 1000 --seed 1 \
        --runs 20 --warmup 2 --json >"$out/sweep1000_seed1.json" 2>"$out/sweep_seed1.err"
    echo "sweep seed 1 exit $? in $(($(date +%s) - s)) s, at $(elapsed) s" >>"$out/times.txt"
}
lane0
lane1
sweep
"$t" --version >"$out/version.txt" 2>&1
gzip -f "$out/verify.log" "$out/sweep1000_seed1.json"
tar -czf "$final/call3.tgz" -C "$out" .
cat "$out/times.txt"; zcat "$out/verify.log.gz" | grep -E "^\[  (FAILED|PASSED|SKIPPED) |tests ran" | head
zcat "$out/sweep1000_seed1.json.gz" | python3 -c 'import json,sys; d=json.load(sys.stdin); print({k: v for k, v in d.get("sweep", {}).items() if k != "worst"})'
python3 scripts/bench_median.py "$out/presets_median.json" "$out"/presets_[123].json &&
    python3 scripts/bench_table.py --best16 "$out/presets_median.json"
