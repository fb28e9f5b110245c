#!/usr/bin/env bash
# Measurements of users' kernels, on a GPU server after scripts/gpu_check.sh built
# build-gpu/, into $OUT/user_kernels (or ./gpu-out/user_kernels):
#   1. save -> verified TFLOP/s at 4096^3 bf16 (targets: <= 3 s for an NVRTC kernel, <= 15 s
#      for an nvcc launcher), with compile, load, verify, time and profile apart: `tclens watch
#      --json` on a copy of examples/directive_gemm.cu (NVRTC) and of examples/rung8_copy.cu
#      (nvcc), edited three times after the first version (a comment line appended), so
#      versions 2-4 are saves into a running worker; version 1 includes the worker's start.
#      watch_nvrtc.jsonl, watch_nvcc.jsonl: one JSON object per version (app/cli/watch_versions.h);
#   2. a loaded copy of rung 8 against the built-in rung in the same run (target: within 2 %),
#      three runs of `tclens bench --kernel examples/rung8_copy.cu --kernels mma_cp_async.bf16`
#      at 4096^3 and 8192^3: rung8_copy_N.json;
#   3. the GPU tests of the worker (faulting, hanging, out-of-bounds kernels, examples next to
#      cuBLAS): worker_gpu_tests.log.
# summary.md puts the numbers of 1 and 2 in two tables. Exit 1 when a step failed.
#   scripts/gpu_user_kernels.sh
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-out}/user_kernels
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
tclens=$PWD/build-gpu/bin/tclens
[ -x "$tclens" ] || { echo "gpu_user_kernels: build-gpu/bin/tclens is missing; run scripts/gpu_check.sh first" >&2; exit 3; }
status=0
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    "$tclens" --version
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv
    nvcc --version | tail -2
} >"$out/environment.txt" 2>&1

# 1. watch: copies in examples/ (rung8_copy.cu finds the rung's source relative to its folder),
# removed on exit.
copies=()
trap 'rm -f "${copies[@]}"' EXIT
watch_saves() {  # NAME SOURCE: writes $out/watch_NAME.jsonl
    local name=$1 source=$2 copy=examples/_watch_$1.cu log=$out/watch_$1.jsonl
    copies+=("$copy")
    cp "$source" "$copy"
    "$tclens" watch "$copy" --mnk 4096x4096x4096 --json --stop-after 4 --poll-ms 20 \
        >"$log" 2>"$out/watch_$name.log" &
    local pid=$! version
    for version in 2 3 4; do
        # Wait for the previous version's line (at most 10 minutes), then save an edit.
        for _ in $(seq 6000); do
            [ "$(wc -l <"$log")" -ge $((version - 1)) ] && break
            kill -0 $pid 2>/dev/null || break
            sleep 0.1
        done
        echo "// edit $version at $(date +%s.%N)" >>"$copy"
    done
    wait $pid || { echo "gpu_user_kernels: watch of $source failed (exit $?), see $out/watch_$name.log" >&2; status=1; }
}
watch_saves nvrtc examples/directive_gemm.cu
watch_saves nvcc examples/rung8_copy.cu

# 2. the loaded copy of rung 8 against the rung, three runs.
for run in 1 2 3; do
    "$tclens" bench --kernel examples/rung8_copy.cu --kernels mma_cp_async.bf16 \
        --mnk 4096x4096x4096 --mnk 8192x8192x8192 --runs 200 --no-peak --no-reference --json \
        >"$out/rung8_copy_$run.json" 2>"$out/rung8_copy_$run.log" || status=1
done

# 3. the worker's GPU tests.
ctest --test-dir build-gpu --output-on-failure -R 'gpu\.WorkerOnGpu\.' >"$out/worker_gpu_tests.log" 2>&1 ||
    status=1
tail -3 "$out/worker_gpu_tests.log"

python3 - "$out" >"$out/summary.md" <<'PY' || status=1
import json, os, sys
out = sys.argv[1]
print("# Users' kernels on this GPU\n")
print("## Save -> verified TFLOP/s at 4096^3 (tclens watch)\n")
print("| kernel | version | compile s | load s | verify s | time s | profile s | save -> TFLOP/s s | TFLOP/s | % of cuBLAS |")
print("|---|---|---|---|---|---|---|---|---|---|")
for name, what in (("nvrtc", "directive_gemm.cu (NVRTC)"), ("nvcc", "rung8_copy.cu (nvcc)")):
    path = os.path.join(out, f"watch_{name}.jsonl")
    for line in open(path) if os.path.exists(path) else []:
        v = json.loads(line)
        t = v["times"]
        r = v["result"] or {}
        f = lambda x, s="{:.2f}": "-" if x is None else s.format(x)
        print(f"| {what} | v{v['version']}{'' if v['ok'] else ' (' + v['error'] + ')'} | {f(t['compile_s'])} | {f(t['load_s'])} | "
              f"{f(t['verify_s'])} | {f(t['time_s'])} | {f(t['profile_s'])} | {f(t['save_to_result_s'])} | "
              f"{f(r.get('tflops'), '{:.1f}')} | {f(r.get('pct_of_cublas'), '{:.1f}')} |")
print("\nv1 includes starting the worker; v2-v4 are saves into a running worker.\n")
print("## Loaded copy of rung 8 vs the built-in rung, same run (200 timed runs each)\n")
print("| run | MxNxK | mma_cp_async.bf16 ms | yours.rung8_copy ms | difference |")
print("|---|---|---|---|---|")
for run in (1, 2, 3):
    path = os.path.join(out, f"rung8_copy_{run}.json")
    try:
        rows = json.load(open(path))["results"]
    except (OSError, ValueError, KeyError):
        print(f"| {run} | - | - | - | no result (see rung8_copy_{run}.log) |")
        continue
    sizes = sorted({(r["m"], r["n"], r["k"]) for r in rows})
    for size in sizes:
        by = {r["kernel"]: r for r in rows if (r["m"], r["n"], r["k"]) == size}
        rung, copy = by.get("mma_cp_async.bf16"), by.get("yours.rung8_copy")
        if not rung or not copy or rung["median_ms"] is None or copy["median_ms"] is None:
            print(f"| {run} | {'x'.join(map(str, size))} | - | - | not both timed |")
            continue
        diff = 100 * (copy["median_ms"] / rung["median_ms"] - 1)
        print(f"| {run} | {'x'.join(map(str, size))} | {rung['median_ms']:.4f} | {copy['median_ms']:.4f} | {diff:+.2f} % |")
PY
cat "$out/summary.md"
exit "$status"
