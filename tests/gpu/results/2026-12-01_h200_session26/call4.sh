#!/usr/bin/env bash
# Session 26, fourth GPU call, one H200, right after call 3 on its build: the 1000-shape sweep,
# seed 2. In $OUT/call4.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call4.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
t=$PWD/build-gpu/bin/tclens
"$t" --version >"$out/version.txt" 2>&1
echo "built at $(elapsed) s" >>"$out/times.txt"
s=$(date +%s)
CUDA_VISIBLE_DEVICES=0 timeout $((590 - $(elapsed))) "$t" bench --kernels dispatch.bf16 \
    --sweep 1000 --seed 2 --runs 20 --warmup 2 --json >"$out/sweep1000_seed2.json" 2>"$out/sweep_seed2.err"
echo "sweep seed 2 exit $? in $(($(date +%s) - s)) s, at $(elapsed) s" >>"$out/times.txt"
gzip -f "$out/sweep1000_seed2.json"
tar -czf "$final/call4.tgz" -C "$out" .
cat "$out/times.txt"
zcat "$out/sweep1000_seed2.json.gz" | python3 -c 'import json,sys; d=json.load(sys.stdin); print({k: v for k, v in d.get("sweep", {}).items() if k != "worst"})'
