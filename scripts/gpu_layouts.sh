#!/usr/bin/env bash
# After scripts/gpu_check.sh: `tclens layout ID --verify` for every layout ID, one line each,
# into $OUT/layout_verify.txt (the table committed under tests/gpu/results/).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-out}
tclens=build-gpu/bin/tclens
{
    echo "# tclens layout ID --verify on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader), $(date -u +%Y-%m-%d)"
    for id in $($tclens layout --list); do
        $tclens layout "$id" --verify 2>&1 | tail -1
    done
} | tee "$out/layout_verify.txt"
