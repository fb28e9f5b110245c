#!/usr/bin/env bash
# Session 26, first GPU call, one H200 (tree: session 25's + the padded copies eight elements a
# lane, every load before the first store, and their own GPU test): the row-copy and rung 14
# tests; the padded shapes the sweeps lost on, benched, and the copy kernel under Nsight Compute
# (duration, DRAM bytes and throughput); dispatch_candidates on shapes rung 11 lost on; then the
# same bench and Nsight Compute runs on the old copy (kPerLane = 1: one element a lane, as in
# session 25), rebuilt in place, for a same-run comparison; rung 11's traced kernel's SASS.
# All in $OUT/call1.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$out/gpus.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests dispatch_candidates" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call1.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
t=$PWD/build-gpu/bin/tclens
"$t" --version >"$out/version.txt" 2>&1
echo "built at $(elapsed) s" >>"$out/times.txt"
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
padded="4041x78x5822 71x3054x7949 81x3603x7885 61x506x11988 77x3526x10805 15393x37x3134
65x7068x10743 9323x65x10111 4149x43x6910 15423x49x1518 73x11959x8596 14199x28x4767 1747x22x14967
27x7694x2869 2615x58x2846 11072x58x5495 127x983x14279 111x4137x3811 14037x73x6635 24x13265x2921
35x6697x7913 6503x103x11927 120x12879x10667 9748x83x3841 4006x977x149 827x4513x151 3007x2999x4001"
mnk_args() { for s in $padded; do printf -- '--mnk %s ' "$s"; done; }
# $1: old or new.
copies() {
    CUDA_VISIBLE_DEVICES=0 timeout 120 "$t" bench --kernels dispatch.bf16 $(mnk_args) --runs 20 \
        --warmup 2 --seed 1 --json >"$out/padded_$1.json" 2>"$out/padded_$1.err"
    echo "padded $1 exit $? at $(elapsed) s" >>"$out/times.txt"
    mkdir -p "$out/ncu"
    for shape in 73x11959x8596 15393x37x3134 6503x103x11927; do
        CUDA_VISIBLE_DEVICES=0 timeout 60 "$ncu" --kernel-name regex:copy_rows --launch-count 5 \
            --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size \
            --csv --log-file "$out/ncu/copy_${1}_$shape.csv" "$t" bench --kernels dispatch.bf16 \
            --mnk "$shape" --runs 20 --warmup 0 --no-peak --no-reference >"$out/ncu/copy_${1}_$shape.log" 2>&1
        echo "ncu copy $1 $shape exit $? at $(elapsed) s" >>"$out/times.txt"
    done
}
CUDA_VISIBLE_DEVICES=0 timeout 200 build-gpu/bin/gpu_tests \
    --gtest_filter='PadCopyOnGpu.*:Dispatch/*:DispatchOnGpu.*' >"$out/verify.log" 2>&1
echo "verify exit $? at $(elapsed) s" >>"$out/times.txt"
copies new
CUDA_VISIBLE_DEVICES=0 timeout 150 build-gpu/bin/dispatch_candidates bf16 6448x208x9136 \
    9296x272x14672 6656x256x3520 7008x208x1792 384x9792x7616 320x15680x384 16016x288x3168 \
    1056x3344x832 9600x384x1600 12864x1024x512 576x6784x6464 2080x1824x688 5456x448x1504 \
    8320x256x448 4896x864x6576 4176x800x64 1536x1408x2112 608x12960x176 6016x704x7168 \
    768x6336x12160 1600x1600x7360 560x10240x4800 11776x3328x448 13392x1328x1456 1296x2304x5344 \
    2240x1408x3008 3536x544x1232 192x7360x9024 224x4192x4496 2240x2560x8320 \
    >"$out/candidates.md" 2>"$out/candidates.err"
echo "candidates exit $? at $(elapsed) s" >>"$out/times.txt"
# Rung 11's kernels' SASS (the traced one's K loop against the untraced one's), sm_90a.
cuobjdump -sass -arch sm_90a "$t" 2>/dev/null | awk '/Function : .*persistent_gemm/{p=1} /Function : /&&!/persistent_gemm/{p=0} p' |
    gzip >"$out/persistent_sass.txt.gz"
echo "sass at $(elapsed) s" >>"$out/times.txt"
sed -i 's/^constexpr int kPerLane = 8;/constexpr int kPerLane = 1;/' kernels/pad_copy.cu
grep -n "kPerLane = " kernels/pad_copy.cu >>"$out/times.txt"
cmake --build build-gpu --target tclens >"$out/rebuild.log" 2>&1
echo "rebuilt (old copy) exit $? at $(elapsed) s" >>"$out/times.txt"
copies old
gzip -f "$out/verify.log" "$out"/ncu/*.csv "$out"/padded_*.json
tar -czf "$final/call1.tgz" -C "$out" .
cat "$out/times.txt"; zcat "$out/verify.log.gz" | grep -E "^\[  (FAILED|PASSED|SKIPPED) |tests ran" | head
for v in new old; do zcat "$out/padded_$v.json.gz" | python3 -c '
import json,sys
d=json.load(sys.stdin)
for r in d["results"]:
    if r["kernel"]=="dispatch.bf16": print("%s %dx%dx%d %.1f" % (sys.argv[1], r["m"], r["n"], r["k"], r["pct_of_cublas"] or 0))' $v; done
for f in "$out"/ncu/copy_*.csv.gz; do echo "$f"; zcat "$f" | grep -E "gpu__time|dram__" | awk -F'","' '{print $(NF-2), $NF}' | head -10; done
head -300 "$out/candidates.md"
