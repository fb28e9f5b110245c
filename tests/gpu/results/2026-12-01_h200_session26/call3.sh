#!/usr/bin/env bash
# Session 26, third GPU call, one H200, on call 2's tree (its sweep ran past its 230 s and was
# cut at about 887 of its 991 shapes): the 1000-shape sweep, seed 1; rung 11's traced and
# untraced kernels under Nsight Compute at 2240x2560x8320 (scripts/gpu_trace_ncu.sh: where the
# trace's 17.5 % there goes); the trace overhead table (scripts/gpu_trace_overhead.sh). Only
# tclens is built. All in $OUT/call3.tgz; call4.sh runs seed 2 on the same build.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$out/gpus.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call3.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
t=$PWD/build-gpu/bin/tclens
"$t" --version >"$out/version.txt" 2>&1
echo "built at $(elapsed) s" >>"$out/times.txt"
s=$(date +%s)
CUDA_VISIBLE_DEVICES=0 timeout $((585 - 90 - $(elapsed))) "$t" bench --kernels dispatch.bf16 \
    --sweep 1000 --seed 1 --runs 20 --warmup 2 --json >"$out/sweep1000_seed1.json" 2>"$out/sweep_seed1.err"
echo "sweep seed 1 exit $? in $(($(date +%s) - s)) s, at $(elapsed) s" >>"$out/times.txt"
CUDA_VISIBLE_DEVICES=0 SIZE=2240x2560x8320 OUT=$out timeout 40 scripts/gpu_trace_ncu.sh \
    >"$out/trace_ncu.log" 2>&1
echo "trace ncu exit $? at $(elapsed) s" >>"$out/times.txt"
left=$((590 - $(elapsed)))
[ "$left" -gt 30 ] && CUDA_VISIBLE_DEVICES=0 OUT=$out BUDGET_S=$((left - 15)) timeout "$left" \
    scripts/gpu_trace_overhead.sh >"$out/trace_overhead.log" 2>&1
echo "trace overhead exit $? at $(elapsed) s" >>"$out/times.txt"
gzip -f "$out/sweep1000_seed1.json"
[ -d "$out/trace_ncu" ] && (cd "$out" && tar -czf trace_ncu.tgz trace_ncu && rm -rf trace_ncu)
tar -czf "$final/call3.tgz" -C "$out" .
cat "$out/times.txt"; tail -3 "$out/trace_ncu.log"; cat "$out/trace_overhead.md" 2>/dev/null | tail -12
zcat "$out/sweep1000_seed1.json.gz" | python3 -c 'import json,sys; d=json.load(sys.stdin); print({k: v for k, v in d.get("sweep", {}).items() if k != "worst"})'
