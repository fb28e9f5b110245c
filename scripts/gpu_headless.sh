#!/usr/bin/env bash
# The GUI on a GPU server with no display (`tclens headless`, ImGui's null backend), after
# scripts/gpu_check.sh has built build-gpu/. Writes JSON reports to $OUT (or ./gpu-out):
#   live_profile.json  Profile panel Live on a ~1 ms kernel: updates/s seen by the frames and the
#                      frame cost (target: >= 5 updates/s at <= 16 ms per frame)
#   live_three_kernels.json/.txt  the same with three kernels profiled in turn: updates per
#                      kernel, and the panel's text (the side-by-side table)
#   headless_version.txt  `tclens --version` of the binary run (its commit)
#   banks.txt          the Banks panel's text after "Measure on GPU" (model / measured)
#   soak.json          every panel drawing each frame (Profile beside Kernels, the other five
#                      in windows of their own) while Live profiles a small kernel until
#                      SOAK_UPDATES updates (default 10000) or SOAK_SECONDS (default 300):
#                      resident memory after warm-up and at the end, frame cost per sample
#                      (SOAK_SECONDS=0 skips it)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-out}
mkdir -p "$out"
tclens=build-gpu/bin/tclens
$tclens --version >"$out/headless_version.txt" 2>&1

$tclens headless --view profile --set profile.kernel=mma_cp_async.bf16 \
    --set profile.mnk=8192x4096x4096 --set profile.set=default --set profile.live=on \
    --seconds 15 --json >"$out/live_profile.json" 2>&1

$tclens headless --view profile --set profile.kernel=register_tiled.f32,mma_cp_async.bf16,cublas.bf16 \
    --set profile.focus=mma_cp_async.bf16 --set profile.mnk=4096x4096x4096 --set profile.set=default \
    --set profile.live=on --seconds 15 --json --text "$out/live_three_kernels.txt" \
    >"$out/live_three_kernels.json" 2>&1

$tclens headless --view banks --set banks.pattern=ldmatrix.x4 --set banks.left=none \
    --set banks.right=xor --set banks.measure=on --frames 3 --text "$out/banks.txt" \
    >"$out/banks_report.txt" 2>&1

[ "${SOAK_SECONDS:-300}" = 0 ] ||
    $tclens headless --set profile.kernel=mma_cp_async.bf16 --set profile.mnk=256x256x256 \
        --set profile.set=default --set profile.live=on --set workspace.view=profile \
        --set workspace.split=kernels,beside \
        --set workspace.floating=device,fragments,banks,tilemap,compare \
        --until-live-updates "${SOAK_UPDATES:-10000}" --seconds "${SOAK_SECONDS:-300}" \
        --sample-every 10 --json >"$out/soak.json" 2>&1
