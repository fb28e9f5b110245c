#!/usr/bin/env bash
# Session 28, second GPU call, one H200, with call 1's trace_variants.patch applied (variant 0 =
# the committed code): dispatch_candidates on 31 shapes that place the short-K GEMM's bounds over
# K = 129-448 (N a multiple of 4; N even but not of 4, many tiles; K <= 128 and few tiles; K of
# 321-447; tiles around half the SMs), then rung 12's traced over untraced time (3072^3 wide,
# 64x3072x3072 small M, 1344x7104x3200), five traces each, for variants 0, 1, 4, 7, 5 (call 1's
# script says what each is). Call 1 relinked its variants through ninja, which compiled the
# source again without the variant's define: its variants 1 and 5 timed variant 0. Here each
# variant's object (the build's command with -DTCLENS_TRACE_VARIANT=v) replaces the rung's
# member of a copy of the kernels library, and the build's link command makes its own tclens_vN.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi -L >"$out/gpus.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >>"$out/gpus.txt" 2>&1
git apply tests/gpu/results/2026-12-01_h200_session28/trace_variants.patch 2>>"$out/times.txt"
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call2.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
echo "built at $(elapsed) s" >>"$out/times.txt"
obj=kernels/CMakeFiles/tclens_kernels.dir/12_wgmma_stream_k.cu.o
cmd=$(ninja -C build-gpu -t commands tclens | grep -F -- "-o $obj" | head -1)
linkcmd=$(ninja -C build-gpu -t commands tclens | tail -1)
variants="1 4 7 5"
for v in $variants; do
    mkdir -p "$out/v$v"
    vcmd=${cmd//-o $obj/-o $out/v$v/12_wgmma_stream_k.cu.o}
    vcmd=${vcmd//-MF $obj.d/-MF $out/v$v/dep.d}
    (cd build-gpu && eval "${vcmd/ -x cu / -DTCLENS_TRACE_VARIANT=$v -x cu }") >"$out/compile_$v.log" 2>&1 &
done
cmake --build build-gpu --target dispatch_candidates >"$out/build_candidates.log" 2>&1
wait
echo "variants compiled, candidates built at $(elapsed) s" >>"$out/times.txt"
md5sum build-gpu/$obj "$out"/v?/12_wgmma_stream_k.cu.o >>"$out/times.txt"
for v in $variants; do
    cp build-gpu/kernels/libtclens_kernels.a "$out/v$v/libk.a" &&
        ar r "$out/v$v/libk.a" "$out/v$v/12_wgmma_stream_k.cu.o" &&
        vlink=${linkcmd//kernels\/libtclens_kernels.a/$out\/v$v\/libk.a} &&
        vlink=${vlink//-o bin\/tclens /-o bin\/tclens_v$v } &&
        (cd build-gpu && eval "$vlink") >"$out/link_$v.log" 2>&1
    echo "linked variant $v exit $? at $(elapsed) s" >>"$out/times.txt"
done
build-gpu/bin/tclens --version >"$out/version.txt" 2>&1
CUDA_VISIBLE_DEVICES=0 timeout 150 build-gpu/bin/dispatch_candidates bf16 \
    3000x2000x201 1500x3000x250 5000x1000x300 2500x2500x170 800x4096x333 6000x512x222 4000x1024x150 \
    8000x6002x200 5000x4098x250 3000x3002x180 12000x2050x230 \
    1207x30x94 125x216x90 300x500x100 600x1000x77 900x700x120 2000x600x60 \
    3000x3001x350 7000x1501x400 1200x9001x430 400x6001x345 9000x333x390 \
    300x3001x200 200x4001x170 700x1201x250 1000x1001x290 128x12001x200 \
    11777x11202x222 4006x977x149 1514x15561x252 43x8262x162 \
    >"$out/candidates.md" 2>"$out/candidates.err"
echo "candidates exit $? at $(elapsed) s" >>"$out/times.txt"
# $1: variant, $2: its tclens. Five traces of each case, every block traced; one line per case.
overheads() {
    for size in 3072x3072x3072 64x3072x3072 1344x7104x3200; do
        line="variant $1 | $size |"
        for r in 1 2 3 4 5; do
            CUDA_VISIBLE_DEVICES=0 timeout 30 "$2" trace --kernel wgmma_streamk.bf16 --mnk "$size" \
                --blocks 132 --json "$out/t.json" >/dev/null 2>>"$out/trace.err" &&
                line="$line $(python3 -c 'import json,sys; t=json.load(open(sys.argv[1])); print("%.2f" % (100*(t["kernel_ms"]/t["untraced_ms"]-1)))' "$out/t.json")"
        done
        echo "$line" >>"$out/trace_variants.md"
    done
    echo "variant $1 timed at $(elapsed) s" >>"$out/times.txt"
}
echo "| variant | size | overhead of 5 traces (%) |" >"$out/trace_variants.md"
overheads 0 build-gpu/bin/tclens
for v in $variants; do
    [ "$(elapsed)" -gt 540 ] && { echo "variant $v not run at $(elapsed) s" >>"$out/times.txt"; continue; }
    [ -x "build-gpu/bin/tclens_v$v" ] || { echo "variant $v not linked" >>"$out/times.txt"; continue; }
    overheads "$v" "build-gpu/bin/tclens_v$v"
done
rm -rf "$out"/v? "$out"/t.json
gzip -f "$out"/compile_*.log "$out"/link_*.log "$out/build_candidates.log"
tar -czf "$final/call2.tgz" -C "$out" .
cat "$out/times.txt"; cat "$out/trace_variants.md"; head -c 600 "$out/trace.err"
