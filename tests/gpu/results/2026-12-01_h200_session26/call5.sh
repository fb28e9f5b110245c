#!/usr/bin/env bash
# Session 26, fifth GPU call, one H200, right after call 4 on its build: the 1000-shape sweep,
# seed 3. In $OUT/call5.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call5.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
t=$PWD/build-gpu/bin/tclens
"$t" --version >"$out/version.txt" 2>&1
echo "built at $(elapsed) s" >>"$out/times.txt"
s=$(date +%s)
CUDA_VISIBLE_DEVICES=0 timeout $((235 - $(elapsed))) "$t" bench --kernels dispatch.bf16 \
    --sweep 1000 --seed 3 --runs 20 --warmup 2 --json >"$out/sweep1000_seed3.json" 2>"$out/sweep_seed3.err"
echo "sweep seed 3 exit $? in $(($(date +%s) - s)) s, at $(elapsed) s" >>"$out/times.txt"
gzip -f "$out/sweep1000_seed3.json"
tar -czf "$final/call5.tgz" -C "$out" .
cat "$out/times.txt"
zcat "$out/sweep1000_seed3.json.gz" | python3 -c 'import json,sys; d=json.load(sys.stdin); print({k: v for k, v in d.get("sweep", {}).items() if k != "worst"})'
