#!/usr/bin/env bash
# Session 30, seventh GPU call, one H200 (the session's last device time, so the build is tclens
# alone and a second pass runs only while time is left): rung 14's rule for N <= 64 over K < 1536
# (narrow_tiles_take_one_each: 128 x 64 tiles, one CTA an SM, where 64 x 64 ones outnumber the
# SMs), fitted on call 1's three shapes, against the rules before it (call 6's tree,
# old_dispatch_rules.cpp.txt, uncommitted) on the sweep shapes it moves
# (moved_sweep_shapes_call7.txt) and fresh ones drawn after it was set
# (validation_shapes_call7.txt), as calls 3, 5 and 6 did. All in $OUT/call7.tgz.
set -u
final=${OUT:-gpu-out}
out=$(mktemp -d)
started=$(date +%s)
elapsed() { echo $(($(date +%s) - started)); }
R=tests/gpu/results/2026-12-01_h200_session30
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >"$out/gpus.txt" 2>&1
GPU_CHECK_BUILD_ONLY=1 GPU_CHECK_TARGETS="tclens" OUT=$out scripts/gpu_check.sh >/dev/null 2>"$out/build.err" || {
    tar -czf "$final/call7.tgz" -C "$out" .; exit 1; }
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
    build-gpu/bin/$b kernels --mnk 13497x40x936 | grep -A1 " dispatch.bf16 " | tail -1 >>"$out/times.txt"
done
mnk() { for s in $(cat "$1"); do printf -- "--mnk %s " "$s"; done; }
for pass in 1 2; do
    [ $pass = 2 ] && [ "$(elapsed)" -gt 150 ] && break
    order="tclens tclens_old"
    [ $pass = 2 ] && order="tclens_old tclens"
    for b in $order; do
        for set in moved_sweep_shapes_call7 validation_shapes_call7; do
            CUDA_VISIBLE_DEVICES=0 timeout 30 build-gpu/bin/$b bench --kernels dispatch.bf16 $(mnk $R/$set.txt) \
                --runs 20 --warmup 2 --json >"$out/${set}_${b}_$pass.json" 2>"$out/${set}_${b}_$pass.err"
            echo "$set $b pass $pass exit $? at $(elapsed) s" >>"$out/times.txt"
        done
    done
done
gzip "$out"/*.json
tar -czf "$final/call7.tgz" -C "$out" .
cat "$out/times.txt"
python3 $R/old_new.py "$out" moved_sweep_shapes_call7 validation_shapes_call7 | head -60
