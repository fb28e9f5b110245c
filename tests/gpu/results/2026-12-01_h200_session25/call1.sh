#!/usr/bin/env bash
# Session 25, first GPU call, one H200 (tree: session 24's + rung 9's kernel in 64 x 64
# tiles, 6 stages two CTAs an SM or 12 stages one, as dispatch candidates; the sum of split-K's
# ranges four floats a thread, launched as the split GEMM's programmatic dependent), one after
# the other: dispatch_candidates on small and skinny shapes (every candidate verified, then timed);
# every kernel's duration under Nsight Compute at 128x3072x3072 and 16x8192x8192; the split-K and
# rung 14 tests (every configuration verified); the presets three times. All in $OUT/call1.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$out/gpus.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests dispatch_candidates" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call1.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
t=$PWD/build-gpu/bin/tclens
echo "built at $(elapsed) s" >>"$out/times.txt"
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
lane0() {
    CUDA_VISIBLE_DEVICES=0 timeout 200 build-gpu/bin/gpu_tests \
        --gtest_filter='SplitKOnGpu.*:Dispatch/*:DispatchOnGpu.*:StreamGateOnGpu.*' \
        >"$out/verify.log" 2>&1
    echo "verify exit $? at $(elapsed) s" >>"$out/times.txt"
    for i in 1 2 3; do
        CUDA_VISIBLE_DEVICES=0 timeout 45 "$t" bench --kernels dispatch.bf16,dispatch.e4m3 \
            --preset square,lab6,llm --runs 20 --warmup 2 --seed "$i" --json >"$out/presets_$i.json" 2>/dev/null
        echo "presets $i exit $? at $(elapsed) s" >>"$out/times.txt"
    done
}
lane1() {
    CUDA_VISIBLE_DEVICES=0 timeout 200 build-gpu/bin/dispatch_candidates bf16 128x128x128 256x256x256 \
        512x512x512 768x768x768 1024x1024x1024 624x176x720 16x3072x3072 32x3072x3072 \
        64x3072x3072 128x3072x3072 256x3072x3072 512x3072x3072 16x8192x8192 128x8192x8192 \
        200x200x3000 96x512x15216 64x448x12736 71x3054x7949 >"$out/candidates.md" 2>"$out/candidates.err"
    echo "candidates exit $? at $(elapsed) s" >>"$out/times.txt"
    mkdir -p "$out/ncu"
    for shape in 128x3072x3072 16x8192x8192; do
        CUDA_VISIBLE_DEVICES=0 timeout 60 "$ncu" --metrics gpu__time_duration.sum,launch__grid_size \
            --csv --log-file "$out/ncu/durations_$shape.csv" "$t" bench --kernels dispatch.bf16,cublas.bf16 \
            --mnk "$shape" --runs 20 --warmup 0 --no-peak >"$out/ncu/durations_$shape.log" 2>&1
        echo "durations $shape exit $? at $(elapsed) s" >>"$out/times.txt"
    done
}
lane1
lane0
"$t" --version >"$out/version.txt" 2>&1
gzip -f "$out/verify.log" "$out"/ncu/*.csv
tar -czf "$final/call1.tgz" -C "$out" .
cat "$out/times.txt"; zcat "$out/verify.log.gz" | grep -E "^\[  (FAILED|PASSED|SKIPPED) |tests ran" | head
python3 scripts/bench_median.py "$out/presets_median.json" "$out"/presets_[123].json &&
    python3 scripts/bench_table.py "$out/presets_median.json" | grep -E "dispatch|size" | head -60
cat "$out/candidates.md" | head -400
