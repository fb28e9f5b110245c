#!/usr/bin/env bash
# tclens set-up in one step: installs the Debian packages that are missing, configures and builds
# into build/, then either starts the app or runs every test.
#   scripts/dev.sh app [tclens args...]   build, then run build/bin/tclens
#   scripts/dev.sh test                   build, then run all tests through ctest
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: scripts/dev.sh app [tclens args...] | scripts/dev.sh test" >&2; exit 2; }
[ $# -ge 1 ] || usage
mode=$1
shift
case "$mode" in app | test) ;; *) usage ;; esac

packages=(cmake ninja-build pkg-config g++ libimgui-dev libglfw3-dev libgl-dev libgl1-mesa-dri
          libglx-mesa0 nlohmann-json3-dev libcli11-dev libstb-dev libgtest-dev libbenchmark-dev
          xvfb xauth)
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
cmake --build build

if [ "$mode" = app ]; then
    exec build/bin/tclens "$@"
fi
ctest --test-dir build --output-on-failure -j "$(nproc)"
