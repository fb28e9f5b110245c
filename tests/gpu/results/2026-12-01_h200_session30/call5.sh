#!/usr/bin/env bash
# Session 30, fifth GPU call, one H200: rung 14's two newer tile rules (few_rows_take_small_tiles_
# unsplit: M <= 64 over K < 1536 on 64 x 64 tiles, deep, where they are no more than the SMs;
# few_rows_tiles_take_one_wave over K < 1536 where 128 x 128 tiles take one round) against the
# rules of call 3, in one call: tclens as built, and tclens_old, the same build with call 3's
# dispatch_rules.cpp (old_dispatch_rules.cpp.txt, uncommitted, as the copy has no .git) compiled
# into a copy of the model library. Both bench rung 14 (each row verified, then timed beside
# same-run cuBLAS) on the 187 sweep shapes (seeds 1-3) the rules move
# (moved_sweep_shapes_call5.txt; call 4's 85 shapes, the rules' fit, among them) and on 63 fresh
# shapes they move (validation_shapes_call5.txt, drawn after the rules were set), in the order
# new, old, old, new; then the GPU tests of rung 14 (every configuration verified, with the rules'
# new sizes) and the presets three times on the new rules. All in $OUT/call5.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
R=tests/gpu/results/2026-12-01_h200_session30
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens gpu_tests" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call5.tgz" -C "$out" .; exit 1; }
rm -f "$out/build.log"
[ -s "$out/build.err" ] || rm -f "$out/build.err"
build-gpu/bin/tclens --version >"$out/version.txt" 2>&1
echo "built at $(elapsed) s" >>"$out/times.txt"
obj=kernels/CMakeFiles/tclens_kernels_model.dir/dispatch_rules.cpp.o
old_src=$PWD/$R/old_dispatch_rules.cpp
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
rm -f "$old_src" "$out/old/libm.a"
for b in tclens tclens_old; do
    build-gpu/bin/$b kernels --mnk 2176x496x112 | grep -A1 " dispatch.bf16 " | tail -1 >>"$out/times.txt"
done
mnk() { for s in $(cat "$1"); do printf -- "--mnk %s " "$s"; done; }
for pass in 1 2; do
    order="tclens tclens_old"
    [ $pass = 2 ] && order="tclens_old tclens"
    for b in $order; do
        for set in moved_sweep_shapes_call5 validation_shapes_call5; do
            CUDA_VISIBLE_DEVICES=0 timeout 150 build-gpu/bin/$b bench --kernels dispatch.bf16 $(mnk $R/$set.txt) \
                --runs 20 --warmup 2 --json >"$out/${set}_${b}_$pass.json" 2>"$out/${set}_${b}_$pass.err"
            echo "$set $b pass $pass exit $? at $(elapsed) s" >>"$out/times.txt"
        done
    done
done
CUDA_VISIBLE_DEVICES=0 timeout 200 build-gpu/bin/gpu_tests --gtest_filter='*Dispatch*' >"$out/verify.log" 2>&1
echo "gpu_tests exit $? at $(elapsed) s" >>"$out/times.txt"
for i in 1 2 3; do
    CUDA_VISIBLE_DEVICES=0 timeout 40 build-gpu/bin/tclens bench --kernels dispatch.bf16 \
        --preset square,lab6,llm --runs 20 --warmup 2 --seed "$i" --json >"$out/presets_$i.json" 2>/dev/null
    echo "presets $i exit $? at $(elapsed) s" >>"$out/times.txt"
done
python3 scripts/bench_median.py "$out/presets_median.json" "$out"/presets_[123].json >/dev/null 2>&1
rm -f "$out"/presets_[123].json
gzip "$out"/*.json "$out/verify.log"
tar -czf "$final/call5.tgz" -C "$out" .
cat "$out/times.txt"
zcat "$out/verify.log.gz" | grep -E "^\[  (PASSED|FAILED)|tests ran" | head
python3 $R/old_new.py "$out" moved_sweep_shapes_call5 validation_shapes_call5 | head -60
zcat "$out/presets_median.json.gz" >"$out/p.json" && python3 scripts/bench_table.py --best16 "$out/p.json" 2>&1 | grep -E "x3072x3072|8192x8192|512|1024|2048|4096"; rm -f "$out/p.json"
