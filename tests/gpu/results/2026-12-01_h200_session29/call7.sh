#!/usr/bin/env bash
# Session 29, seventh GPU call, one H200: rung 14's new tile rules (tile_by_rows,
# full_rows_take_small_tiles) against session 28's on the same GPU in the same call: tclens as
# built, and tclens_old, the same build with dispatch_rules.cpp of the commit before the rules
# (git show 49b5917; old_dispatch_rules.cpp.txt, uncommitted, where the copy has no .git) compiled by the build's command into a copy of the model library. Both bench
# rung 14 (each row verified, then timed beside same-run cuBLAS) on the 22 sweep shapes (seeds 1-3)
# the rules move (moved_sweep_shapes.txt) and 26 fresh shapes drawn after the rules were set
# (validation_shapes.txt: M of 33-64 over 16-24 tiles of 64 x 128; M of 129-192 and of 193-256
# over K >= 8192, each moved by the rules); then the presets three times on the new rules.
# All in $OUT/call7.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
R=tests/gpu/results/2026-12-01_h200_session29
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call7.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
build-gpu/bin/tclens --version >"$out/version.txt" 2>&1
echo "built at $(elapsed) s" >>"$out/times.txt"
obj=kernels/CMakeFiles/tclens_kernels_model.dir/dispatch_rules.cpp.o
old_src=$PWD/$R/old_dispatch_rules.cpp
git show 49b5917:kernels/dispatch_rules.cpp >"$old_src" 2>/dev/null ||
    cp "$R/old_dispatch_rules.cpp.txt" "$old_src"
cmd=$(ninja -C build-gpu -t commands tclens | grep -F -- "-o $obj" | head -1)
mkdir -p "$out/old"
ocmd=${cmd//-o $obj/-o $out/old/dispatch_rules.cpp.o}
ocmd=${ocmd//-MF $obj.d/-MF $out/old/dep.d}
ocmd=${ocmd/-c *dispatch_rules.cpp/-c $old_src}
(cd build-gpu && eval "$ocmd") >"$out/compile_old.log" 2>&1
cp build-gpu/kernels/libtclens_kernels_model.a "$out/old/libm.a" && ar r "$out/old/libm.a" "$out/old/dispatch_rules.cpp.o"
link=$(ninja -C build-gpu -t commands tclens | tail -1)
link=${link//kernels\/libtclens_kernels_model.a/$out\/old\/libm.a}
link=${link//-o bin\/tclens /-o bin\/tclens_old }
(cd build-gpu && eval "$link") >"$out/link_old.log" 2>&1
echo "old linked exit $? at $(elapsed) s" >>"$out/times.txt"
rm -f "$old_src"
for b in tclens tclens_old; do
    build-gpu/bin/$b kernels --mnk 144x5936x13776 | grep -A1 " dispatch.bf16 " | tail -1 >>"$out/times.txt"
done
mnk() { for s in $(cat "$1"); do printf -- "--mnk %s " "$s"; done; }
for set in moved_sweep_shapes validation_shapes; do
    for b in tclens tclens_old; do
        CUDA_VISIBLE_DEVICES=0 timeout 60 build-gpu/bin/$b bench --kernels dispatch.bf16 $(mnk $R/$set.txt) \
            --runs 20 --warmup 2 --json >"$out/${set}_$b.json" 2>"$out/${set}_$b.err"
        echo "$set $b exit $? at $(elapsed) s" >>"$out/times.txt"
    done
done
for i in 1 2 3; do
    CUDA_VISIBLE_DEVICES=0 timeout 40 build-gpu/bin/tclens bench --kernels dispatch.bf16 \
        --preset square,lab6,llm --runs 20 --warmup 2 --seed "$i" --json >"$out/presets_$i.json" 2>/dev/null
    echo "presets $i exit $? at $(elapsed) s" >>"$out/times.txt"
done
python3 scripts/bench_median.py "$out/presets_median.json" "$out"/presets_[123].json >/dev/null 2>&1
tar -czf "$final/call7.tgz" -C "$out" .
cat "$out/times.txt"
python3 - "$out" <<'PY'
import json, math, os, sys
for set in ("moved_sweep_shapes", "validation_shapes"):
    r = {}
    for b in ("tclens", "tclens_old"):
        try:
            rows = json.load(open(os.path.join(sys.argv[1], f"{set}_{b}.json")))["results"]
        except Exception as e:
            print(set, b, "no json", e); continue
        r[b] = {(x["m"], x["n"], x["k"]): x["pct_of_cublas"] / 100 for x in rows
                if x["kernel"] == "dispatch.bf16" and x.get("verified") and x.get("pct_of_cublas")}
    if len(r) < 2: continue
    both = [s for s in r["tclens"] if s in r["tclens_old"]]
    g = lambda d: math.exp(sum(math.log(d[s]) for s in both) / len(both))
    print(set, len(both), "old %.3f new %.3f" % (g(r["tclens_old"]), g(r["tclens"])),
          "min old %.3f new %.3f" % (min(r["tclens_old"][s] for s in both), min(r["tclens"][s] for s in both)))
    print("  ", " ".join("%dx%dx%d %.2f->%.2f" % (s + (r["tclens_old"][s], r["tclens"][s])) for s in both))
PY
python3 scripts/bench_table.py --best16 "$out/presets_median.json" 2>&1 | grep -E "x3072x3072|8192x8192"
