#!/usr/bin/env bash
# tclens set-up in one step: installs the Debian packages that are missing, configures and builds
# into build/, then either starts the app or runs every test.
#   scripts/dev.sh app [tclens args...]   build, then run build/bin/tclens
#   scripts/dev.sh test                   build the app and the GPU tests into build/ and run
#                                         those and the format check; build the unit and ui tests
#                                         with ASan + UBSan into build-asan/ and run them; then
#                                         fuzz every parser 10 s (scripts/fuzz.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: scripts/dev.sh app [tclens args...] | scripts/dev.sh test" >&2; exit 2; }
[ $# -ge 1 ] || usage
mode=$1
shift
case "$mode" in app | test) ;; *) usage ;; esac

packages=(cmake ninja-build pkg-config g++ libimgui-dev libglfw3-dev libgl-dev libgl1-mesa-dri
          libglx-mesa0 nlohmann-json3-dev libcli11-dev libstb-dev libgtest-dev libbenchmark-dev
          xvfb xauth fonts-dejavu-core clang libclang-rt-dev lld clang-format
          librsvg2-bin help2man dpkg-dev file)  # the last four: the icon, man page and .deb
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
        missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "tclens: installing ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v nvcc >/dev/null; then
    if [ -x /usr/local/cuda/bin/nvcc ]; then
        export PATH=/usr/local/cuda/bin:$PATH
    else
        echo "tclens: the CUDA toolkit (nvcc) is not installed; install CUDA 13 from NVIDIA" >&2
        exit 3
    fi
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
if [ "$mode" = app ]; then
    cmake --build build
    exec build/bin/tclens "$@"
fi

# Each test binary is built and run once: the GPU tests (skipped without a GPU) and the format
# check and the package test here, as the app ships (target release_checks: tclens, the GPU
# tests, the package test, the benchmarks);
# the unit and ui tests below, under the sanitizers.
echo "== tclens: GPU and format tests (build/) =="
cmake --build build --target release_checks
# (The unit and ui binaries are not built here: ctest lists each as <binary>_NOT_BUILT.)
ctest --test-dir build --output-on-failure -j "$(nproc)" -LE '^(unit|ui)$' -E '_NOT_BUILT$'

# ASan + UBSan (UB aborts) over tclens's own C++, the tclens binary the tests start included
# (TCLENS_SANITIZE, CMakeLists.txt; target cpu_tests: the GPU-only test binary is not built). The
# tests' own code links the runtime but is not instrumented (tests/CMakeLists.txt). The C++ is
# built -O1 -g1, as the sanitizers' authors advise, and line tables are all a report's stack
# needs. nvcc's code (device code and the .cu files' host code) is built as usual, for sm_90a
# only: no test here runs it.
# Reports go to files, so a report from a child process (the tests run build-asan/bin/tclens)
# fails the step even where the test expected a failing exit code. protect_shadow_gap=0 lets
# the CUDA driver map its memory where it wants on a machine with a GPU.
echo "== tclens: ASan + UBSan build and unit/ui tests (build-asan/) =="
started=$SECONDS
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTCLENS_BENCHMARKS=OFF \
      -DCMAKE_CUDA_ARCHITECTURES=90a-real -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
      -DTCLENS_SANITIZE=address,undefined >/dev/null
cmake --build build-asan --target cpu_tests
reports=$PWD/build-asan/sanitizer-reports
rm -rf "$reports" && mkdir -p "$reports"
status=0
# The ui tests run with leak detection off: Mesa's OpenGL driver keeps allocations in libraries
# it unloads at exit, which LeakSanitizer reports as leaks from "<unknown module>" that no
# suppression can name. Address and undefined-behaviour checks stay on for them.
UBSAN_OPTIONS="print_stacktrace=1:log_path=$reports/ubsan" \
ASAN_OPTIONS="protect_shadow_gap=0:log_path=$reports/asan" \
    ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -L '^unit$' || status=1
UBSAN_OPTIONS="print_stacktrace=1:log_path=$reports/ubsan" \
ASAN_OPTIONS="protect_shadow_gap=0:detect_leaks=0:log_path=$reports/asan" \
    ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -L '^ui$' || status=1
if [ -n "$(ls -A "$reports")" ]; then
    cat "$reports"/* >&2
    echo "tclens: ASan/UBSan reported the errors above (files in $reports)" >&2
    status=1
fi
[ $status -eq 0 ] || exit 1
echo "tclens: ASan + UBSan step passed in $((SECONDS - started)) s"

# 10 s per harness after replaying its committed seeds: the whole test command stays within CI's
# 45 minutes (longer runs, 30 s and 600 s per harness, are committed under tests/fuzz/results/).
echo "== tclens: fuzzing, 10 s per harness (scripts/fuzz.sh) =="
started=$SECONDS
scripts/fuzz.sh 10
echo "tclens: fuzzing step passed in $((SECONDS - started)) s"
