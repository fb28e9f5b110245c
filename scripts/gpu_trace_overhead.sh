#!/usr/bin/env bash
# After scripts/gpu_check.sh (which builds build-gpu/): the warp trace's cost, the traced kernel's
# time over the untraced one's, for each case the GPU test gpu.TraceCommandOnGpu.* bounds: REPEAT
# (default 5) runs of `tclens trace` per case (each times both kernels in one process, a median
# of timed launches each), and their median. Writes $OUT/trace_overhead.md (or ./gpu-out/): the
# table, with `tclens --version` of the binary run.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-out}
mkdir -p "$out"
tclens=${TCLENS:-build-gpu/bin/tclens}
repeat=${REPEAT:-5}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# case name | kernel | size | blocks ("grid": every block the launch runs, as the test traces)
cases=(
    "rung 8|mma_cp_async.bf16|4096x4096x4096|4"
    "rung 9|wgmma_tma.bf16|4096x4096x4096|4"
    "rung 10|wgmma_ws.bf16|4096x4096x4096|4"
    "rung 11|wgmma_persistent.bf16|4096x4096x4096|grid"
    "rung 12 wide|wgmma_streamk.bf16|3072x3072x3072|grid"
    "rung 12 small M|wgmma_streamk.bf16|64x3072x3072|grid"
)
{
    echo "# Trace overhead: traced over untraced kernel time, $repeat traces per case"
    echo
    echo '```'
    "$tclens" --version
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo '```'
    echo
    echo "| case | kernel | size | blocks traced | overhead of each trace (%) | median (%) |"
    echo "|---|---|---|---|---|---|"
} >"$out/trace_overhead.md"
status=0
for entry in "${cases[@]}"; do
    IFS='|' read -r name kernel size blocks <<<"$entry"
    if [ "$blocks" = grid ]; then
        "$tclens" trace --kernel "$kernel" --mnk "$size" --blocks 1 --json "$scratch/probe.json" \
            >/dev/null 2>&1 || { echo "| $name | $kernel | $size | - | trace failed | - |" >>"$out/trace_overhead.md"; status=1; continue; }
        blocks=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["blocks_launched"])' "$scratch/probe.json")
    fi
    overheads=()
    for i in $(seq "$repeat"); do
        if "$tclens" trace --kernel "$kernel" --mnk "$size" --blocks "$blocks" --json "$scratch/t.json" \
            >/dev/null 2>"$scratch/err.txt"; then
            overheads+=("$(python3 -c 'import json,sys; t=json.load(open(sys.argv[1])); print("%.2f" % (100*(t["kernel_ms"]/t["untraced_ms"]-1)))' "$scratch/t.json")")
        else
            overheads+=("failed")
            status=1
        fi
    done
    median=$(printf '%s\n' "${overheads[@]}" | grep -v failed | sort -g | python3 -c 'import sys; v=[float(x) for x in sys.stdin]; print("%.2f" % sorted(v)[len(v)//2] if v else "-")')
    echo "| $name | $kernel | $size | $blocks | ${overheads[*]} | $median |" >>"$out/trace_overhead.md"
done
cat "$out/trace_overhead.md"
exit "$status"
