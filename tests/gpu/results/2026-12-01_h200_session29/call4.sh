#!/usr/bin/env bash
# Session 29, fourth GPU call, one H200, on the tree with the cluster sum reverted (rung 14 as
# session 28 left it): the presets three times (a same-day baseline for call 3's), then Nsight
# Compute's full set at lab 6's 128 x 3072 x 3072 on cuBLAS's kernel, rung 14's (rung 9's kernel
# in 64 x 64 tiles, split 2, and its sum) and rung 9's kernel unsplit in 64 x 64 tiles of 12
# stages (dispatch_candidates' first such launch): where the 16-bit dispatch loses a fifth at
# M = 64 ... 512. All in $OUT/call4.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens dispatch_candidates" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call4.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
t=$PWD/build-gpu/bin/tclens
"$t" --version >"$out/version.txt" 2>&1
echo "built at $(elapsed) s" >>"$out/times.txt"
for i in 1 2 3; do
    CUDA_VISIBLE_DEVICES=0 timeout 40 "$t" bench --kernels dispatch.bf16 \
        --preset square,lab6,llm --runs 20 --warmup 2 --seed "$i" --json >"$out/presets_$i.json" 2>/dev/null
    echo "presets $i exit $? at $(elapsed) s" >>"$out/times.txt"
done
python3 scripts/bench_median.py "$out/presets_median.json" "$out"/presets_[123].json >/dev/null 2>&1
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
CUDA_VISIBLE_DEVICES=0 timeout 120 "$ncu" -k 'regex:nvjet_sm90_tss|wgmma_tma_gemm|sum_ranges' \
    --launch-count 4 --set full "$t" bench --kernels cublas.bf16,dispatch.bf16 --mnk 128x3072x3072 \
    --runs 1 --warmup 0 >"$out/full_128x3072x3072.txt" 2>&1
echo "ncu bench exit $? at $(elapsed) s" >>"$out/times.txt"
CUDA_VISIBLE_DEVICES=0 timeout 120 "$ncu" --kernel-name-base mangled \
    -k 'regex:wgmma_tma_gemm.*WgmmaTmaConfigILi64ELi64ELi12ELi16ELi1EEELb0E' --launch-count 1 \
    --set full build-gpu/bin/dispatch_candidates bf16 128x3072x3072 >"$out/full_deep_128x3072x3072.txt" 2>&1
echo "ncu deep exit $? at $(elapsed) s" >>"$out/times.txt"
gzip -f "$out"/full_*.txt
tar -czf "$final/call4.tgz" -C "$out" .
cat "$out/times.txt"
python3 scripts/bench_table.py --best16 "$out/presets_median.json" 2>&1 | head -30
for f in "$out"/full_*.txt.gz; do echo "== $f"; zcat "$f" | grep -E "^  [a-z_]|Duration|Grid Size|Block Size|Cluster Size|Dynamic Shared|L2 Cache Throughput|DRAM Throughput|Registers Per|Warp Cycles Per Issued" | head -40; done
