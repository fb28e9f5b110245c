#!/usr/bin/env bash
# Session 20, third GPU call, on two H200s of one host (tree fd1a172, final kernels): both
# shipped recordings made again with every registered kernel (FP8 dispatch back in main), one
# on each GPU at the same time, then on each GPU one seed of the 1000-shape sweep of
# dispatch.bf16 against same-run cuBLAS (seeds 1 and 2; seed 3 in call 4).
set -u
out=${OUT:-gpu-out}
work=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$work/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests" OUT=$work scripts/gpu_check.sh >"$work/build.log" 2>&1 || {
    tar -czf "$out/call3.tgz" -C "$work" .; exit 1; }
t=$PWD/build-gpu/bin/tclens
echo "built at $(elapsed) s" >>"$work/times.txt"
lane() {  # gpu recording seed
    local gpu=$1 name=$2 seed=$3 s
    s=$(date +%s)
    CUDA_VISIBLE_DEVICES=$gpu timeout 260 "$t" record "$work/$name.json.gz" >"$work/$name.record.log" 2>&1
    echo "gpu $gpu record $name exit $? in $(($(date +%s) - s)) s, at $(elapsed) s" >>"$work/times.txt"
    s=$(date +%s)
    local left=$((585 - $(elapsed)))
    CUDA_VISIBLE_DEVICES=$gpu timeout "$left" "$t" bench --kernels dispatch.bf16 --sweep 1000 \
        --seed "$seed" --runs 20 --warmup 2 --json >"$work/sweep1000_seed$seed.json" 2>"$work/sweep_seed$seed.err"
    echo "gpu $gpu sweep seed $seed exit $? in $(($(date +%s) - s)) s, at $(elapsed) s" >>"$work/times.txt"
}
lane 0 h200 1 &
lane 1 h200_b 2 &
wait
"$t" --version >"$work/version.txt" 2>&1
gzip -f "$work"/sweep1000_seed*.json
tar -czf "$out/call3.tgz" -C "$work" .
cat "$work/times.txt"; tail -3 "$work"/*.record.log
