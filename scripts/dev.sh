#!/usr/bin/env bash
# tclens set-up in one step: installs the Debian packages that are missing, configures and builds
# into build/, then either starts the app or runs every test.
#   scripts/dev.sh app [tclens args...]   build, then run build/bin/tclens
#   scripts/dev.sh test                   build the client without CUDA into build-client/ and
#                                         check it; build the app, the ui, end-to-end and GPU
#                                         tests into build/ and run those, the package test and
#                                         the format check; build the unit tests with the app under ASan +
#                                         UBSan into build-asan/ and run them; then fuzz every
#                                         parser 10 s (scripts/fuzz.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: scripts/dev.sh app [tclens args...] | scripts/dev.sh test" >&2; exit 2; }
[ $# -ge 1 ] || usage
mode=$1
shift
case "$mode" in app | test) ;; *) usage ;; esac

packages=(cmake ninja-build pkg-config g++ zlib1g-dev libimgui-dev libglfw3-dev libgl-dev libgl1-mesa-dri
          libglx-mesa0 nlohmann-json3-dev libcli11-dev libstb-dev libgtest-dev libbenchmark-dev
          xvfb xauth fonts-dejavu-core clang libclang-rt-dev lld clang-format
          librsvg2-bin help2man dpkg-dev file   # these four: the icon, man page and .deb
          openssh-server openssh-client          # the --remote tests' sshd on 127.0.0.1
          slurm-wlm munge)                       # the srun tests' single-node Slurm
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

if [ "$mode" = app ]; then
    cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build build
    exec build/bin/tclens "$@"
fi

# First the client without CUDA (TCLENS_CLIENT_ONLY), configured and built with no CUDA toolkit
# on PATH: the proof that the GUI and the CLI build without one; scripts/check_client_build.sh
# then checks that its tclens maps no CUDA library and sends GPU work to a worker elsewhere. The
# full build below links the client's libraries from it (TCLENS_CLIENT_PREBUILT) rather than
# compiling them again.
echo "== tclens: the client without CUDA (build-client/) =="
started=$SECONDS
no_cuda_path=$(tr ':' '\n' <<<"$PATH" | grep -v cuda | paste -sd:)
env -u CUDACXX PATH="$no_cuda_path" cmake -S . -B build-client -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTCLENS_CLIENT_ONLY=ON >/dev/null
env -u CUDACXX PATH="$no_cuda_path" cmake --build build-client --target tclens
scripts/check_client_build.sh build-client
echo "tclens: client step passed in $((SECONDS - started)) s"

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DTCLENS_CLIENT_PREBUILT="$PWD/build-client" >/dev/null

# Each test binary is built and run once, in one of two trees (tests/CMakeLists.txt). Here, as
# the app ships (target release_checks): tclens, the ui tests (the real window under Xvfb), the
# end-to-end tests (tclens as a process: the CLI, the worker through a pipe, ssh and srun), the
# GPU tests (skipped without a GPU), the package test, the benchmarks and the format check.
# ctest starts the tests it knows to be long first (Testing/Temporary/CTestCostData.txt). A fresh
# tree knows none: its 35 s ui test started last and ran alone at the end (session 22). Where a
# tree has no costs of its own, seed those of the tests that took 3 s or more in a fresh-clone
# run (tests/ctest_costs.txt, "name runs seconds" as ctest writes them; a test it lacks just
# starts in its turn).
seed_test_costs() {
    local costs="$1/Testing/Temporary/CTestCostData.txt"
    [ -e "$costs" ] && return 0
    mkdir -p "$(dirname "$costs")"
    { cat tests/ctest_costs.txt; echo "---"; } >"$costs"
}

echo "== tclens: ui, end-to-end, GPU, package and format tests (build/) =="
started=$SECONDS
cmake --build build --target release_checks
# (The unit test binaries are not built here: ctest lists each as <binary>_NOT_BUILT.)
# One test more than cores: a ui test waits on its X server part of the time (measured on 2
# cores: 153 s with 3 at a time, 172 s with 2, 175 s with 4).
seed_test_costs build
ctest --test-dir build --output-on-failure -j "$(($(nproc) + 1))" -LE '^unit$' -E '_NOT_BUILT$'
echo "tclens: release step passed in $((SECONDS - started)) s"

# The unit tests with ASan + UBSan (UB aborts) over the app, the tclens worker they start
# included (target sanitized_tests): app/, kernels/user/ and common/ are compiled with them
# (TCLENS_SANITIZE, CMakeLists.txt); viz, kernels and profiling are linked as build/ built them
# (TCLENS_PREBUILT, cmake/PrebuiltLayers.cmake), their parsers sanitized by the fuzz step below;
# the tests' own code links the runtime but is not instrumented (tests/CMakeLists.txt). -O0 -g1:
# measured on 2 cores, -O0 compiles this tree in 224 s where -O1 takes 384 s, and the tests run
# 220 s where they run 193 s; line tables are all a report's stack needs.
# Reports go to files, so a report from a child process (the tests run build-asan/bin/tclens)
# fails the step even where the test expected a failing exit code. protect_shadow_gap=0 lets
# the CUDA driver map its memory where it wants on a machine with a GPU.
echo "== tclens: ASan + UBSan build and unit tests (build-asan/) =="
started=$SECONDS
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTCLENS_BENCHMARKS=OFF \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -g1 -DNDEBUG" -DTCLENS_SANITIZE=address,undefined \
      -DTCLENS_PREBUILT="$PWD/build" >/dev/null
cmake --build build-asan --target sanitized_tests
seed_test_costs build-asan
reports=$PWD/build-asan/sanitizer-reports
rm -rf "$reports" && mkdir -p "$reports"
status=0
UBSAN_OPTIONS="print_stacktrace=1:log_path=$reports/ubsan" \
ASAN_OPTIONS="protect_shadow_gap=0:log_path=$reports/asan" \
    ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -L '^unit$' || status=1
if [ -n "$(ls -A "$reports")" ]; then
    cat "$reports"/* >&2
    echo "tclens: ASan/UBSan reported the errors above (files in $reports)" >&2
    status=1
fi
[ $status -eq 0 ] || exit 1
echo "tclens: ASan + UBSan step passed in $((SECONDS - started)) s"

# 10 s per harness after replaying its committed seeds (longer runs, 60 s and 600 s per harness,
# are committed under tests/fuzz/results/).
echo "== tclens: fuzzing, 10 s per harness (scripts/fuzz.sh) =="
started=$SECONDS
scripts/fuzz.sh 10
echo "tclens: fuzzing step passed in $((SECONDS - started)) s"
echo "tclens: every test step passed in $SECONDS s"
