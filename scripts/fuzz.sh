#!/usr/bin/env bash
# Builds the libFuzzer harnesses of tests/fuzz/ into build-fuzz/ and runs each one for SECONDS
# (default 20) on its corpus: new inputs go to build-fuzz/corpus/<harness>/, the committed seeds
# in tests/fuzz/corpus/<harness>/ are only read. Prints the executions of each harness and fails
# on the first crash or broken invariant, leaving the input that did it in build-fuzz/crashes/.
#   scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-20}
if ! [[ "$seconds" =~ ^[1-9][0-9]{0,5}$ ]]; then
    echo "fuzz: SECONDS '$seconds' is not a whole number from 1 to 999999" >&2
    exit 2
fi
if ! command -v clang++ >/dev/null; then
    echo "fuzz: clang++ is not installed; install clang and libclang-rt-dev (scripts/dev.sh test does)" >&2
    exit 3
fi
[ -x /usr/local/cuda/bin/nvcc ] && export PATH=/usr/local/cuda/bin:$PATH  # CUDA headers

harnesses=(fuzz_swizzle_parser fuzz_pattern_parser fuzz_layout_id fuzz_problem_text
           fuzz_recording_loader fuzz_launch_directive fuzz_kernel_discovery
           fuzz_worker_request fuzz_worker_message)

cmake -S tests/fuzz -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DTCLENS_FUZZ=ON >/dev/null
cmake --build build-fuzz
mkdir -p build-fuzz/crashes build-fuzz/logs

for harness in "${harnesses[@]}"; do
    mkdir -p "build-fuzz/corpus/$harness"
    log="build-fuzz/logs/$harness.log"
    if ! "build-fuzz/bin/$harness" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
            -artifact_prefix="build-fuzz/crashes/$harness-" \
            "build-fuzz/corpus/$harness" "tests/fuzz/corpus/$harness" >"$log" 2>&1; then
        tail -n 40 "$log" >&2
        echo "fuzz: $harness FAILED; input in build-fuzz/crashes/, full log $log" >&2
        exit 1
    fi
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    corpus=$(find "build-fuzz/corpus/$harness" "tests/fuzz/corpus/$harness" -type f | wc -l)
    printf 'fuzz: %-22s %10s executions in %s s, 0 crashes, corpus %s inputs\n' \
        "$harness" "$executions" "$seconds" "$corpus"
done
