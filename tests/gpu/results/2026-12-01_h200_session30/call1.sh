#!/usr/bin/env bash
# Session 30, first GPU call, one H200: rung 9's kernel with two (and, in its 64 x 64 tiles,
# three) consumer warpgroups splitting each CTA's K tiles between them (09_wgmma_tma.cu,
# WgmmaTmaConfig's Consumers; summed through shared memory at the end), against the one
# warpgroup of the committed tree, on the preset shapes rung 14 loses (lab 6 M = 64-512, 1024^3,
# llm M = 16 / 128) and 39 sweep shapes under 0.85x whose choice runs rung 9's kernel. The
# variants are 09_wgmma_tma.cu compiled with the build's command and -DTCLENS_RUNG9_PAIRED=2 / 3
# into copies of the kernels library, linked into their own dispatch_candidates_p2/_p3 and
# tclens_p2/_p3. dispatch_candidates (every row verified before timing) on all three, then the
# presets three times on the base and p2. All in $OUT/call1.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens dispatch_candidates" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call1.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
echo "built at $(elapsed) s" >>"$out/times.txt"
obj=kernels/CMakeFiles/tclens_kernels.dir/09_wgmma_tma.cu.o
cmd=$(ninja -C build-gpu -t commands tclens | grep -F -- "-o $obj" | head -1)
for v in 2 3; do
    mkdir -p "$out/p$v"
    vcmd=${cmd//-o $obj/-o $out/p$v/09_wgmma_tma.cu.o}
    vcmd=${vcmd//-MF $obj.d/-MF $out/p$v/dep.d}
    (cd build-gpu && eval "${vcmd/ -x cu / -DTCLENS_RUNG9_PAIRED=$v -x cu }") >"$out/compile_p$v.log" 2>&1
    echo "variant p$v compiled exit $? at $(elapsed) s" >>"$out/times.txt"
    cp build-gpu/kernels/libtclens_kernels.a "$out/p$v/libk.a" && ar r "$out/p$v/libk.a" "$out/p$v/09_wgmma_tma.cu.o"
    for target in tclens dispatch_candidates; do
        link=$(ninja -C build-gpu -t commands $target | tail -1)
        link=${link//kernels\/libtclens_kernels.a/$out\/p$v\/libk.a}
        link=${link//-o bin\/$target /-o bin\/${target}_p$v }
        (cd build-gpu && eval "$link") >"$out/link_${target}_p$v.log" 2>&1
        echo "linked ${target}_p$v exit $? at $(elapsed) s" >>"$out/times.txt"
    done
done
md5sum build-gpu/$obj "$out"/p*/09_wgmma_tma.cu.o build-gpu/bin/dispatch_candidates* >>"$out/times.txt"
build-gpu/bin/tclens --version >"$out/version.txt" 2>&1
shapes="16x3072x3072 32x3072x3072 64x3072x3072 128x3072x3072 256x3072x3072 512x3072x3072
    1024x3072x3072 512x512x512 1024x1024x1024 2048x2048x2048 16x8192x8192 128x8192x8192
    144x5936x13776 224x4192x4496 13497x40x936 400x4352x1280 64x1000x512
    9296x272x14672 160x3488x2000 1337x36x76 1408x384x1792 624x1904x2192 2944x128x2368
    3696x256x1936 864x384x2192 1152x128x1600 2416x160x4784 11056x80x2992 368x128x2256
    64x3968x1664 768x192x2624 320x64x13568 16x5136x816 13701x4594x132 77x3526x10805 80x7152x560
    624x304x1984 384x128x8064 80x6976x608 32x6368x1184 9216x128x8384 192x5952x2688 3776x320x192
    3584x64x3584 320x64x12160 15456x32x384 128x8704x2880 384x384x2688 48x5488x3104 192x3072x2816
    336x1696x3072 960x64x2112 12368x32x1216 11520x128x4864 3456x304x16 640x6384x608"
for v in "" _p2 _p3; do
    CUDA_VISIBLE_DEVICES=0 timeout 150 stdbuf -oL build-gpu/bin/dispatch_candidates$v bf16 $shapes \
        >"$out/candidates$v.md" 2>"$out/candidates$v.err"
    echo "candidates$v exit $? at $(elapsed) s" >>"$out/times.txt"
done
for i in 1 2 3; do
    for v in "" _p2; do
        CUDA_VISIBLE_DEVICES=0 timeout 40 build-gpu/bin/tclens$v bench --kernels dispatch.bf16 \
            --preset square,lab6,llm --runs 20 --warmup 2 --seed "$i" --json >"$out/presets${v}_$i.json" 2>/dev/null
        echo "presets$v $i exit $? at $(elapsed) s" >>"$out/times.txt"
    done
done
for v in "" _p2; do
    python3 scripts/bench_median.py "$out/presets${v}_median.json" "$out"/presets${v}_[123].json >/dev/null 2>&1
    rm -f "$out"/presets${v}_[123].json
done
gzip "$out"/*.md
tar -czf "$final/call1.tgz" -C "$out" .
cat "$out/times.txt" | grep -v "^[0-9a-f]\{32\} "
python3 tests/gpu/results/2026-12-01_h200_session30/compare.py "$out" 2>&1 | head -150
for v in "" _p2; do python3 scripts/bench_table.py --best16 "$out/presets${v}_median.json" 2>&1 | grep -E "x3072x3072|8192x8192|512|1024"; done
