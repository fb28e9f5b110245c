#!/usr/bin/env bash
# Makes every picture of the user guide (docs/guide/images/*.png) and the README's first image
# (docs/images/workspace.png) with `tclens screenshot`, from the shipped recording
# assets/recordings/h200.json.gz. The pictures are the source of truth's output: after a change to
# how a view looks, run this again and commit the PNGs it writes.
#
# Deterministic: every picture is taken as a machine without a GPU draws it
# (TCLENS_INJECT_FAULT=no-gpu, so a GPU here changes nothing), under its own Xvfb screen, with a
# scratch config folder (no remembered layout, no recent files), at a fixed size.
#
# Usage: scripts/guide_pictures.sh   (under a minute; TCLENS=path picks the binary, default
#                                     build/bin/tclens)
set -euo pipefail
cd "$(dirname "$0")/.."

tclens=${TCLENS:-build/bin/tclens}
if [ ! -x "$tclens" ]; then
    echo "guide_pictures: no tclens at $tclens; build it (ninja -C build tclens) or set TCLENS" >&2
    exit 1
fi
# One Xvfb for all pictures: the script runs itself again under xvfb-run.
if [ -z "${TCLENS_GUIDE_XVFB:-}" ]; then
    if ! command -v xvfb-run >/dev/null; then
        echo "guide_pictures: needs xvfb-run (Debian package xvfb)" >&2
        exit 1
    fi
    TCLENS_GUIDE_XVFB=1 exec xvfb-run -a -s "-screen 0 1920x1080x24" "$0" "$@"
fi

config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT
export XDG_CONFIG_HOME=$config TCLENS_INJECT_FAULT=no-gpu
recording=assets/recordings/h200.json.gz
images=docs/guide/images
mkdir -p "$images"

# window NAME [SETTING ...]: the whole app at 1280x720 with the recording open.
window() {
    local name=$1
    shift
    local settings=()
    for setting in "$@"; do settings+=(--set "$setting"); done
    "$tclens" screenshot --window --size 1280x720 --open "$recording" "${settings[@]}" \
        --out "$images/$name.png"
    echo "$images/$name.png"
}

# tour_step NAME N: step N of the shipped tour in lecture mode's look, as a projector shows it.
tour_step() {
    "$tclens" screenshot --tour-step "$2" --lecture --size 1280x720 --open "$recording" \
        --out "$images/$1.png"
    echo "$images/$1.png"
}

start=$SECONDS

# The README's first image: Fragments beside Banks needs the width of a 1920x1080 screen.
"$tclens" screenshot --window --size 1920x1080 --open "$recording" \
    --set workspace.split=banks,beside --set fragments.layout=mma.m16n8k16.f16 \
    --set fragments.lane=5 --set fragments.zoom=fit --set banks.pattern=ldmatrix.x4 \
    --set banks.zoom=fit --out docs/images/workspace.png
echo docs/images/workspace.png

window device workspace.view=device
window fragments workspace.view=fragments fragments.layout=mma.m16n8k16.f16 \
    fragments.colour=register fragments.lane=5 fragments.zoom=fit
window banks workspace.view=banks banks.pattern=ldmatrix.x4 banks.left=none banks.right=xor \
    banks.zoom=fit
window tilemap workspace.view=tilemap tilemap.kernel=mma_cp_async.f16 tilemap.view=grid \
    tilemap.colour=wave tilemap.zoom=fit
window tilemap-block workspace.view=tilemap tilemap.kernel=mma_cp_async.f16 tilemap.view=block \
    tilemap.block=0 tilemap.zoom=fit
window kernels workspace.view=kernels kernels.selected=wgmma_persistent.bf16
window profile workspace.view=profile profile.kernel=wgmma_ws.bf16 \
    profile.mnk=4096x4096x4096
window source workspace.view=source source.kernel=naive_fma.f32 source.line=36
window timeline workspace.view=timeline timeline.kernel=wgmma_tma.bf16 \
    timeline.compare=wgmma_ws.bf16 timeline.blocks=1
window compare workspace.view=compare compare.view=table
window compare-roofline workspace.view=compare compare.view=roofline
window split workspace.view=kernels workspace.split=profile,below \
    kernels.selected=wgmma_ws.bf16 profile.kernel=wgmma_ws.bf16
tour_step lecture-timeline 9

echo "guide_pictures: $(ls "$images"/*.png | wc -l) guide pictures and the README's in" \
    "$((SECONDS - start)) s"
