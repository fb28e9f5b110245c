#!/usr/bin/env bash
# Session 22, first GPU call, two H200s of one host (tree d8420e2: session 21's issue-34 work,
# never run on a GPU before): rung 9's narrow tiles, the short-K GEMM, the copy-back rule and the
# kept verification reference. GPU 0 runs the verification tests (every (configuration, tile) pair
# of rung 14, the runner, the error maps of your own kernel), then the 1000-shape sweep of
# dispatch.bf16, seed 2; GPU 1 runs seed 1 at once, then seed 3 in the time left.
set -u
out=${OUT:-gpu-out}
work=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$work/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests" OUT=$work scripts/gpu_check.sh >"$work/build.log" 2>&1 || {
    tar -czf "$out/call1.tgz" -C "$work" .; exit 1; }
t=$PWD/build-gpu/bin/tclens
echo "built at $(elapsed) s" >>"$work/times.txt"
sweep() {  # gpu seed
    local s left
    s=$(date +%s)
    left=$((585 - $(elapsed)))
    CUDA_VISIBLE_DEVICES=$1 timeout "$left" "$t" bench --kernels dispatch.bf16 --sweep 1000 \
        --seed "$2" --runs 20 --warmup 2 --json >"$work/sweep1000_seed$2.json" 2>"$work/sweep_seed$2.err"
    echo "gpu $1 sweep seed $2 exit $? in $(($(date +%s) - s)) s, at $(elapsed) s" >>"$work/times.txt"
}
lane0() {
    CUDA_VISIBLE_DEVICES=0 timeout 200 build-gpu/bin/gpu_tests \
        --gtest_filter='Dispatch/*:DispatchOnGpu.*:GemmRunnerOnGpu.*:UserKernelGpu.*:Kernels/LadderVerification.*wgmma_tma*:Kernels/LadderVerification.*dispatch*' \
        >"$work/verify.log" 2>&1
    echo "verify exit $? at $(elapsed) s" >>"$work/times.txt"
    sweep 0 2
}
lane1() {
    sweep 1 1
    sweep 1 3
}
lane0 &
lane1 &
wait
"$t" --version >"$work/version.txt" 2>&1
gzip -f "$work"/sweep1000_seed*.json "$work/verify.log"
tar -czf "$out/call1.tgz" -C "$work" .
cat "$work/times.txt"; zcat "$work/verify.log.gz" | grep -E "^\[  (FAILED|PASSED|SKIPPED) |tests ran|dispatch.bf16 [0-9]+x" | head -40
for s in 1 2 3; do zcat "$work/sweep1000_seed$s.json.gz" 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print({k: v for k, v in d.get("sweep", {}).items() if k != "worst"})' 2>&1 | head -3; done
