#!/usr/bin/env bash
# Rung 14, dispatch (issue 34), on a GPU server: builds tclens and gpu_tests into build-gpu/
# (scripts/gpu_check.sh), verifies every configuration the rules pick (gpu_tests: rung 14's own
# cases and its rows of the ladder's), then times dispatch.bf16 against rungs 7-12 and same-run
# cuBLAS (--runs 20 --warmup 2): the sweep of SWEEP_N shapes (default 200) for each seed of
# SWEEP_SEEDS (default 1) over SWEEP_KERNELS (default rungs 7-12 and dispatch.bf16; the sweep's
# cost grows with each kernel, about 0.26 s a shape for dispatch.bf16 alone on an H200), spread
# over SWEEP_WORKERS GPUs of the host (default 1; --workers), each cut at SWEEP_LIMIT_S seconds
# (default 400), and the square,
# lab6 and llm presets for dispatch.bf16 and dispatch.f16 and the rungs they choose from.
# Writes to $OUT (or ./gpu-out): environment.txt and build.log (gpu_check.sh), verify.log,
# sweep_seedS.json (the bench with its "sweep" summary), presets.json, stderr.log, times.txt.
# DISPATCH_STEPS picks steps (default "verify sweep presets"). The step "fp8" (not a default,
# at most 5 minutes) verifies dispatch.e4m3's configurations (rung 9's kernel in e4m3, rung 13's
# kernel) and rungs 13 and 11 (bf16), whose kernel the latter share (fp8_verify.log), then times wgmma_fp8.e4m3 and dispatch.e4m3 against
# same-run cublaslt.e4m3 on the square, lab6 and llm presets (fp8_presets.json). The step
# "record" (not a default) records the two shipped recordings again with every kernel, rung 14
# (dispatch.e4m3 too) included, into $OUT/h200.json.gz and $OUT/h200_b.json.gz
# (assets/recordings/: the ShippedRecording test wants every registered kernel in them). The step
# "candidates" (not a default, at most 5 minutes) times every configuration rung 14 could pick
# beside its choice and cuBLAS on CANDIDATE_SHAPES (default: the presets' shapes where it lost in
# session 23) into $OUT/candidates.md (tests/gpu/tools/dispatch_candidates.cpp): what the rules'
# thresholds are read from.
set -u
cd "$(dirname "$0")/.."
out=${OUT:-gpu-out}
mkdir -p "$out"
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests dispatch_candidates" OUT="$out" scripts/gpu_check.sh ||
    exit 1
rungs=mma_ldmatrix_xor.bf16,mma_cp_async.bf16,wgmma_tma.bf16,wgmma_ws.bf16,wgmma_persistent.bf16,wgmma_streamk.bf16
status=0
# Runs "$@" under `timeout`, its stdout to $out/$name and stderr appended to stderr.log, and
# notes its exit status and seconds in times.txt.
timed() {
    local name=$1 limit=$2
    shift 2
    local started
    started=$(date +%s)
    echo "== $name" >>"$out/stderr.log"
    timeout "$limit" "$@" >"$out/$name" 2>>"$out/stderr.log"
    local code=$?
    echo "$name: exit $code in $(($(date +%s) - started)) s" >>"$out/times.txt"
    [ "$code" -eq 0 ] || status=1
}
for step in ${DISPATCH_STEPS:-verify sweep presets}; do
    case $step in
        verify)
            timed verify.log 600 build-gpu/bin/gpu_tests \
                --gtest_filter='Dispatch/*:DispatchOnGpu.*:Kernels/LadderVerification.*dispatch*'
            ;;
        sweep)
            for seed in ${SWEEP_SEEDS:-1}; do
                timed "sweep_seed$seed.json" "${SWEEP_LIMIT_S:-400}" build-gpu/bin/tclens bench \
                    --kernels "${SWEEP_KERNELS:-$rungs,dispatch.bf16}" --sweep "${SWEEP_N:-200}" --seed "$seed" \
                    --workers "${SWEEP_WORKERS:-1}" --runs 20 --warmup 2 --json
            done
            ;;
        presets)
            timed presets.json 600 build-gpu/bin/tclens bench \
                --kernels "wgmma_tma.bf16,wgmma_persistent.bf16,wgmma_streamk.bf16,dispatch.bf16,dispatch.f16" \
                --preset square,lab6,llm --runs 20 --warmup 2 --json
            ;;
        fp8)
            timed fp8_verify.log 150 build-gpu/bin/gpu_tests \
                --gtest_filter='Dispatch/*e4m3*:DispatchOnGpu.*Fp8*:Fp8/*:Fp8OnGpu.*:Kernels/LadderVerification.*e4m3*:Kernels/LadderVerification.*wgmma_persistent_bf16*:GemmRunnerOnGpu.PersistentRungs*:-*cublaslt*'
            timed fp8_presets.json 150 build-gpu/bin/tclens bench \
                --kernels wgmma_fp8.e4m3,dispatch.e4m3 --preset square,lab6,llm --runs 20 \
                --warmup 2 --json
            ;;
        candidates)
            # shellcheck disable=SC2086  # the shapes, one argument each
            timed candidates.md 300 build-gpu/bin/dispatch_candidates bf16 \
                ${CANDIDATE_SHAPES:-512x512x512 1024x1024x1024 16x3072x3072 64x3072x3072 128x3072x3072 256x3072x3072 16x8192x8192 128x8192x8192}
            ;;
        record)
            for name in h200 h200_b; do
                timed "$name.record.log" 900 build-gpu/bin/tclens record "$out/$name.json.gz"
            done
            ;;
        *)
            echo "gpu_dispatch.sh: unknown step '$step' in DISPATCH_STEPS; steps: verify, sweep, presets, fp8, candidates, record" >&2
            exit 2
            ;;
    esac
done
exit "$status"
