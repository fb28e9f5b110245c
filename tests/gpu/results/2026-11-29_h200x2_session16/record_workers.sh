#!/usr/bin/env bash
# tclens record over two GPUs against one (2-GPU machine): builds tclens and the GPU tests
# (scripts/gpu_check.sh), runs the record GPU tests, then times `tclens record` of the square
# preset's bench with one worker and with --workers 2, twice each, alternating (profiles,
# timelines, sources and traces left out: those run on one worker by design, docs/many-gpus.md).
# Writes under $OUT: environment.txt, ctest.log, record_{one,two}_{1,2}.{json,err,time}.
set -uo pipefail
out=${OUT:?}
GPU_CHECK_TARGETS="tclens gpu_tests" GPU_CHECK_TESTS='RecordCommandOnGpu' scripts/gpu_check.sh
nvidia-smi -L >>"$out/environment.txt"
for round in 1 2; do
    for mode in one two; do
        workers=1
        [ "$mode" = two ] && workers=2
        start=$(date +%s.%N)
        build-gpu/bin/tclens record "$out/record_${mode}_$round.json" --preset square \
            --workers "$workers" --no-timelines --no-sources --no-traces \
            >"$out/record_${mode}_$round.out" 2>"$out/record_${mode}_$round.err"
        status=$?
        end=$(date +%s.%N)
        echo "workers $workers round $round: exit $status, $(awk "BEGIN {print $end - $start}") s" |
            tee "$out/record_${mode}_$round.time"
    done
done
# A call returns at most 8 files: the records in one archive.
(cd "$out" && tar czf records.tgz record_* && rm -f record_*)
