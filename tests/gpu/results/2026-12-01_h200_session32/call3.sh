#!/usr/bin/env bash
# Session 32, third GPU call, one H200: Nsight Compute (--set full) on rung 9's kernel unclustered
# and in clusters sharing their loads, unsplit, where calls 1-2 timed the clusters 25-40 % slower:
# 64 x 64 deep and its 2 x 1 clusters at 128x3072x3072, 128 x 128 and its 1 x 2 clusters at
# 2048^3 (dispatch_candidates --only, the third launch: past verification). All in $OUT/call3.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens dispatch_candidates" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call3.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
echo "built at $(elapsed) s" >>"$out/times.txt"
build-gpu/bin/tclens --version >"$out/version.txt" 2>&1
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
profile() {  # profile NAME SHAPE FILE
    CUDA_VISIBLE_DEVICES=0 timeout 100 "$ncu" --clock-control none -k regex:wgmma_tma_gemm \
        --launch-skip 2 --launch-count 1 --set full \
        build-gpu/bin/dispatch_candidates bf16 --only "$1" "$2" >"$out/$3.txt" 2>&1
    echo "$3 exit $? at $(elapsed) s" >>"$out/times.txt"
}
profile "rung 9 64x64 deep" 128x3072x3072 deep_128x3072x3072
profile "rung 9 64x64 deep c2x1" 128x3072x3072 deep_c2x1_128x3072x3072
profile "rung 9 128x128" 2048x2048x2048 square_2048
profile "rung 9 128x128 c1x2" 2048x2048x2048 square_c1x2_2048
for f in "$out"/*_*.txt; do
    echo "== $(basename "$f")"
    grep -E "^\| |Duration|Cluster Size|Grid Size|L2 Cache Throughput|DRAM Throughput|L2 Hit Rate|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Stall|stall" "$f" | head -30
done > "$out/summary.txt"
gzip -f "$out"/*_*.txt
tar -czf "$final/call3.tgz" -C "$out" .
cat "$out/times.txt" "$out/summary.txt"
