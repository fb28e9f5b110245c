#!/usr/bin/env bash
# Records one of the shipped recordings (assets/recordings/) on the GPU server, as they were
# made: `tclens record NAME.json --timeline-ms 300` (the square preset, every rung and reference),
# after building tclens with scripts/gpu_check.sh when build-gpu/ lacks it. Usage (repository
# root, $OUT set): record_shipped.sh NAME   -> $OUT/NAME.json.gz, NAME.out, NAME.err, environment.txt
set -uo pipefail
name=$1
out=${OUT:?}
if [ ! -x build-gpu/bin/tclens ]; then
    GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS=tclens scripts/gpu_check.sh || exit 1
else
    OUT=$out GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS=tclens scripts/gpu_check.sh >/dev/null
fi
mkdir -p /root/out/r
start=$SECONDS
build-gpu/bin/tclens record "/root/out/r/$name.json" --timeline-ms 300 >"$out/$name.out" 2>"$out/$name.err"
status=$?
echo "record $name: exit $status in $((SECONDS - start)) s" | tee -a "$out/$name.out"
[ -f "/root/out/r/$name.json" ] && gzip -c "/root/out/r/$name.json" >"$out/$name.json.gz"
exit $status
