#!/usr/bin/env bash
# After scripts/gpu_check.sh (which builds build-gpu/): links build-gpu/bin/TARGET_NAME, TARGET
# (default tclens) with one source of the tree compiled from another file or with extra flags,
# for a GPU session that times a change against the code before it in one run (the same build,
# the same machine, the same minute):
#   scripts/gpu_variant.sh NAME SOURCE [FILE] [-- FLAG...]
#     NAME    suffix of the binary: build-gpu/bin/${TARGET}_NAME
#     SOURCE  the source as the build names it, e.g. kernels/dispatch_rules.cpp
#     FILE    the text to compile in its place (default SOURCE itself), e.g. the previous
#             version from `git show HEAD~1:SOURCE >old.txt`; the tree's SOURCE is not touched
# FLAG... are added to the build's own compile command (e.g. -DTCLENS_SOME_VARIANT=2). The
# object goes into a copy of the static library that holds SOURCE's object, and TARGET is linked
# with the build's own link command against that copy. Prints what it built; exit 1 when a step
# failed (its log: $OUT/variant_NAME/*.log, OUT default gpu-out). BUILD: the build folder
# (default build-gpu).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
if [ $# -lt 2 ]; then
    echo "usage: scripts/gpu_variant.sh NAME SOURCE [FILE] [-- FLAG...]" >&2
    exit 1
fi
name=$1
source=$2
shift 2
file=$source
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
    file=$1
    shift
fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
flags="$*"
target=${TARGET:-tclens}
build=${BUILD:-build-gpu}
work=${OUT:-gpu-out}/variant_$name
mkdir -p "$work"
work=$(cd "$work" && pwd)
fail() {
    echo "gpu_variant $name: $1" >&2
    exit 1
}
[ -f "$file" ] || fail "no file $file"
[ -d "$build" ] || fail "no $build (run scripts/gpu_check.sh first)"

# The build's compile command for SOURCE, and the object it writes.
compile=$(ninja -C "$build" -t commands "$target" | grep -F -- " -c $PWD/$source" | head -1)
[ -n "$compile" ] || fail "$target compiles no $source"
object=$(sed -E 's/.* -o ([^ ]+).*/\1/' <<<"$compile")
member=$(basename "$object")
library=$(cd "$build" && for a in $(find . -name '*.a'); do
    ar t "$a" 2>/dev/null | grep -qxF "$member" && echo "${a#./}" && break
done)
[ -n "$library" ] || fail "no library of $build holds $member"

# FILE compiled as SOURCE would be: a copy under SOURCE's name in the work folder (the build's
# include paths are rooted at the checkout, so its includes resolve as SOURCE's do).
copy=$work/$(basename "$source")
cp "$file" "$copy"
command=${compile//-o $object/-o $work/$member}
command=${command//-MF $object.d/-MF $work/dep.d}
command=${command// -c $PWD\/$source/ $flags -c $copy}
(cd "$build" && eval "$command") >"$work/compile.log" 2>&1 || fail "compile failed: $work/compile.log"

cp "$build/$library" "$work/$(basename "$library")"
ar r "$work/$(basename "$library")" "$work/$member" || fail "ar failed"
link=$(ninja -C "$build" -t commands "$target" | tail -1)
link=${link// $library / $work/$(basename "$library") }
link=${link//-o bin\/$target /-o bin\/${target}_$name }
(cd "$build" && eval "$link") >"$work/link.log" 2>&1 || fail "link failed: $work/link.log"
rm -f "$work/$(basename "$library")"
echo "built $build/bin/${target}_$name: $source from $file${flags:+ with $flags} in $library"
