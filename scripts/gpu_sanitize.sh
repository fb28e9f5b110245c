#!/usr/bin/env bash
# After scripts/gpu_check.sh: every ladder kernel under compute-sanitizer (memcheck, racecheck,
# synccheck, initcheck) at a small size with ragged edges, through `tclens bench` (which also
# runs the verification). Writes $OUT/sanitizer.md (one row per kernel and tool) and
# $OUT/sanitizer.log (everything the tools printed). Exit 1 if any tool reports an error.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-out}
mkdir -p "$out"
tclens=build-gpu/bin/tclens
size=${SANITIZE_MNK:-200x136x72}  # M, N not multiples of any block tile; K, N multiples of 8
tools=${SANITIZE_TOOLS:-memcheck racecheck synccheck initcheck}
export PATH=/usr/local/cuda/bin:$PATH
kernels=$($tclens kernels --json | python3 -c 'import json,sys; print(" ".join(k["id"] for k in json.load(sys.stdin)["kernels"] if k["rung"] > 0))')
status=0
{
    echo "# compute-sanitizer over the ladder, $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader), $(date -u +%Y-%m-%d)"
    echo
    echo "Each row: \`compute-sanitizer --tool TOOL tclens bench --kernels ID --mnk $size --runs 20 --warmup 0 --no-peak --no-reference\`"
    echo "(the kernel alone, verified against fp64 on the CPU before it is timed)."
    echo
    echo "| kernel | tool | errors | bench exit |"
    echo "|---|---|---|---|"
} >"$out/sanitizer.md"
: >"$out/sanitizer.log"
for id in $kernels; do
    for tool in $tools; do
        log=$(compute-sanitizer --tool "$tool" --error-exitcode 99 \
            $tclens bench --kernels "$id" --mnk "$size" --runs 20 --warmup 0 --no-peak --no-reference 2>&1)
        code=$?
        summary=$(echo "$log" | grep -E "ERROR SUMMARY|RACECHECK SUMMARY" | tail -1)
        { echo "== $id $tool (exit $code)"; echo "$log"; } >>"$out/sanitizer.log"
        echo "| $id | $tool | ${summary:-no summary} | $code |" >>"$out/sanitizer.md"
        [ "$code" -eq 0 ] || status=1
    done
done
cat "$out/sanitizer.md"
exit "$status"
