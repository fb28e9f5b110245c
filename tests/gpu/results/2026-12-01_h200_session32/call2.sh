#!/usr/bin/env bash
# Session 32, GPU call, one H200: rung 9's kernel in clusters of CTAs sharing their loads
# by TMA multicast (kernels/09_wgmma_tma.h: WgmmaTmaConfig's ClusterM x ClusterN, 13 clustered
# tiles beside the 5 unclustered ones): every configuration rung 14 could pick
# (dispatch_candidates, each verified before it is timed, same-run cuBLAS) on the presets'
# misses, two of the sweeps' worst and ragged shapes. All in $OUT/call${CALL:-1}.tgz.
set -u
CALL=2  # the refill one K tile behind the release (the remote arrivals off the critical path)
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens dispatch_candidates" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call${CALL:-1}.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
echo "built at $(elapsed) s" >>"$out/times.txt"
build-gpu/bin/tclens --version >"$out/version.txt" 2>&1
shapes="64x3072x3072 128x3072x3072 256x3072x3072 512x3072x3072 1024x1024x1024 16x8192x8192
128x8192x8192 512x512x512 200x520x400 17x33x129 144x5936x13776 9296x272x14672 2048x2048x2048"
CUDA_VISIBLE_DEVICES=0 timeout 330 stdbuf -oL build-gpu/bin/dispatch_candidates bf16 $shapes \
    >"$out/candidates.md" 2>"$out/candidates.err"
echo "candidates exit $? at $(elapsed) s" >>"$out/times.txt"
cp "$out/candidates.md" "$final/candidates.md"
gzip "$out"/*.md
tar -czf "$final/call${CALL:-1}.tgz" -C "$out" .
cat "$out/times.txt" "$out/candidates.err"
