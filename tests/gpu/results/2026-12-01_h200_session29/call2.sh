#!/usr/bin/env bash
# Session 29, second GPU call, one H200, tree of call 1: why split-K summed in a cluster ran
# slower than the second kernel's sum (call 1). Nsight Compute over dispatch_candidates at
# 1024^3 and 128x3072x3072: every launch of rung 9's kernel in 128 x 128 and 64 x 64 tiles with
# its grid, cluster and duration, and the full set on the first cluster-summed launch of each
# (split 2). All in $OUT/call2.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="dispatch_candidates" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call2.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
echo "built at $(elapsed) s" >>"$out/times.txt"
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
d=build-gpu/bin/dispatch_candidates
square='regex:wgmma_tma_gemm.*WgmmaTmaConfigILi128ELi128ELi4ELi16ELi1EEELb0ELb[01]E'
small='regex:wgmma_tma_gemm.*WgmmaTmaConfigILi64ELi64ELi6ELi16ELi2EEELb0ELb[01]E'
for shape in 1024x1024x1024:$square 128x3072x3072:$small; do
    mnk=${shape%%:*}; k=${shape#*:}
    CUDA_VISIBLE_DEVICES=0 timeout 100 "$ncu" --kernel-name-base mangled -k "$k" --csv --page raw \
        --metrics gpu__time_duration.sum,launch__grid_size,launch__cluster_dim_y,launch__occupancy_cluster_pct,sm__cycles_active.avg,launch__registers_per_thread \
        "$d" bf16 "$mnk" >"$out/durations_$mnk.csv" 2>"$out/durations_$mnk.err"
    echo "durations $mnk exit $? at $(elapsed) s" >>"$out/times.txt"
    CUDA_VISIBLE_DEVICES=0 timeout 100 "$ncu" --kernel-name-base mangled -k "${k%\[01\]E}1E" --launch-count 1 --set full \
        "$d" bf16 "$mnk" >"$out/full_cluster_$mnk.txt" 2>&1
    echo "full $mnk exit $? at $(elapsed) s" >>"$out/times.txt"
done
gzip -f "$out"/*.csv "$out"/full_*.txt
tar -czf "$final/call2.tgz" -C "$out" .
cat "$out/times.txt"
