#!/usr/bin/env bash
# Checks a client built without CUDA (TCLENS_CLIENT_ONLY; scripts/dev.sh test builds it into
# build-client/ with no CUDA toolkit on PATH): its tclens needs no CUDA library (ldd, and the
# NEEDED entries readelf lists), names none in its text, draws what needs no GPU and opens the
# shipped recordings, and sends every GPU job to a worker elsewhere, each refused here in one line
# with exit 3.
#   scripts/check_client_build.sh <client build folder>
# Exit 0 when every check holds, 1 with a line per failure, 77 (skipped) without that build.
set -uo pipefail
build=${1:?usage: scripts/check_client_build.sh <client build folder>}
tclens=$build/bin/tclens
if [ ! -x "$tclens" ]; then
    echo "skipped: no client build at $build (scripts/dev.sh test makes one)"
    exit 77
fi
failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}
gpu_libraries='libcuda\.|libcudart|libcupti|libcublas|libnvrtc|libnvidia'

linked=$(ldd "$tclens" 2>&1)
if grep -Eq "$gpu_libraries" <<<"$linked"; then
    fail "ldd lists a CUDA library: $(grep -E "$gpu_libraries" <<<"$linked" | tr '\n' ' ')"
fi
needed=$(readelf -d "$tclens" | grep NEEDED)
if grep -Eq "$gpu_libraries" <<<"$needed"; then
    fail "readelf lists a CUDA library as NEEDED: $(grep -E "$gpu_libraries" <<<"$needed")"
fi
# A library loaded by name at run time (dlopen) would not show in ldd.
if grep -aEq 'libcublas\.so|libcudart\.so|libcupti\.so|libnvrtc\.so|libcuda\.so' "$tclens"; then
    fail "the binary names a CUDA library it could load at run time"
fi

# What needs no GPU works as in the full build.
"$tclens" kernels >/dev/null || fail "tclens kernels exited $?"
"$tclens" layout mma.m16n8k16.f16 >/dev/null || fail "tclens layout exited $?"
"$tclens" banks --list >/dev/null || fail "tclens banks --list exited $?"
# It opens the shipped recordings by itself.
recording="$(dirname "$0")/../assets/recordings/h200.json.gz"
"$tclens" compare "$recording" >/dev/null || fail "tclens compare $recording exited $?"

# GPU work without a worker elsewhere: one line naming the host and why, exit 3.
expect_no_gpu() {
    local err code
    err=$("$@" 2>&1 >/dev/null)
    code=$?
    [ "$code" -eq 3 ] || fail "$*: exit $code, not 3 ($err)"
    [ "$(wc -l <<<"$err")" -eq 1 ] || fail "$*: not one line: $err"
    grep -q "no GPU on .*client built without CUDA" <<<"$err" || fail "$*: the line does not say why: $err"
}
expect_no_gpu "$tclens" bench --kernels naive_fma.f32 --mnk 64x64x64
expect_no_gpu "$tclens" profile --kernel wmma.f16
"$tclens" device | grep -q "client built without CUDA" || fail "tclens device does not say why there is no GPU"
expect_no_gpu "$tclens" layout mma.m16n8k16.f16 --verify
expect_no_gpu "$tclens" banks --pattern ldmatrix.x4 --swizzle xor --measure

# Its `tclens worker` speaks the protocol as a worker without a GPU: a hello names no device.
hello=$(echo '{"id":1,"type":"hello","protocol":2}' | "$tclens" worker 2>&1)
grep -q '"devices":\[\]' <<<"$hello" && grep -q 'client built without CUDA' <<<"$hello" ||
    fail "tclens worker: its hello should name no device and say why: $hello"

[ "$failures" -eq 0 ] && echo "client build $build: no CUDA library, GPU work refused in one line"
[ "$failures" -eq 0 ]
