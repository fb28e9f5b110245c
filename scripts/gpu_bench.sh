#!/usr/bin/env bash
# After scripts/gpu_check.sh: `tclens bench ARGS` on the GPU server, into $OUT (or ./gpu-out):
# bench.json (everything), bench.txt (the table) and bench_environment.txt (GPU, driver,
# toolkit, clocks before and after). Example: scripts/gpu_bench.sh --preset square
# REPEAT=N (N >= 2) runs the command N times, with --seed 1..N (fresh inputs each time), into
# bench_run1.json ... and writes bench.json as their median (scripts/bench_median.py).
set -uo pipefail
cd "$(dirname "$0")/.."
repeat=${REPEAT:-1}
if ! [[ "$repeat" =~ ^[1-9][0-9]?$ ]]; then
    echo "gpu_bench: REPEAT '$repeat' is not a whole number from 1 to 99" >&2
    exit 2
fi
out=${OUT:-gpu-out}
mkdir -p "$out"
tclens=build-gpu/bin/tclens
clocks() {
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu \
        --format=csv
}
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "command: tclens bench $* (REPEAT=${REPEAT:-1})"
    $tclens --version
    echo "before:"
    clocks
} >"$out/bench_environment.txt" 2>&1
if [ "$repeat" -eq 1 ]; then
    $tclens bench "$@" --json >"$out/bench.json" 2>"$out/bench_progress.log"
    status=$?
else
    status=0
    runs=()
    for i in $(seq 1 "$repeat"); do
        $tclens bench "$@" --seed "$i" --json >"$out/bench_run$i.json" 2>>"$out/bench_progress.log" ||
            status=$?
        runs+=("$out/bench_run$i.json")
    done
    python3 scripts/bench_median.py "$out/bench.json" "${runs[@]}" || status=1
fi
{
    echo "after:"
    clocks
} >>"$out/bench_environment.txt" 2>&1
python3 - "$out/bench.json" >"$out/bench.txt" <<'PY' || cat "$out/bench_progress.log"
import json, sys
j = json.load(open(sys.argv[1]))
for p in j["peaks"]:
    print(f"measured peak {p['precision']:5} {p['tflops']:8.1f} TFLOP/s  ({p['instruction']})")
print(f"{'kernel':24} {'type':5} {'MxNxK':16} {'ms':>9} {'TFLOP/s':>8} {'%cuBLAS':>8} {'%peak':>6} {'xSGEMM':>7} {'rel.err':>9}  status")
f = lambda v, s: s.format(v) if v is not None else "-"
for r in j["results"]:
    status = r["skipped"] and "skipped: " + r["skipped"] or r["error"] and "error: " + r["error"] or ("ok" if r["verified"] else "NOT VERIFIED")
    print(f"{r['kernel']:24} {r['precision']:5} {str(r['m'])+'x'+str(r['n'])+'x'+str(r['k']):16} {f(r['median_ms'],'{:.3f}'):>9} "
          f"{f(r['tflops'],'{:.1f}'):>8} {f(r['pct_of_cublas'],'{:.1f}%'):>8} {f(r['pct_of_peak'],'{:.1f}%'):>6} "
          f"{f(r['speedup_vs_sgemm'],'{:.2f}x'):>7} {f(r['rel_rms_error'],'{:.1e}'):>9}  {status}")
PY
cat "$out/bench.txt"
exit "$status"
