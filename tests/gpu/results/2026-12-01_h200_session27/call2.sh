#!/usr/bin/env bash
# Session 27, second GPU call, one H200, on the tree with rung 14's two new rules (rung 11 where
# rung 9's 128 x 128 tiles would take two rounds and rung 11's one; 64 x 128 tiles where they fit
# one wave of two an SM) and the cheaper trace of rungs 10-12 (consumers' K tiles recorded by the
# last warp of each warpgroup, held in its lanes and stored 32 at a time; the producer's one
# clock read and record per K tile): the trace GPU tests and rung 14's on every configuration;
# the trace overhead table (scripts/gpu_trace_overhead.sh); call 1's candidate shapes benched on
# rung 14; then the 1000-shape sweep, seed 1, with what time is left. All in $OUT/call2.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$out/gpus.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call2.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
t=$PWD/build-gpu/bin/tclens
"$t" --version >"$out/version.txt" 2>&1
echo "built at $(elapsed) s" >>"$out/times.txt"
CUDA_VISIBLE_DEVICES=0 timeout 110 build-gpu/bin/gpu_tests \
    --gtest_filter='TraceCommandOnGpu.Rung*:Dispatch/*:DispatchOnGpu.*' >"$out/verify.log" 2>&1
echo "verify exit $? at $(elapsed) s" >>"$out/times.txt"
CUDA_VISIBLE_DEVICES=0 OUT=$out BUDGET_S=60 timeout 80 scripts/gpu_trace_overhead.sh \
    >"$out/trace_overhead.log" 2>&1
echo "trace overhead exit $? at $(elapsed) s" >>"$out/times.txt"
shapes="192x8512x2304 192x8768x768 304x5680x464 400x4352x1280 448x4288x192 544x3344x128
2880x704x320 2944x768x2304 3536x544x1232 9088x192x448 11648x192x64 320x7168x1024 640x4480x3904
10560x256x64 320x5760x1024 352x5760x1024"
CUDA_VISIBLE_DEVICES=0 timeout 60 "$t" bench --kernels dispatch.bf16 \
    $(for s in $shapes; do printf -- '--mnk %s ' "$s"; done) --runs 20 --warmup 2 --seed 1 \
    --json >"$out/moved.json" 2>"$out/moved.err"
echo "moved shapes exit $? at $(elapsed) s" >>"$out/times.txt"
s=$(date +%s)
CUDA_VISIBLE_DEVICES=0 timeout $((588 - $(elapsed))) "$t" bench --kernels dispatch.bf16 \
    --sweep 1000 --seed 1 --runs 20 --warmup 2 --json >"$out/sweep1000_seed1.json" 2>"$out/sweep_seed1.err"
echo "sweep seed 1 exit $? in $(($(date +%s) - s)) s, at $(elapsed) s" >>"$out/times.txt"
gzip -f "$out/verify.log" "$out/sweep1000_seed1.json" "$out/moved.json"
tar -czf "$final/call2.tgz" -C "$out" .
cat "$out/times.txt"; zcat "$out/verify.log.gz" | grep -E "^\[  (FAILED|PASSED|SKIPPED) |tests ran|overhead of" | head -20
tail -14 "$out/trace_overhead.md" 2>/dev/null
zcat "$out/moved.json.gz" | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"]:
    if r["kernel"]=="dispatch.bf16": print("%dx%dx%d %.1f" % (r["m"], r["n"], r["k"], r["pct_of_cublas"] or 0))'
zcat "$out/sweep1000_seed1.json.gz" | python3 -c 'import json,sys; d=json.load(sys.stdin); print({k: v for k, v in d.get("sweep", {}).items() if k != "worst"})'
