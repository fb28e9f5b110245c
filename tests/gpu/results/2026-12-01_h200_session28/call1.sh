#!/usr/bin/env bash
# Session 28, first GPU call, one H200, on session 27's tree with trace_variants.patch applied (a
# TCLENS_TRACE_VARIANT switch in kernels/12_wgmma_stream_k.cu, 0 = the committed code, and a
# LeanHeldKTileLog in kernels/trace.cuh): the traced over untraced time of rung 12 (3072^3 wide,
# 64x3072x3072 small M, 1344x7104x3200 rung 14's wide shape), five traces each, for each variant.
# The variants' objects are compiled in parallel (-DTCLENS_TRACE_VARIANT=v, the build's own
# command) and each linked in turn. Variants: 1 = the consumers' phases after the K loop
# (epilogue, store, fix-up) clock-only records; 2 = 1 and the consumers' tile schedule clock-only
# too; 4 = 1 without K-tile records; 5 = 1 with the K tiles held two readings a lane; 6 = 1
# without the producer's K-tile records; 7 = 4 and 6. SASS of variants 0 and 5. First,
# dispatch_candidates on 30 shapes whose N or K TMA cannot stride with K of 129-500 (the short-K
# GEMM now takes K up to 512; rung 14's rule still up to 128). All in $OUT/call1.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$out/gpus.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$out/gpus.txt" 2>&1
git apply tests/gpu/results/2026-12-01_h200_session28/trace_variants.patch 2>>"$out/times.txt"
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens dispatch_candidates" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call1.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
t=$PWD/build-gpu/bin/tclens
"$t" --version >"$out/version.txt" 2>&1
echo "built at $(elapsed) s" >>"$out/times.txt"
CUDA_VISIBLE_DEVICES=0 timeout 120 build-gpu/bin/dispatch_candidates bf16 \
    4006x977x149 827x4513x151 14108x209x183 13592x215x175 15560x41x153 1470x13139x186 \
    6058x3859x170 4570x2421x169 13596x2513x141 43x8262x162 1323x1975x167 4973x491x169 \
    652x9423x187 12596x49x193 7239x917x242 1514x15561x252 4730x1693x280 427x7977x323 \
    7805x3735x232 10305x13917x270 1491x10261x310 11777x11202x222 5101x653x381 13109x1731x285 \
    93x14209x267 689x90x248 137x484x216 3000x3001x450 8000x999x500 2000x2000x390 \
    >"$out/candidates.md" 2>"$out/candidates.err"
echo "candidates exit $? at $(elapsed) s" >>"$out/times.txt"
obj=kernels/CMakeFiles/tclens_kernels.dir/12_wgmma_stream_k.cu.o
cmd=$(ninja -C build-gpu -t commands tclens | grep -F -- "-o $obj" | head -1)
variants="1 5 4 6 7 2"
for v in $variants; do
    vcmd=${cmd//-o $obj/-o $out/v$v.o}
    vcmd=${vcmd//-MF $obj.d/-MF $out/v$v.d}
    (cd build-gpu && eval "${vcmd/ -x cu / -DTCLENS_TRACE_VARIANT=$v -x cu }") >"$out/compile_$v.log" 2>&1 &
done
wait
echo "variants compiled at $(elapsed) s" >>"$out/times.txt"
cp build-gpu/$obj "$out/v0.o"
for v in 0 5; do
    cuobjdump -sass -arch sm_90a "$out/v$v.o" | gzip >"$out/sass_v$v.txt.gz" 2>/dev/null
done
# $1: variant. Five traces of each case, every block traced; one line per case.
overheads() {
    for size in 3072x3072x3072 64x3072x3072 1344x7104x3200; do
        CUDA_VISIBLE_DEVICES=0 timeout 30 "$t" trace --kernel wgmma_streamk.bf16 --mnk "$size" --blocks 1 \
            --json "$out/probe.json" >/dev/null 2>>"$out/trace.err"
        blocks=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["blocks_launched"])' "$out/probe.json")
        line="variant $1 | $size | $blocks |"
        for r in 1 2 3 4 5; do
            CUDA_VISIBLE_DEVICES=0 timeout 30 "$t" trace --kernel wgmma_streamk.bf16 --mnk "$size" \
                --blocks "$blocks" --json "$out/t.json" >/dev/null 2>>"$out/trace.err" &&
                line="$line $(python3 -c 'import json,sys; t=json.load(open(sys.argv[1])); print("%.2f" % (100*(t["kernel_ms"]/t["untraced_ms"]-1)))' "$out/t.json")"
        done
        echo "$line" >>"$out/trace_variants.md"
    done
    echo "variant $1 timed at $(elapsed) s" >>"$out/times.txt"
}
echo "| variant | size | blocks | overhead of 5 traces (%) |" >"$out/trace_variants.md"
overheads 0
for v in $variants; do
    [ "$(elapsed)" -gt 520 ] && { echo "variant $v not run at $(elapsed) s" >>"$out/times.txt"; continue; }
    [ -s "$out/v$v.o" ] || { echo "variant $v did not compile" >>"$out/times.txt"; continue; }
    cp "$out/v$v.o" "build-gpu/$obj" && touch "build-gpu/$obj"
    timeout 60 cmake --build build-gpu --target tclens >"$out/relink_$v.log" 2>&1
    echo "linked variant $v exit $? at $(elapsed) s" >>"$out/times.txt"
    overheads "$v"
done
rm -f "$out"/v*.o "$out"/t.json "$out"/probe.json
gzip -f "$out"/relink_*.log "$out"/compile_*.log
tar -czf "$final/call1.tgz" -C "$out" .
cat "$out/times.txt"; cat "$out/trace_variants.md"; grep -E "rung 14|cuBLAS \||short-K|128x128 \|" "$out/candidates.md" | cut -c1-160 | head -130; head -c 600 "$out/trace.err"; tail -3 "$out/relink_1.log" 2>/dev/null
