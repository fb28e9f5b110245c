#!/usr/bin/env bash
# Session 26, second GPU call, one H200 (tree: call 1's + rung 14 runs rung 9's 128 x 128 tiles
# where they give the busiest SM at most 70 % of rung 11's outputs in at most two rounds over
# K >= 448, from call 1's dispatch_candidates), one after the other: the row-copy, split-K and
# rung 14 tests (every configuration verified); the presets three times; the 1000-shape sweep,
# seed 1; then, with what is left of the call, the padded copies at sixteen elements a lane
# (kPerLane = 16, rebuilt in place) on call 1's padded shapes, bench and Nsight Compute, against
# the eight of this build's run. All in $OUT/call2.tgz.
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
"$t" --version >"$out/version.txt" 2>&1
echo "built at $(elapsed) s" >>"$out/times.txt"
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
CUDA_VISIBLE_DEVICES=0 timeout 200 build-gpu/bin/gpu_tests \
    --gtest_filter='PadCopyOnGpu.*:SplitKOnGpu.*:Dispatch/*:DispatchOnGpu.*:StreamGateOnGpu.*' \
    >"$out/verify.log" 2>&1
echo "verify exit $? at $(elapsed) s" >>"$out/times.txt"
for i in 1 2 3; do
    CUDA_VISIBLE_DEVICES=0 timeout 45 "$t" bench --kernels dispatch.bf16,dispatch.e4m3 \
        --preset square,lab6,llm --runs 20 --warmup 2 --seed "$i" --json >"$out/presets_$i.json" 2>/dev/null
    echo "presets $i exit $? at $(elapsed) s" >>"$out/times.txt"
done
s=$(date +%s)
CUDA_VISIBLE_DEVICES=0 timeout 230 "$t" bench --kernels dispatch.bf16 --sweep 1000 --seed 1 \
    --runs 20 --warmup 2 --json >"$out/sweep1000_seed1.json" 2>"$out/sweep_seed1.err"
echo "sweep seed 1 exit $? in $(($(date +%s) - s)) s, at $(elapsed) s" >>"$out/times.txt"
padded="4041x78x5822 71x3054x7949 81x3603x7885 61x506x11988 77x3526x10805 15393x37x3134
65x7068x10743 9323x65x10111 4149x43x6910 15423x49x1518 73x11959x8596 14199x28x4767 1747x22x14967
27x7694x2869 2615x58x2846 11072x58x5495 127x983x14279 111x4137x3811 14037x73x6635 24x13265x2921
35x6697x7913 6503x103x11927 120x12879x10667 9748x83x3841 4006x977x149 827x4513x151 3007x2999x4001"
mnk_args() { for s in $padded; do printf -- '--mnk %s ' "$s"; done; }
# $1: the elements a lane.
copies() {
    CUDA_VISIBLE_DEVICES=0 timeout 60 "$t" bench --kernels dispatch.bf16 $(mnk_args) --runs 20 \
        --warmup 2 --seed 1 --json >"$out/padded_$1.json" 2>/dev/null
    echo "padded $1 exit $? at $(elapsed) s" >>"$out/times.txt"
    mkdir -p "$out/ncu"
    CUDA_VISIBLE_DEVICES=0 timeout 30 "$ncu" --kernel-name regex:copy_rows --launch-count 5 \
        --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed \
        --csv --log-file "$out/ncu/copy_${1}_73x11959x8596.csv" "$t" bench --kernels dispatch.bf16 \
        --mnk 73x11959x8596 --runs 20 --warmup 0 --no-peak --no-reference >/dev/null 2>&1
    echo "ncu copy $1 exit $? at $(elapsed) s" >>"$out/times.txt"
}
if [ "$(elapsed)" -lt 380 ]; then
    copies 8
    sed -i 's/^constexpr int kPerLane = 8;/constexpr int kPerLane = 16;/' kernels/pad_copy.cu
    timeout $((560 - $(elapsed))) cmake --build build-gpu --target tclens >"$out/rebuild.log" 2>&1
    echo "rebuilt (16 a lane) exit $? at $(elapsed) s" >>"$out/times.txt"
    [ "$(elapsed)" -lt 520 ] && copies 16
fi
gzip -f "$out/verify.log" "$out/sweep1000_seed1.json" "$out"/padded_*.json "$out"/ncu/*.csv 2>/dev/null
tar -czf "$final/call2.tgz" -C "$out" .
cat "$out/times.txt"; zcat "$out/verify.log.gz" | grep -E "^\[  (FAILED|PASSED|SKIPPED) |tests ran" | head
zcat "$out/sweep1000_seed1.json.gz" | python3 -c 'import json,sys; d=json.load(sys.stdin); print({k: v for k, v in d.get("sweep", {}).items() if k != "worst"})'
python3 scripts/bench_median.py "$out/presets_median.json" "$out"/presets_[123].json &&
    python3 scripts/bench_table.py --best16 "$out/presets_median.json"
