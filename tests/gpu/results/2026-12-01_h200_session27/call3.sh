#!/usr/bin/env bash
# Session 27, third GPU call, on call 2's build (the machine still warm, build-gpu reused): the
# 1000-shape sweep, seeds 2 and 3, and rung 8 at 4096^3 beside cuBLAS. All in $OUT/call3.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call3.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
t=$PWD/build-gpu/bin/tclens
"$t" --version >"$out/version.txt" 2>&1
echo "built at $(elapsed) s" >>"$out/times.txt"
CUDA_VISIBLE_DEVICES=0 timeout 40 "$t" bench --kernels mma_cp_async.bf16 --mnk 4096x4096x4096 \
    --runs 50 --warmup 5 --seed 1 --json >"$out/rung8.json" 2>"$out/rung8.err"
echo "rung 8 exit $? at $(elapsed) s" >>"$out/times.txt"
for seed in 2 3; do
    s=$(date +%s)
    left=$((590 - $(elapsed)))
    [ "$left" -gt 60 ] || break
    CUDA_VISIBLE_DEVICES=0 timeout "$left" "$t" bench --kernels dispatch.bf16 --sweep 1000 \
        --seed "$seed" --runs 20 --warmup 2 --json >"$out/sweep1000_seed$seed.json" 2>"$out/sweep_seed$seed.err"
    echo "sweep seed $seed exit $? in $(($(date +%s) - s)) s, at $(elapsed) s" >>"$out/times.txt"
    gzip -f "$out/sweep1000_seed$seed.json"
done
tar -czf "$final/call3.tgz" -C "$out" .
cat "$out/times.txt"
python3 -c '
import json,sys
for r in json.load(open(sys.argv[1]))["results"]: print(r["kernel"], r["m"], "%.1f TFLOP/s" % r["tflops"], "%.1f %% of cuBLAS" % (r["pct_of_cublas"] or 0))' "$out/rung8.json"
for seed in 2 3; do zcat "$out/sweep1000_seed$seed.json.gz" 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print({k: v for k, v in d.get("sweep", {}).items() if k != "worst"})'; done
