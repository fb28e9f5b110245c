#!/usr/bin/env bash
# Behaviour unchanged, measured on a GPU server: builds `tclens` of this tree and of an older
# commit, then runs `tclens bench --runs 50` (every kernel and cuBLAS at 4096^3) alternating old,
# new, old, new in one session and tabulates the four runs (scripts/bench_before_after.py).
# The older commit's source comes as .carry/old_source.tar.gz with its commit in
# .carry/old_commit.txt:
#   git archive --format=tar.gz -o .carry/old_source.tar.gz OLD && git rev-parse OLD >.carry/old_commit.txt
# Header-only libraries and GoogleTest come from .carry/ (scripts/make_carry.sh). Writes to $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-out}
mkdir -p "$out" build-old-src
export PATH=/usr/local/cuda/bin:$PATH
tar -xzf .carry/old_source.tar.gz -C build-old-src
mkdir -p build-old-src/.carry && cp .carry/old_commit.txt build-old-src/.carry/source_commit.txt
configure() {  # source folder, build folder
    cmake -S "$1" -B "$2" -G Ninja -DTCLENS_GUI=OFF -DTCLENS_HEADLESS_GUI=OFF -DTCLENS_TESTS=OFF \
        -DTCLENS_BENCHMARKS=OFF -DTCLENS_EXTRA_INCLUDE="$PWD/.carry/include" \
        -DTCLENS_GTEST_SOURCE="$PWD/.carry/googletest" >/dev/null &&
        cmake --build "$2" --target tclens -j 8 >/dev/null
}
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "old commit: $(cat .carry/old_commit.txt)"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    nvcc --version | tail -1
} >"$out/environment.txt" 2>&1
configure build-old-src build-old >"$out/build_old.log" 2>&1 &
old_build=$!
configure . build-new >"$out/build_new.log" 2>&1 || { tail -30 "$out/build_new.log"; exit 1; }
wait $old_build || { tail -30 "$out/build_old.log"; exit 1; }
build-old/bin/tclens --version >>"$out/environment.txt" 2>&1
build-new/bin/tclens --version >>"$out/environment.txt" 2>&1
for run in 1 2; do
    for side in old new; do
        build-$side/bin/tclens bench --runs 50 --json >"$out/bench_${side}_$run.json" \
            2>"$out/bench_${side}_$run.log" || echo "bench $side $run: exit $?"
    done
done
python3 scripts/bench_before_after.py "$out"/bench_old_{1,2}.json -- "$out"/bench_new_{1,2}.json \
    >"$out/before_after.md"
cat "$out/before_after.md"
