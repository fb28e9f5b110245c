#!/usr/bin/env bash
# Layouts on an sm_90 GPU server: `tclens layout ID --verify` for every layout ID, and the GPU
# tests that show the probes catch wrong models. Writes to $OUT (or ./gpu-out):
#   layout_verify.md    the results table: each ID, its element count (register slots, or
#                       shared-memory tile elements for the wgmma.smem views) and what the GPU
#                       said: "N/N match", "model: needs sm_100" for the tcgen05 models (no sm_90
#                       GPU can run them), or FAILED with the last line tclens printed; then a
#                       summary line.
#   layout_verify.txt   tclens's last line for each ID, and the first 20 mismatches of an ID
#                       that did not match
#   ctest.log           gpu.FragmentProbeOnGpu.*: the probes run against deliberately wrong
#                       models (metadata of another selector, stmatrix address lanes swapped,
#                       a shared-memory view with two elements swapped, ...) and must catch them
#   environment.txt, build.log
# Builds only the targets tclens and gpu_tests in build-gpu/ (configured as scripts/gpu_check.sh
# does, from .carry/ made by scripts/make_carry.sh). Set TCLENS to use another binary and build
# nothing (the catches then run only if build-gpu/bin/gpu_tests exists).
# GPU_LAYOUTS_BUILD_ONLY=1 builds and stops, so a lease can build and verify in two calls.
# Commit $OUT as tests/gpu/results/<date>_h100_atlas/ (tests/gpu/results/README.md).
# Exit 0 when every ID with a probe matches in full and every catch passes, else 1.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-out}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
tclens=${TCLENS:-build-gpu/bin/tclens}

# Without TCLENS: configure build-gpu/ if needed, then bring tclens and gpu_tests up to date
# (a no-op when they are).
if [ -z "${TCLENS:-}" ]; then
    build_start=$(date +%s)
    { [ -f build-gpu/build.ninja ] || cmake -S . -B build-gpu -G Ninja -DTCLENS_GUI=OFF \
        -DTCLENS_BENCHMARKS=OFF -DTCLENS_EXTRA_INCLUDE="$PWD/.carry/include" \
        -DTCLENS_GTEST_SOURCE="$PWD/.carry/googletest" -DTCLENS_HEADLESS_GUI=ON \
        -DTCLENS_IMGUI_DIR="$PWD/.carry/imgui"; } >"$out/build.log" 2>&1 &&
        cmake --build build-gpu --target tclens gpu_tests >>"$out/build.log" 2>&1 ||
        { tail -40 "$out/build.log"; exit 1; }
    echo "build: $(($(date +%s) - build_start)) s" | tee -a "$out/build.log"
fi
[ "${GPU_LAYOUTS_BUILD_ONLY:-0}" = 1 ] && exit 0
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "gpu: ${gpu:-none}"
    "$tclens" --version
} >"$out/environment.txt" 2>&1

start=$(date +%s)
txt="$out/layout_verify.txt"
md="$out/layout_verify.md"
commit=$("$tclens" --version 2>/dev/null | sed -n 's/^commit: //p')
echo "# tclens layout ID --verify on ${gpu:-unknown GPU}, $(date -u +%Y-%m-%d), $commit" >"$txt"
{
    echo "# tclens layout ID --verify on ${gpu:-unknown GPU}, $(date -u +%Y-%m-%d), commit $commit"
    echo
    echo "Written by scripts/gpu_layouts.sh."
    echo
    echo "| ID | elements | result |"
    echo "|---|---:|---|"
} >"$md"
# Element counts of every ID from one `--list --json` (its keys are sorted: "elements" comes
# before "id" in each entry): one "ID COUNT" line each.
counts=$("$tclens" layout --list --json |
    awk -F'[:,]' '/"elements":/ {n = $2 + 0} /"id":/ {gsub(/[ "]/, "", $2); print $2, n}')
matched=0 failed=0 models=0 elements_matched=0
for id in $("$tclens" layout --list); do
    log=$("$tclens" layout "$id" --verify 2>&1)
    code=$?
    echo "$log" | tail -1 | tee -a "$txt"
    elements=$(echo "$counts" | awk -v id="$id" '$1 == id {print $2}')
    summary=$(echo "$log" | grep -o -E '[0-9]+/[0-9]+ elements match' | tail -1)
    if [ $code -eq 0 ] && [ -n "$summary" ]; then
        result="${summary% elements match} match"
        matched=$((matched + 1))
        elements_matched=$((elements_matched + elements))
    elif [ $code -eq 3 ] && echo "$log" | grep -q 'not verified: needs sm_100'; then
        result="model: needs sm_100"
        models=$((models + 1))
    else
        result="FAILED: $(echo "$log" | tail -1)"
        failed=$((failed + 1))
        echo "$log" | grep '^mismatch' | head -20 | sed 's/^/    /' >>"$txt"
    fi
    echo "| \`$id\` | $elements | $result |" >>"$md"
done
seconds=$(($(date +%s) - start))
{
    echo
    echo "$matched IDs match in full ($elements_matched elements), $failed do not," \
        "$models are tcgen05 models (not run); ${seconds} s."
} | tee -a "$md" >>"$txt"
tail -1 "$md"

catches=0
if [ -x build-gpu/bin/gpu_tests ]; then
    ctest --test-dir build-gpu --output-on-failure -R '^gpu\.FragmentProbeOnGpu\.' 2>&1 |
        tee "$out/ctest.log" | tail -3
    catches=${PIPESTATUS[0]}
    # On an sm_90 GPU all six run; a skip here would be a vacuous pass.
    if grep -q '(Skipped)' "$out/ctest.log"; then
        echo "some catches were skipped: see $out/ctest.log"
        catches=1
    fi
else
    echo "no build-gpu/bin/gpu_tests: the catches did not run" | tee "$out/ctest.log"
fi
[ "$failed" -eq 0 ] && [ "$catches" -eq 0 ]
