#!/usr/bin/env bash
# Session 29, fifth GPU call, one H200: rung 9's 64-row tiles (64 x 128, 64 x 64 in 6 and 12
# stages) warp-specialised, a producer warpgroup and one consumer warpgroup releasing slots
# through empty barriers (09_wgmma_tma.cu, WgmmaTmaConfig's WarpSpecialized), against the
# committed single warpgroup (call 4's profile: issue-latency bound, 11.6 % issue slots busy,
# DRAM 22.6 %, L2 34.2 %). The variant is 09_wgmma_tma.cu compiled with the build's command and
# -DTCLENS_RUNG9_SMALL_WS=1 into a copy of the kernels library, linked into its own
# dispatch_candidates_ws and tclens_ws. dispatch_candidates (every row verified before timing)
# on both, then the presets three times on both. Ran at 7c98360 (ws_variant.patch: the variant's
# code, reverted after). All in $OUT/call5.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens dispatch_candidates" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call5.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
echo "built at $(elapsed) s" >>"$out/times.txt"
obj=kernels/CMakeFiles/tclens_kernels.dir/09_wgmma_tma.cu.o
cmd=$(ninja -C build-gpu -t commands tclens | grep -F -- "-o $obj" | head -1)
mkdir -p "$out/ws"
vcmd=${cmd//-o $obj/-o $out/ws/09_wgmma_tma.cu.o}
vcmd=${vcmd//-MF $obj.d/-MF $out/ws/dep.d}
(cd build-gpu && eval "${vcmd/ -x cu / -DTCLENS_RUNG9_SMALL_WS=1 -x cu }") >"$out/compile_ws.log" 2>&1
echo "variant compiled exit $? at $(elapsed) s" >>"$out/times.txt"
cp build-gpu/kernels/libtclens_kernels.a "$out/ws/libk.a" && ar r "$out/ws/libk.a" "$out/ws/09_wgmma_tma.cu.o"
for target in tclens dispatch_candidates; do
    link=$(ninja -C build-gpu -t commands $target | tail -1)
    link=${link//kernels\/libtclens_kernels.a/$out\/ws\/libk.a}
    link=${link//-o bin\/$target /-o bin\/${target}_ws }
    (cd build-gpu && eval "$link") >"$out/link_$target.log" 2>&1
    echo "linked ${target}_ws exit $? at $(elapsed) s" >>"$out/times.txt"
done
md5sum build-gpu/$obj "$out/ws/09_wgmma_tma.cu.o" build-gpu/bin/dispatch_candidates build-gpu/bin/dispatch_candidates_ws >>"$out/times.txt"
build-gpu/bin/tclens --version >"$out/version.txt" 2>&1
shapes="64x3072x3072 128x3072x3072 256x3072x3072 512x3072x3072 16x3072x3072 32x3072x3072
    16x8192x8192 128x8192x8192 1024x1024x1024 512x512x512 48x2048x4096 200x200x3000
    400x4352x1280 2016x496x112 64x1000x512 1792x576x832"
for v in "" _ws; do
    CUDA_VISIBLE_DEVICES=0 timeout 100 stdbuf -oL build-gpu/bin/dispatch_candidates$v bf16 $shapes \
        >"$out/candidates$v.md" 2>"$out/candidates$v.err"
    echo "candidates$v exit $? at $(elapsed) s" >>"$out/times.txt"
done
for i in 1 2 3; do
    for v in "" _ws; do
        CUDA_VISIBLE_DEVICES=0 timeout 40 build-gpu/bin/tclens$v bench --kernels dispatch.bf16 \
            --preset square,lab6,llm --runs 20 --warmup 2 --seed "$i" --json >"$out/presets${v}_$i.json" 2>/dev/null
        echo "presets$v $i exit $? at $(elapsed) s" >>"$out/times.txt"
    done
done
for v in "" _ws; do
    python3 scripts/bench_median.py "$out/presets${v}_median.json" "$out"/presets${v}_[123].json >/dev/null 2>&1
done
tar -czf "$final/call5.tgz" -C "$out" .
cat "$out/times.txt"
python3 - "$out" <<'PY'
import sys, os
def table(path):
    rows = {}
    for line in open(path):
        f = [x.strip() for x in line.strip().strip("|").split("|")]
        if len(f) < 4 or f[0] in ("shape", "---") or f[3] in ("-", ""):
            continue
        rows[(f[0], f[1][:60] if f[1].startswith("rung 14") else f[1])] = float(f[3])
    return rows
base = table(os.path.join(sys.argv[1], "candidates.md"))
ws = table(os.path.join(sys.argv[1], "candidates_ws.md"))
shapes = []
for s, _ in base:
    if s not in shapes: shapes.append(s)
for s in shapes:
    keys = [k for k in base if k[0] == s and (" 64x" in k[1] or k[1].startswith("rung 14"))]
    best_b = max((base[k], k[1]) for k in base if k[0] == s and k[1] != "cuBLAS")
    best_w = max((ws.get(k, 0), k[1]) for k in base if k[0] == s and k[1] != "cuBLAS")
    print(s, "best %s %.1f -> %s %.1f" % (best_b[1][:40], best_b[0], best_w[1][:40], best_w[0]))
    print("   ", "; ".join("%s %.0f->%.0f" % (k[1][6:] if not k[1].startswith("rung 14") else "r14", base[k], ws.get(k, 0)) for k in keys[:14]))
PY
for v in "" _ws; do python3 scripts/bench_table.py --best16 "$out/presets${v}_median.json" 2>&1 | grep -E "x3072x3072|8192x8192|512|1024"; done
