#!/usr/bin/env bash
# After scripts/gpu_check.sh (which builds build-gpu/): the warp trace's cost, the traced kernel's
# time over the untraced one's, for each case the GPU test gpu.TraceCommandOnGpu.* bounds (3 %,
# issue 34) and for the traceable rungs rung 14 (dispatch.bf16) picks: REPEAT (default 3) runs of
# `tclens trace` per case (each times both kernels in one process, a median of timed launches
# each), and their median. Rung 14 has no trace points of its own: its cases trace the rung it
# runs on that shape (`tclens kernels --mnk` prints the choice, written above the table).
# Writes $OUT/trace_overhead.md (or ./gpu-out/): the table, with `tclens --version` of the binary
# run. BUDGET_S (default 210): a case that would start later than that many seconds after the
# script is listed as not run. CASES (default: all): a regular expression (grep -E) the case names
# run must match, e.g. CASES='rung 12'. Exit 1 when a trace failed or a median is over MAX_PCT (3).
# Where rung 11's cost goes: scripts/gpu_trace_ncu.sh (Nsight Compute, traced and untraced).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${OUT:-gpu-out}
mkdir -p "$out"
tclens=${TCLENS:-build-gpu/bin/tclens}
repeat=${REPEAT:-3}
budget_s=${BUDGET_S:-210}
max_pct=${MAX_PCT:-3}
case_filter=${CASES:-.}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
report="$out/trace_overhead.md"

# case name | kernel | size | blocks ("grid": every block the launch runs, as the test traces).
# The persistent rungs first: they trace every block, and the budget must not cut them.
cases=(
    "rung 11|wgmma_persistent.bf16|4096x4096x4096|grid"
    "rung 12 wide|wgmma_streamk.bf16|3072x3072x3072|grid"
    "rung 12 small M|wgmma_streamk.bf16|64x3072x3072|grid"
    "rung 14 -> rung 11|wgmma_persistent.bf16|2240x2560x8320|grid"
    "rung 14 -> rung 12 wide|wgmma_streamk.bf16|1344x7104x3200|grid"
    "rung 8|mma_cp_async.bf16|4096x4096x4096|4"
    "rung 9|wgmma_tma.bf16|4096x4096x4096|4"
    "rung 10|wgmma_ws.bf16|4096x4096x4096|4"
)
# The shapes rung 14's cases stand for, and rung 14's choice there (4096^3 is its choice too:
# rung 11; 64x3072x3072 was rung 12's small-M mode until session 23 and is split-K now, which has
# no trace points: the "rung 12 small M" case still measures that mode).
dispatch_sizes=(4096x4096x4096 2240x2560x8320 1344x7104x3200 64x3072x3072)

{
    echo "# Trace overhead: traced over untraced kernel time, $repeat traces per case"
    echo
    echo '```'
    "$tclens" --version
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo '```'
    echo
    echo "Rung 14 (dispatch.bf16) on the sizes of its cases:"
    echo
    echo '```'
    for size in "${dispatch_sizes[@]}"; do
        "$tclens" kernels --mnk "$size" 2>&1 | grep -A1 ' dispatch\.bf16 ' | tail -1 | sed 's/^ *//'
    done
    echo '```'
    echo
    echo "| case | kernel | size | blocks traced | overhead of each trace (%) | median (%) | <= $max_pct % |"
    echo "|---|---|---|---|---|---|---|"
} >"$report"

# Prints the overhead in percent of the trace JSON $1.
overhead() {
    python3 -c 'import json,sys; t=json.load(open(sys.argv[1])); print("%.2f" % (100*(t["kernel_ms"]/t["untraced_ms"]-1)))' "$1"
}

status=0
for entry in "${cases[@]}"; do
    IFS='|' read -r name kernel size blocks <<<"$entry"
    grep -qE -- "$case_filter" <<<"$name" || continue
    if [ "$SECONDS" -gt "$budget_s" ]; then
        echo "| $name | $kernel | $size | - | not run: past BUDGET_S=$budget_s s | - | - |" >>"$report"
        status=1
        continue
    fi
    overheads=()
    if [ "$blocks" = grid ]; then
        # A trace of one block says how many the launch runs (not counted: it traces less).
        if ! "$tclens" trace --kernel "$kernel" --mnk "$size" --blocks 1 --json "$scratch/probe.json" \
            >/dev/null 2>"$scratch/err.txt"; then
            echo "| $name | $kernel | $size | - | trace failed: $(head -1 "$scratch/err.txt") | - | no |" >>"$report"
            status=1
            continue
        fi
        blocks=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["blocks_launched"])' "$scratch/probe.json")
    fi
    failure=""
    for _ in $(seq "$repeat"); do
        if "$tclens" trace --kernel "$kernel" --mnk "$size" --blocks "$blocks" --json "$scratch/t.json" \
            >/dev/null 2>"$scratch/err.txt"; then
            overheads+=("$(overhead "$scratch/t.json")")
        else
            overheads+=("failed")
            failure=" ($(head -1 "$scratch/err.txt"))"
            status=1
        fi
    done
    median=$(printf '%s\n' "${overheads[@]}" | grep -v failed | python3 -c 'import sys; v=sorted(float(x) for x in sys.stdin); print("%.2f" % v[len(v)//2] if v else "-")')
    verdict=$(python3 -c 'import sys; m=sys.argv[1]; print("yes" if m != "-" and float(m) <= float(sys.argv[2]) else "no")' "$median" "$max_pct")
    [ "$verdict" = yes ] || status=1
    echo "| $name | $kernel | $size | $blocks | ${overheads[*]}$failure | $median | $verdict |" >>"$report"
done
echo >>"$report"
echo "($SECONDS s)" >>"$report"
cat "$report"
exit "$status"
