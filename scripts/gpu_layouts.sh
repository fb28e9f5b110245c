#!/usr/bin/env bash
# After scripts/gpu_check.sh: `tclens layout ID --verify` for every layout ID, one line each, into
# $OUT/layout_verify.txt, and a results table, $OUT/layout_verify.md, with each ID, its element
# count (register slots, or shared-memory tile elements for the wgmma.smem views) and what the GPU
# said: "N/N match", or "model: needs sm_100" for the tcgen05 models, which no sm_90 GPU can run,
# or FAILED with the last line tclens printed. Exits 1 if any ID that has a probe did not match in
# full. Takes about 4 minutes on an H100.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-out}
mkdir -p "$out"
tclens=${TCLENS:-build-gpu/bin/tclens}
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
start=$(date +%s)
txt="$out/layout_verify.txt"
md="$out/layout_verify.md"
echo "# tclens layout ID --verify on ${gpu:-unknown GPU}, $(date -u +%Y-%m-%d)" >"$txt"
{
    echo "# tclens layout ID --verify on ${gpu:-unknown GPU}, $(date -u +%Y-%m-%d)"
    echo
    echo "| ID | elements | result |"
    echo "|---|---:|---|"
} >"$md"
matched=0 failed=0 models=0
for id in $($tclens layout --list); do
    log=$($tclens layout "$id" --verify 2>&1)
    code=$?
    echo "$log" | tail -1 | tee -a "$txt"
    # Elements of the model: one "lane" key per register element, one "byte" per shared-memory
    # element in the layout JSON.
    elements=$($tclens layout "$id" --json | grep -c -E '"(lane|byte)":')
    summary=$(echo "$log" | grep -o -E '[0-9]+/[0-9]+ elements match' | tail -1)
    if [ $code -eq 0 ] && [ -n "$summary" ]; then
        result="${summary% elements match} match"
        matched=$((matched + 1))
    elif echo "$log" | grep -q 'not verified: needs sm_100'; then
        result="model: needs sm_100"
        models=$((models + 1))
    else
        result="FAILED: $(echo "$log" | tail -1)"
        failed=$((failed + 1))
    fi
    echo "| \`$id\` | $elements | $result |" >>"$md"
done
seconds=$(($(date +%s) - start))
{
    echo
    echo "$matched IDs match in full, $failed do not, $models are tcgen05 models (not run);" \
        "${seconds} s."
} | tee -a "$md" >>"$txt"
tail -2 "$md"
[ "$failed" -eq 0 ]
