#!/usr/bin/env bash
# Session 19, third GPU call (tree: main after call 2, 6a5c1f0-ish; see README): where the
# persistent rungs' trace cost goes. Call 2 measured +8.6 % (rung 11) and +9.1 % (rung 12) with
# one recording warp per warpgroup: the K-tile records read %globaltimer twice per K tile on the
# warpgroup's critical path. Three builds of the same tree, each timed with
# scripts/gpu_trace_overhead.sh (3 traces per case):
#   base       as committed
#   no_timer   lap() reads only %clock (the K-tile records' times are then wrong: timing only)
#   no_clobber no_timer, and the clock reads without their "memory" clobber
set -u
out=${OUT:-gpu-out}
work=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens" OUT=$work scripts/gpu_check.sh >"$work/build.log" 2>&1 || {
    tar -czf "$out/call3.tgz" -C "$work" .; exit 1; }
echo "built at $(elapsed) s" >>"$work/times.txt"
measure() {  # name
    mkdir -p "$work/$1"
    OUT=$work/$1 REPEAT=3 BUDGET_S=60 timeout 100 scripts/gpu_trace_overhead.sh >"$work/$1/log.txt" 2>&1
    echo "$1 measured at $(elapsed) s" >>"$work/times.txt"
}
measure base
sed -i 's/return {global_ns(), clock_now};/return {0, clock_now};/' kernels/trace_warp.cuh
git diff --stat >"$work/no_timer.diff" 2>&1; git diff >>"$work/no_timer.diff" 2>&1
cmake --build build-gpu --target tclens >"$work/rebuild1.log" 2>&1
echo "rebuilt at $(elapsed) s" >>"$work/times.txt"
measure no_timer
if [ "$(elapsed)" -lt 380 ]; then
    sed -i 's/: "=r"(t)::"memory");/: "=r"(t));/' kernels/trace_warp.cuh
    git diff >"$work/no_clobber.diff" 2>&1
    cmake --build build-gpu --target tclens >"$work/rebuild2.log" 2>&1
    echo "rebuilt at $(elapsed) s" >>"$work/times.txt"
    measure no_clobber
fi
git checkout kernels/trace_warp.cuh
build-gpu/bin/tclens --version >"$work/version.txt" 2>&1
tar -czf "$out/call3.tgz" -C "$work" .
cat "$work/times.txt"; for d in base no_timer no_clobber; do echo "== $d"; grep "^| rung" "$work/$d/trace_overhead.md" 2>/dev/null; done
