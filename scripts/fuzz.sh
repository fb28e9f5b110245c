#!/usr/bin/env bash
# Builds the libFuzzer harnesses of tests/fuzz/ into build-fuzz/ and runs each one for SECONDS
# (default 20) on its corpus: new inputs go to build-fuzz/corpus/<harness>/, the committed seeds
# in tests/fuzz/corpus/<harness>/ are only read. Prints the executions of each harness and fails
# on the first crash or broken invariant, leaving the input that did it in build-fuzz/crashes/.
# Harnesses run side by side, one per core (FUZZ_JOBS=N sets how many).
#   scripts/fuzz.sh [SECONDS] [RESULTS_DIR]
# With RESULTS_DIR (for runs whose results are committed, e.g. tests/fuzz/results/<date>_<s>s/),
# libFuzzer's raw output goes to RESULTS_DIR/logs/<harness>.log and the script writes
# RESULTS_DIR/README.md itself: per harness, the numbers libFuzzer printed at the end
# (-print_final_stats: stat::number_of_executed_units, stat::average_exec_per_sec,
# stat::new_units_added, stat::peak_rss_mb; cov, ft and corp of its DONE line), the wall time
# it ran and whether it crashed. Nothing in it is typed by hand.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-20}
if ! [[ "$seconds" =~ ^[1-9][0-9]{0,5}$ ]]; then
    echo "fuzz: SECONDS '$seconds' is not a whole number from 1 to 999999" >&2
    exit 2
fi
results=${2:-}
# Harnesses are single-threaded: one per core runs at a time (FUZZ_JOBS overrides).
jobs=${FUZZ_JOBS:-$(nproc)}
if ! [[ "$jobs" =~ ^[1-9][0-9]{0,3}$ ]]; then
    echo "fuzz: FUZZ_JOBS '$jobs' is not a whole number from 1 to 9999" >&2
    exit 2
fi
if ! command -v clang++ >/dev/null; then
    echo "fuzz: clang++ is not installed; install clang and libclang-rt-dev (scripts/dev.sh test does)" >&2
    exit 3
fi
[ -x /usr/local/cuda/bin/nvcc ] && export PATH=/usr/local/cuda/bin:$PATH  # CUDA headers

harnesses=(fuzz_swizzle_parser fuzz_pattern_parser fuzz_layout_id fuzz_problem_text
           fuzz_recording_loader fuzz_launch_directive fuzz_kernel_discovery
           fuzz_workspace_settings fuzz_key_chords fuzz_sass_text
           fuzz_worker_request fuzz_worker_message fuzz_warp_trace fuzz_remote_target)

cmake -S tests/fuzz -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DTCLENS_FUZZ=ON >/dev/null
cmake --build build-fuzz
logs=build-fuzz/logs
if [ -n "$results" ]; then
    logs="$results/logs"
    mkdir -p "$logs"
    table="$results/README.md"
    {
        echo "# Fuzzing: $seconds s per harness"
        echo
        echo "Written by \`scripts/fuzz.sh $seconds $results\` on $(date -u '+%Y-%m-%d %H:%M UTC')"
        echo "($(clang++ --version | head -n 1), $(nproc) cores, \`$(uname -srm)\`), $jobs harnesses"
        echo "at a time, each with libFuzzer's \`-max_total_time=$seconds\`, ASan and UBSan, from its committed"
        echo "seeds (\`tests/fuzz/corpus/<harness>/\`) plus the inputs of earlier runs in"
        echo "\`build-fuzz/corpus/<harness>/\` ($(git rev-parse --short HEAD 2>/dev/null || echo "no git")$(git diff --quiet HEAD 2>/dev/null || echo ", with uncommitted changes"))."
        echo "Every number below is read from libFuzzer's own final output, which is kept in"
        echo "\`logs/<harness>.log\`: runs = \`stat::number_of_executed_units\`, exec/s ="
        echo "\`stat::average_exec_per_sec\`, new inputs = \`stat::new_units_added\`, peak RSS ="
        echo "\`stat::peak_rss_mb\`; cov, ft and corpus from its last \`DONE\` line; wall s is the"
        echo "time the harness process ran."
        echo
        echo "| harness | outcome | runs | wall s | exec/s | new inputs | cov | ft | corpus | peak RSS MB |"
        echo "|---|---|---|---|---|---|---|---|---|---|"
    } >"$table"
fi
mkdir -p build-fuzz/crashes "$logs"

# final_stat NAME LOG: the value of libFuzzer's final "stat::NAME: VALUE" line, or "-".
final_stat() {
    local value
    value=$(sed -n "s/^stat::$1: *//p" "$2" | tail -n 1)
    echo "${value:--}"
}
# done_field NAME LOG: the value after "NAME: " on libFuzzer's last DONE line, or "-".
done_field() {
    local value
    value=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$2" | tail -n 1 | sed -n "s/.* $1: \([^ ]*\).*/\1/p")
    echo "${value:--}"
}

# run_harness NAME: runs one harness for SECONDS and leaves "OUTCOME WALL" in $logs/NAME.outcome.
run_harness() {
    local harness=$1 started outcome=ok
    mkdir -p "build-fuzz/corpus/$harness"
    started=$(date +%s)
    "build-fuzz/bin/$harness" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
        -artifact_prefix="build-fuzz/crashes/$harness-" \
        "build-fuzz/corpus/$harness" "tests/fuzz/corpus/$harness" >"$logs/$harness.log" 2>&1 ||
        outcome=FAILED
    echo "$outcome $(($(date +%s) - started))" >"$logs/$harness.outcome"
}

for harness in "${harnesses[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    run_harness "$harness" &
done
wait

for harness in "${harnesses[@]}"; do
    log="$logs/$harness.log"
    read -r outcome wall <"$logs/$harness.outcome"
    executions=$(final_stat number_of_executed_units "$log")
    if [ -n "$results" ]; then
        printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$harness" "$outcome" \
            "$executions" "$wall" "$(final_stat average_exec_per_sec "$log")" \
            "$(final_stat new_units_added "$log")" "$(done_field cov "$log")" "$(done_field ft "$log")" \
            "$(done_field corp "$log")" "$(final_stat peak_rss_mb "$log")" >>"$table"
    fi
    if [ "$outcome" != ok ]; then
        tail -n 40 "$log" >&2
        echo "fuzz: $harness FAILED; input in build-fuzz/crashes/, full log $log" >&2
        exit 1
    fi
    corpus=$(find "build-fuzz/corpus/$harness" "tests/fuzz/corpus/$harness" -type f | wc -l)
    printf 'fuzz: %-22s %10s executions in %s s, 0 crashes, corpus %s inputs\n' \
        "$harness" "$executions" "$wall" "$corpus"
done
[ -z "$results" ] || echo "fuzz: results in $table, raw output in $logs/"
