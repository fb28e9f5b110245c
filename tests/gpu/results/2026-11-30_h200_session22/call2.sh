#!/usr/bin/env bash
# Session 22, second GPU call, two H200s of one host (tree: call 1's + the short-K GEMM's C
# through the stage, whole row segments a warp). GPU 0: rung 14 verified on every (configuration,
# tile) pair with the padded-path cost test, then the shipped recording h200.json.gz made again,
# then the square, lab6 and llm presets of dispatch.bf16 and dispatch.e4m3 three times. GPU 1:
# h200_b.json.gz, then the 1000-shape sweep of dispatch.bf16, seed 3. All in $OUT/call2.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call2.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
t=$PWD/build-gpu/bin/tclens
echo "built at $(elapsed) s" >>"$out/times.txt"
record() {  # gpu name
    local s
    s=$(date +%s)
    CUDA_VISIBLE_DEVICES=$1 timeout 260 "$t" record "$out/$2.json.gz" >"$out/$2.record.log" 2>&1
    echo "gpu $1 record $2 exit $? in $(($(date +%s) - s)) s, at $(elapsed) s" >>"$out/times.txt"
}
lane0() {
    CUDA_VISIBLE_DEVICES=0 timeout 90 build-gpu/bin/gpu_tests --gtest_filter='Dispatch/*:DispatchOnGpu.*' \
        >"$out/verify.log" 2>&1
    echo "verify exit $? at $(elapsed) s" >>"$out/times.txt"
    record 0 h200
    for i in 1 2 3; do
        [ $((570 - $(elapsed))) -gt 45 ] || break
        CUDA_VISIBLE_DEVICES=0 timeout 45 "$t" bench --kernels dispatch.bf16,dispatch.e4m3 --preset square,lab6,llm \
            --runs 20 --warmup 2 --json >"$out/presets_$i.json" 2>/dev/null
        echo "presets $i exit $? at $(elapsed) s" >>"$out/times.txt"
    done
}
lane1() {
    record 1 h200_b
    local s left
    s=$(date +%s)
    left=$((580 - $(elapsed)))
    CUDA_VISIBLE_DEVICES=1 timeout "$left" "$t" bench --kernels dispatch.bf16 --sweep 1000 \
        --seed 3 --runs 20 --warmup 2 --json >"$out/sweep1000_seed3.json" 2>"$out/sweep_seed3.err"
    echo "gpu 1 sweep seed 3 exit $? in $(($(date +%s) - s)) s, at $(elapsed) s" >>"$out/times.txt"
}
lane0 &
lane1 &
wait
"$t" --version >"$out/version.txt" 2>&1
gzip -f "$out/verify.log" "$out/sweep1000_seed3.json"
tar -czf "$final/call2.tgz" -C "$out" .
cat "$out/times.txt"; zcat "$out/verify.log.gz" | grep -E "^\[  (FAILED|PASSED) |tests ran|x[0-9]+ ms, " | head
tail -2 "$out"/*.record.log
zcat "$out/sweep1000_seed3.json.gz" | python3 -c 'import json,sys; d=json.load(sys.stdin); print({k: v for k, v in d.get("sweep", {}).items() if k != "worst"})' 2>&1 | tail -1
