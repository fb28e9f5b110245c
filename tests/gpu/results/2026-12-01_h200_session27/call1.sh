#!/usr/bin/env bash
# Session 27, first GPU call, one H200, on session 26's tree with trace_variants.patch applied
# (a TCLENS_TRACE_VARIANT switch in kernels/tma_producer.cuh and kernels/wgmma_consumer.cuh,
# 0 = the committed code): dispatch_candidates on the shapes where rung 9's 128 x 128 tiles take
# two rounds and rung 11's one, and on M just past 128; then the traced over untraced time of
# rung 11 (2240x2560x8320, 4096^3) and rung 12 (3072^3), three traces each, for variant 0 and,
# each rebuilt in place (the define at the top of 11_wgmma_persistent.cu and
# 12_wgmma_stream_k.cu), variants 4 (no K-tile records), 2 (consumer K tiles recorded by the
# last warp of each warpgroup, not a releasing one), 1 (the producer reads the clock once per K
# tile, after its loads) and 3 (both). All in $OUT/call1.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$out/gpus.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$out/gpus.txt" 2>&1
git apply tests/gpu/results/2026-12-01_h200_session27/trace_variants.patch 2>>"$out/times.txt"
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens dispatch_candidates" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call1.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
t=$PWD/build-gpu/bin/tclens
"$t" --version >"$out/version.txt" 2>&1
echo "built at $(elapsed) s" >>"$out/times.txt"
CUDA_VISIBLE_DEVICES=0 timeout 90 build-gpu/bin/dispatch_candidates bf16 \
    192x8512x2304 192x8768x768 304x5680x464 400x4352x1280 448x4288x192 544x3344x128 \
    2880x704x320 2944x768x2304 3536x544x1232 9088x192x448 11648x192x64 320x7168x1024 \
    640x4480x3904 10560x256x64 144x5936x13776 192x7360x9024 208x7664x13920 192x5952x2688 \
    256x4800x8000 1792x640x3712 5824x144x720 336x3168x2880 \
    >"$out/candidates.md" 2>"$out/candidates.err"
echo "candidates exit $? at $(elapsed) s" >>"$out/times.txt"
# $1: variant. Three traces of each case, every block traced; one line per case.
overheads() {
    for entry in wgmma_persistent.bf16:2240x2560x8320 wgmma_persistent.bf16:4096x4096x4096 \
        wgmma_streamk.bf16:3072x3072x3072; do
        kernel=${entry%%:*}; size=${entry#*:}
        CUDA_VISIBLE_DEVICES=0 timeout 30 "$t" trace --kernel "$kernel" --mnk "$size" --blocks 1 \
            --json "$out/probe.json" >/dev/null 2>>"$out/trace.err"
        blocks=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["blocks_launched"])' "$out/probe.json")
        line="variant $1 | $kernel | $size | $blocks |"
        for r in 1 2 3; do
            CUDA_VISIBLE_DEVICES=0 timeout 30 "$t" trace --kernel "$kernel" --mnk "$size" \
                --blocks "$blocks" --json "$out/v$1_${size}_$r.json" >/dev/null 2>>"$out/trace.err" &&
                line="$line $(python3 -c 'import json,sys; t=json.load(open(sys.argv[1])); print("%.2f" % (100*(t["kernel_ms"]/t["untraced_ms"]-1)))' "$out/v$1_${size}_$r.json")"
        done
        echo "$line" >>"$out/trace_variants.md"
    done
    echo "variant $1 timed at $(elapsed) s" >>"$out/times.txt"
}
echo "| variant | kernel | size | blocks | overhead of 3 traces (%) |" >"$out/trace_variants.md"
overheads 0
for v in 4 2 1 3; do
    [ "$(elapsed)" -gt 470 ] && { echo "variant $v not run at $(elapsed) s" >>"$out/times.txt"; continue; }
    for f in kernels/11_wgmma_persistent.cu kernels/12_wgmma_stream_k.cu; do
        sed -i '/^#define TCLENS_TRACE_VARIANT/d' "$f"
        sed -i "1i #define TCLENS_TRACE_VARIANT $v" "$f"
    done
    timeout 150 cmake --build build-gpu --target tclens >"$out/rebuild_$v.log" 2>&1
    echo "rebuilt variant $v exit $? at $(elapsed) s" >>"$out/times.txt"
    overheads "$v"
done
gzip -f "$out"/rebuild_*.log
(cd "$out" && tar -czf traces.tgz v*.json && rm -f v*.json probe.json)
tar -czf "$final/call1.tgz" -C "$out" .
cat "$out/times.txt"; cat "$out/trace_variants.md"; head -c 300 "$out/trace.err"
grep -E "rung 14|cuBLAS \||rung 11|128x128 \||64x128 \||64x128 split 2 \|" "$out/candidates.md" | head -150
