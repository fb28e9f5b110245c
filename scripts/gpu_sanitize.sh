#!/usr/bin/env bash
# After scripts/gpu_check.sh: every ladder kernel under compute-sanitizer (memcheck, racecheck,
# synccheck, initcheck) at a small size with ragged edges, through `tclens bench` (which also
# runs the verification), then every probe and helper kernel through the GPU tests that run it
# without CUPTI's profiler (which cannot run beside compute-sanitizer) and the peak probes
# through `tclens bench` without --no-peak. Writes $OUT/sanitizer.md (one row per kernel or
# test group and tool) and $OUT/sanitizer.log (everything the tools printed). Exit 1 if any tool
# reports an error. SANITIZE_PARTS=ladder|probes limits it to one part; SANITIZE_KERNELS (a
# grep -E regex of ids) limits the ladder part, SANITIZE_MNK sets its size, SANITIZE_TOOLS its
# tools.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-out}
mkdir -p "$out"
tclens=build-gpu/bin/tclens
size=${SANITIZE_MNK:-200x136x72}  # M, N not multiples of any block tile; K, N multiples of 8
tools=${SANITIZE_TOOLS:-memcheck racecheck synccheck initcheck}
export PATH=/usr/local/cuda/bin:$PATH
kernels=$($tclens kernels --json | python3 -c 'import json,sys; print(" ".join(k["id"] for k in json.load(sys.stdin)["kernels"] if k["rung"] > 0))')
if [ -n "${SANITIZE_KERNELS:-}" ]; then
    kernels=$(printf '%s\n' $kernels | grep -E "$SANITIZE_KERNELS" | tr '\n' ' ')
fi
status=0
{
    echo "# compute-sanitizer over the ladder, $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader), $(date -u +%Y-%m-%d), commit $($tclens --version 2>/dev/null | sed -n 's/^commit: //p')"
    echo
    echo "Each row: \`compute-sanitizer --tool TOOL tclens bench --kernels ID --mnk $size --runs 20 --warmup 0 --no-peak --no-reference\`"
    echo "(the kernel alone, verified against fp64 on the CPU before it is timed)."
    echo
    echo "| kernel | tool | errors | bench exit |"
    echo "|---|---|---|---|"
} >"$out/sanitizer.md"
: >"$out/sanitizer.log"
run_row() {  # name tool command...: one row; a tool error (exit 99) fails the script
    local name=$1 tool=$2
    shift 2
    log=$(compute-sanitizer --tool "$tool" --error-exitcode 99 "$@" 2>&1)
    code=$?
    summary=$(echo "$log" | grep -E "ERROR SUMMARY|RACECHECK SUMMARY" | tail -1)
    { echo "== $name $tool (exit $code)"; echo "$log"; } >>"$out/sanitizer.log"
    echo "| $name | $tool | ${summary:-no summary} | $code |" >>"$out/sanitizer.md"
    [ "$code" -ne 99 ] || status=1
    [ "$code" -eq 0 ] || [ "${allow_test_failures:-0}" -eq 1 ] || status=1
}
parts=${SANITIZE_PARTS:-ladder probes}
[[ " $parts " == *" ladder "* ]] || kernels=""
for id in $kernels; do
    for tool in $tools; do
        run_row "$id" "$tool" $tclens bench --kernels "$id" --mnk "$size" --runs 20 --warmup 0 \
            --no-peak --no-reference
    done
done
if [[ " $parts " == *" probes "* ]]; then
    gpu_tests=build-gpu/bin/gpu_tests
    {
        echo
        echo "Probe and helper kernels: \`compute-sanitizer --tool TOOL gpu_tests --gtest_filter=GROUP\`, and"
        echo "the peak probes through \`tclens bench --kernels naive_fma.f32 --mnk 64x64x64 --runs 20\`"
        echo "(no --no-peak). A tool error exits 99; a test that fails for another reason (the DRAM"
        echo "probe's bandwidth floor under the tool's slowdown) shows its own exit code."
        echo
        echo "| group | tool | errors | exit |"
        echo "|---|---|---|---|"
    } >>"$out/sanitizer.md"
    # group name | gtest filter
    groups=(
        "fragment probes (mma, ldmatrix, wgmma: 46 layouts)|*FragmentProbe*"
        "thread id probe|ThreadIdProbe.*"
        "bank probe|BankProbe.*"
        "stream gate|StreamGateOnGpu.*"
        "L2 flush|L2FlusherOnGpu.*"
        "DRAM probe|DramProbe.*"
    )
    for tool in $tools; do
        for group in "${groups[@]}"; do
            IFS='|' read -r name filter <<<"$group"
            allow_test_failures=0
            [ "$name" != "DRAM probe" ] || allow_test_failures=1
            run_row "$name" "$tool" "$gpu_tests" --gtest_filter="$filter"
        done
        allow_test_failures=0
        run_row "peak probes" "$tool" $tclens bench --kernels naive_fma.f32 --mnk 64x64x64 \
            --runs 20 --warmup 0 --no-reference
    done
fi
cat "$out/sanitizer.md"
exit "$status"
