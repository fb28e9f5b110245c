#!/usr/bin/env bash
# Session 32, fourth GPU call, one H200: where the clusters' loss is. The tree (multicast) beside
# two builds of kernels/09_wgmma_tma.cu (scripts/gpu_variant.sh, TARGET=dispatch_candidates):
# V1 -DTCLENS_CLUSTER_VARIANT=1, each clustered CTA loads all its pieces itself by plain TMA (no
# multicast), the cluster's slot protocol kept; V2 =2, plain loads and no protocol (only the
# cluster launch and the pieces' smaller boxes left). dispatch_candidates --only, order tree, V1,
# V2, tree. All in $OUT/call4.tgz.
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
echo "built at $(elapsed) s" >>"$out/times.txt"
build-gpu/bin/tclens --version >"$out/version.txt" 2>&1
for v in 1 2; do
    TARGET=dispatch_candidates OUT=$out scripts/gpu_variant.sh v$v kernels/09_wgmma_tma.cu -- -DTCLENS_CLUSTER_VARIANT=$v >>"$out/times.txt" 2>&1
    echo "v$v linked exit $? at $(elapsed) s" >>"$out/times.txt"
done
runs() {  # runs BINARY
    for c in "128x3072x3072:rung 9 64x64 deep" "128x3072x3072:rung 9 64x64 deep c2x1" \
        "128x3072x3072:rung 9 64x64 deep c2x2" "2048x2048x2048:rung 9 128x128" \
        "2048x2048x2048:rung 9 128x128 c1x2" "2048x2048x2048:rung 9 128x128 c2x1" \
        "64x3072x3072:rung 9 64x64 split 4" "64x3072x3072:rung 9 64x64 c1x4 split 4"; do
        CUDA_VISIBLE_DEVICES=0 timeout 30 build-gpu/bin/$1 bf16 --only "${c#*:}" "${c%%:*}" | grep "rung 9"
    done
}
for b in dispatch_candidates dispatch_candidates_v1 dispatch_candidates_v2 dispatch_candidates; do
    echo "== $b" >>"$out/runs.md"
    runs $b >>"$out/runs.md" 2>&1
    echo "$b at $(elapsed) s" >>"$out/times.txt"
done
tar -czf "$final/call4.tgz" -C "$out" .
cat "$out/times.txt" "$out/runs.md"
