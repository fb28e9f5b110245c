#!/usr/bin/env bash
# Session 33, fifth GPU call, one H200 (tree: call 4's code): where 16 x 8192^2, issue 34's
# skinny shape against the memory roof, leaves DRAM bandwidth unused. Nsight Compute (speed of
# light, memory, warp states, scheduler; clocks not locked) on one launch each of rung 14's
# configuration there (rung 9's kernel in 64 x 128 tiles over 4 K ranges) and its sum of the
# ranges, in bf16, and of cuBLAS's kernel in the same run (dispatch_candidates' reference row).
# Everything in $OUT/call5.tgz, times in $OUT/times.txt.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
pack() { cp "$out/times.txt" "$final/times.txt"; tar -czf "$final/call5.tgz" -C "$out" .; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens dispatch_candidates" OUT=$out \
    scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || { pack; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
echo "built at $(elapsed) s" >>"$out/times.txt"
build-gpu/bin/tclens --version >"$out/version.txt" 2>&1
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
profile() {  # profile KERNEL_REGEX FILE
    CUDA_VISIBLE_DEVICES=0 timeout 90 "$ncu" --clock-control none -k "regex:$1" \
        --launch-skip 2 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \
        --section WarpStateStats --section SchedulerStats --section LaunchStats \
        build-gpu/bin/dispatch_candidates bf16 --only "rung 9 64x128 split 4" 16x8192x8192 \
        >"$out/$2.txt" 2>&1
    echo "$2 exit $? at $(elapsed) s" >>"$out/times.txt"
    pack
}
profile wgmma_tma_gemm split_gemm_16x8192x8192
profile sum_ranges sum_16x8192x8192
profile 'nvjet|xmma|cutlass|gemm_kernel|sm90' cublas_16x8192x8192
for f in "$out"/*_16x8192x8192.txt; do
    echo "== $(basename "$f")"
    grep -E "^  [a-z_0-9]+.*\(|Duration|Grid Size|Block Size|DRAM Throughput|Memory Throughput|L2 Cache Throughput|L2 Hit Rate|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Stall" "$f" | head -24
done >"$out/summary.txt"
gzip -f "$out"/*_16x8192x8192.txt
pack
cat "$out/times.txt" "$out/summary.txt"
