#!/usr/bin/env bash
# Session 23, third GPU call, two H200s of one host (tree: call 2's + rung 14's rules from call
# 2's gated measurements + the short-K GEMM's loads and stores with constant strides). GPU 0:
# rung 14 verified on every (configuration, tile) pair and the runner's tests; the presets of
# dispatch.bf16 and dispatch.e4m3 three times; the 1000-shape sweep, seed 2. GPU 1: the sweep,
# seed 1; Nsight Compute --set full on the short-K GEMM at 9991x6207x24; the trace overhead;
# dispatch_candidates on shapes the new rules moved. All in $OUT/call3.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests dispatch_candidates" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call3.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
t=$PWD/build-gpu/bin/tclens
echo "built at $(elapsed) s" >>"$out/times.txt"
sweep() {  # gpu seed
    local s left
    s=$(date +%s)
    left=$((585 - $(elapsed)))
    CUDA_VISIBLE_DEVICES=$1 timeout "$left" "$t" bench --kernels dispatch.bf16 --sweep 1000 \
        --seed "$2" --runs 20 --warmup 2 --json >"$out/sweep1000_seed$2.json" 2>"$out/sweep_seed$2.err"
    echo "gpu $1 sweep seed $2 exit $? in $(($(date +%s) - s)) s, at $(elapsed) s" >>"$out/times.txt"
}
lane0() {
    CUDA_VISIBLE_DEVICES=0 timeout 120 build-gpu/bin/gpu_tests \
        --gtest_filter='Dispatch/*:DispatchOnGpu.*:GemmRunnerOnGpu.*' >"$out/verify.log" 2>&1
    echo "verify exit $? at $(elapsed) s" >>"$out/times.txt"
    for i in 1 2 3; do
        CUDA_VISIBLE_DEVICES=0 timeout 45 "$t" bench --kernels dispatch.bf16,dispatch.e4m3 \
            --preset square,lab6,llm --runs 20 --warmup 2 --json >"$out/presets_$i.json" 2>/dev/null
        echo "presets $i exit $? at $(elapsed) s" >>"$out/times.txt"
    done
    sweep 0 2
}
lane1() {
    sweep 1 1
    local ncu
    ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
    mkdir -p "$out/short_k_ncu"
    CUDA_VISIBLE_DEVICES=1 timeout 60 "$ncu" --set full --import-source no -k "regex:short_k_gemm" \
        --launch-skip 1 --launch-count 1 -f -o "$out/short_k_ncu/ours" "$t" bench \
        --kernels dispatch.bf16 --mnk 9991x6207x24 --runs 20 --warmup 0 --no-peak \
        >"$out/short_k_ncu/ours.log" 2>&1
    "$ncu" --import "$out/short_k_ncu/ours.ncu-rep" --page details --print-details all \
        >"$out/short_k_ncu/ours.details.txt" 2>&1
    "$ncu" --import "$out/short_k_ncu/ours.ncu-rep" --page source --print-source sass --csv \
        >"$out/short_k_ncu/ours.source.csv" 2>/dev/null
    echo "ncu at $(elapsed) s" >>"$out/times.txt"
    CUDA_VISIBLE_DEVICES=1 timeout 60 build-gpu/bin/dispatch_candidates bf16 8192x64x1024 \
        8576x64x1024 432x16x7696 14199x28x4767 768x320x15552 63x546x1301 4096x64x4096 \
        200x200x3000 9991x6207x24 3253x16313x17 >"$out/candidates.md" 2>"$out/candidates.err"
    echo "candidates exit $? at $(elapsed) s" >>"$out/times.txt"
    local left=$((575 - $(elapsed)))
    [ "$left" -gt 60 ] && CUDA_VISIBLE_DEVICES=1 OUT=$out BUDGET_S=$((left - 30)) timeout "$left" \
        scripts/gpu_trace_overhead.sh >"$out/trace_overhead.log" 2>&1
    echo "trace overhead exit $? at $(elapsed) s" >>"$out/times.txt"
}
lane0 &
lane1 &
wait
"$t" --version >"$out/version.txt" 2>&1
gzip -f "$out/verify.log" "$out"/sweep1000_seed*.json "$out"/sweep_seed*.err
(cd "$out" && tar -czf short_k_ncu.tgz short_k_ncu && rm -rf short_k_ncu)
tar -czf "$final/call3.tgz" -C "$out" .
cat "$out/times.txt"; zcat "$out/verify.log.gz" | grep -E "^\[  (FAILED|PASSED) |tests ran" | head
for s in 1 2; do zcat "$out/sweep1000_seed$s.json.gz" | python3 -c 'import json,sys; d=json.load(sys.stdin); print({k: v for k, v in d.get("sweep", {}).items() if k != "worst"})' 2>&1 | tail -1; done
