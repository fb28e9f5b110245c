#!/usr/bin/env bash
# Session 28, third GPU call, one H200, on the tree with rung 14's short-K rules (the short-K GEMM
# for an odd N up to K < 448, not past one K tile over fewer tiles than half the SMs): rung 14's
# GPU tests on every configuration (2049x1001x447 added); the 111 shapes of session 27's three
# sweeps (seeds 1-3) whose choice these rules move (moved_shapes.txt), benched on rung 14; then
# the 1000-shape sweep, seed 1, with what time is left. All in $OUT/call3.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$out/gpus.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call3.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
t=$PWD/build-gpu/bin/tclens
"$t" --version >"$out/version.txt" 2>&1
echo "built at $(elapsed) s" >>"$out/times.txt"
CUDA_VISIBLE_DEVICES=0 timeout 120 build-gpu/bin/gpu_tests \
    --gtest_filter='Dispatch/*:DispatchOnGpu.*' >"$out/verify.log" 2>&1
echo "verify exit $? at $(elapsed) s" >>"$out/times.txt"
shapes=$(cat tests/gpu/results/2026-12-01_h200_session28/moved_shapes.txt)
CUDA_VISIBLE_DEVICES=0 timeout 120 "$t" bench --kernels dispatch.bf16 \
    $(for s in $shapes; do printf -- '--mnk %s ' "$s"; done) --runs 20 --warmup 2 --seed 1 \
    --json >"$out/moved.json" 2>"$out/moved.err"
echo "moved shapes exit $? at $(elapsed) s" >>"$out/times.txt"
s=$(date +%s)
CUDA_VISIBLE_DEVICES=0 timeout $((575 - $(elapsed))) "$t" bench --kernels dispatch.bf16 \
    --sweep 1000 --seed 1 --runs 20 --warmup 2 --json >"$out/sweep1000_seed1.json" 2>"$out/sweep_seed1.err"
echo "sweep seed 1 exit $? in $(($(date +%s) - s)) s, at $(elapsed) s" >>"$out/times.txt"
gzip -f "$out/verify.log" "$out/sweep1000_seed1.json" "$out/moved.json" "$out/sweep_seed1.err" "$out/moved.err"
tar -czf "$final/call3.tgz" -C "$out" .
cat "$out/times.txt"; zcat "$out/verify.log.gz" | grep -E "^\[  (FAILED|PASSED|SKIPPED) |tests ran" | head -20
zcat "$out/moved.json.gz" | python3 -c '
import json,sys,math
rs=[r for r in json.load(sys.stdin)["results"] if r["kernel"]=="dispatch.bf16" and r["pct_of_cublas"]]
print(len(rs), "moved: geomean %.3f min %.3f" % (math.exp(sum(math.log(r["pct_of_cublas"]/100) for r in rs)/len(rs)), min(r["pct_of_cublas"]/100 for r in rs)))'
zcat "$out/sweep1000_seed1.json.gz" | python3 -c 'import json,sys; d=json.load(sys.stdin); print({k: v for k, v in d.get("sweep", {}).items() if k != "worst"})'
