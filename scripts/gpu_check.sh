#!/usr/bin/env bash
# Builds tclens without a window (TCLENS_GUI=OFF, TCLENS_HEADLESS_GUI=ON) on a GPU server without
# Debian packages and runs every non-UI test there, writing logs to $OUT (or ./gpu-out).
# Header-only libraries, GoogleTest sources and Dear ImGui come from .carry/ (made by
# scripts/make_carry.sh on a machine that has them). GPU_CHECK_BUILD_ONLY=1 stops after the build;
# GPU_CHECK_TARGETS="tclens gpu_tests ..." builds only those targets (default: all).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-out}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "commit: $(cmake -D SOURCE_DIR="$PWD" -P cmake/SourceCommit.cmake 2>&1)"
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.memory,memory.total \
        --format=csv
    nvcc --version | tail -2
    cmake --version | head -1
} >"$out/environment.txt" 2>&1

cmake -S . -B build-gpu -G Ninja -DTCLENS_GUI=OFF -DTCLENS_BENCHMARKS=OFF -DTCLENS_EXTRA_INCLUDE="$PWD/.carry/include" \
    -DTCLENS_GTEST_SOURCE="$PWD/.carry/googletest" \
    -DZLIB_INCLUDE_DIR="$PWD/.carry/include" -DZLIB_LIBRARY="$PWD/.carry/zlib/libz.a" \
    -DTCLENS_HEADLESS_GUI=ON -DTCLENS_IMGUI_DIR="$PWD/.carry/imgui" >"$out/build.log" 2>&1 &&
    cmake --build build-gpu ${GPU_CHECK_TARGETS:+--target $GPU_CHECK_TARGETS} >>"$out/build.log" 2>&1 ||
    { tail -40 "$out/build.log"; exit 1; }

[ -n "${GPU_CHECK_BUILD_ONLY:-}" ] && { echo "built build-gpu/ (GPU_CHECK_BUILD_ONLY)"; exit 0; }

# GPU_CHECK_TESTS: a ctest -R regex to run only some tests (default: all but ui). One at a time:
# some unit tests use the GPU where there is one, and two profiling sessions would collide.
TCLENS_RESULTS_DIR="$out" ctest --test-dir build-gpu --output-on-failure -LE ui \
    ${GPU_CHECK_TESTS:+-R "$GPU_CHECK_TESTS"} 2>&1 | tee "$out/ctest.log"
status=${PIPESTATUS[0]}
build-gpu/bin/tclens --version >"$out/version.txt" 2>&1
build-gpu/bin/tclens device --json >"$out/device.json" 2>&1
exit "$status"
