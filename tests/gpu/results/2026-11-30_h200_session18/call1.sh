#!/usr/bin/env bash
# Session 18, first GPU call (run from the repository root after scripts/make_carry.sh):
# the two verdict fixes, the loaded rung-8 copy's +2.3 %, and rung 8's profile at 4096^3.
set -uo pipefail
out=${OUT:-gpu-out}
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests" OUT=$out scripts/gpu_check.sh || exit 1
t=build-gpu/bin/tclens
export PATH=/usr/local/cuda/bin:$PATH
# 1. The verdicts: the ladder's and the fragment probe's ctest entries.
TCLENS_RESULTS_DIR=$out ctest --test-dir build-gpu --output-on-failure \
    -R 'LadderVerification|FragmentProbe|WorkerOnGpu.ALoadedCopy' >"$out/ctest_verdicts.log" 2>&1
# 2. The loaded copy vs the built-in rung: the bench three times, then each kernel's own
#    duration under ncu (no cache flush, no clock lock: as the bench runs them).
for i in 1 2 3; do
    $t bench --kernel examples/rung8_copy.cu --kernels mma_cp_async.bf16 --mnk 4096x4096x4096 \
        --runs 200 --no-peak --no-reference >>"$out/rung8_copy_bench.txt" 2>&1
done
ncu --cache-control none --clock-control none --metrics gpu__time_duration.sum \
    -k regex:mma_cp_async --csv \
    $t bench --kernel examples/rung8_copy.cu --kernels mma_cp_async.bf16 --mnk 4096x4096x4096 \
    --runs 30 --no-peak --no-reference >"$out/rung8_copy_ncu.csv" 2>"$out/rung8_copy_ncu.err"
# 3. Rung 8 at 4096^3 (issue 34: 480 TFLOP/s or the profile that shows why not).
ncu --set full -k regex:mma_cp_async -c 1 --launch-skip 3 -o "$out/rung8_4096" \
    $t bench --kernels mma_cp_async.bf16 --mnk 4096x4096x4096 --runs 5 --no-peak \
    --no-reference >"$out/rung8_ncu.log" 2>&1
ncu --import "$out/rung8_4096.ncu-rep" --page details >"$out/rung8_4096_details.txt" 2>&1
$t bench --kernels mma_cp_async.bf16,cublas.bf16 --mnk 4096x4096x4096 --runs 200 \
    >"$out/rung8_bench.txt" 2>&1
$t --version >"$out/version.txt" 2>&1
nvidia-smi >"$out/nvidia_smi.txt" 2>&1
