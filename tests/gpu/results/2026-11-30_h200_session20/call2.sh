#!/usr/bin/env bash
# Session 20, second GPU call (tree: call 1's + pad_copy's own blocks per copy, split-K as rung
# 9's kernel over K ranges, the persistent rungs' clock-only K-tile trace records): rung 14
# verified on every configuration and the padded-path cost test, rung 9's ladder rows; the
# sweep of 200 shapes (seed 1) for rungs 9, 11, 12 and dispatch.bf16; the trace overhead of
# rungs 8-12 and rung 14 (scripts/gpu_trace_overhead.sh, 3 traces per case), Nsight Compute on
# traced and untraced rung 11 (scripts/gpu_trace_ncu.sh), the trace consistency tests.
set -u
out=${OUT:-gpu-out}
work=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests" OUT=$work scripts/gpu_check.sh >"$work/build.log" 2>&1 || {
    tar -czf "$out/call2.tgz" -C "$work" .; exit 1; }
t=build-gpu/bin/tclens
echo "built at $(elapsed) s" >>"$work/times.txt"
timeout 120 build-gpu/bin/gpu_tests --gtest_filter='Dispatch/*:DispatchOnGpu.*:GemmRunnerOnGpu.PersistentRungs*:Kernels/LadderVerification.*wgmma_tma*:Kernels/LadderVerification.*dispatch*' \
    >"$work/verify.log" 2>&1
echo "verify exit $? at $(elapsed) s" >>"$work/times.txt"
timeout 125 $t bench --kernels wgmma_tma.bf16,wgmma_persistent.bf16,wgmma_streamk.bf16,dispatch.bf16 \
    --sweep 200 --seed 1 --runs 20 --warmup 2 --json >"$work/sweep_seed1.json" 2>"$work/sweep.err"
echo "sweep exit $? at $(elapsed) s" >>"$work/times.txt"
OUT=$work REPEAT=3 BUDGET_S=100 timeout 130 scripts/gpu_trace_overhead.sh >"$work/trace_overhead.log" 2>&1
echo "trace overhead exit $? at $(elapsed) s" >>"$work/times.txt"
OUT=$work timeout 70 scripts/gpu_trace_ncu.sh >"$work/trace_ncu.log" 2>&1
echo "ncu exit $? at $(elapsed) s" >>"$work/times.txt"
left=$((580 - $(elapsed)))
[ "$left" -gt 20 ] && timeout "$left" ctest --test-dir build-gpu -R 'gpu\.TraceCommandOnGpu' --output-on-failure \
    >"$work/trace_ctest.log" 2>&1
echo "trace ctest exit $? at $(elapsed) s" >>"$work/times.txt"
$t --version >"$work/version.txt" 2>&1
tar -czf "$out/call2.tgz" -C "$work" .
cat "$work/times.txt"; grep -E "^\[  (FAILED|PASSED|SKIPPED) |tests ran|dispatch.bf16 [0-9]+x" "$work/verify.log" | head -30
grep "^| " "$work/trace_overhead.md" 2>/dev/null | head -20; tail -5 "$work/trace_ncu.log"
