#!/usr/bin/env bash
# After scripts/gpu_check.sh (which builds build-gpu/): checks `tclens profile` against Nsight
# Compute on three kernels, an FMA-bound, a tensor-bound and a DRAM-bound one, and writes
# $OUT/ncu_compare.md (or ./gpu-out/ncu_compare.md): per metric the tclens value, the ncu value,
# their difference and whether they agree (within 2 % relative, or 0.5 percentage points for %
# metrics), plus each tool's time to answer. Raw outputs stay beside it in $OUT/ncu_compare/.
#
# Both tools see the same work: tclens profiles one launch in a user range after flushing the L2
# before each pass; ncu profiles the first timed launch of `tclens bench` (the verification launch
# is skipped, other kernels are filtered out by name) with --cache-control all (flush before each
# pass) and --clock-control none (tclens does not lock clocks either).
# Environment: TCLENS (default build-gpu/bin/tclens), NCU (default: ncu on PATH or in the CUDA
# toolkit). Exit status 0 when every metric agrees, 1 otherwise, 3 when tclens is not built or
# fails to profile, 77 (skipped, cmake/GoogleTests.cmake) when there is no GPU or no ncu.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-out}
raw="$out/ncu_compare"
mkdir -p "$raw"
tclens=${TCLENS:-build-gpu/bin/tclens}
ncu=${NCU:-$(command -v ncu || ls /usr/local/cuda/bin/ncu /usr/local/cuda/nsight-compute*/ncu \
    /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)}
if [ ! -x "$tclens" ]; then echo "gpu_ncu_compare: $tclens not built (run scripts/gpu_check.sh)" >&2; exit 3; fi
# The ctest entry gpu.NcuCompare runs this script; exit code 77 makes ctest report it skipped.
if ! "$tclens" --version 2>/dev/null | grep -q '^GPU 0:'; then echo "skipped: no GPU"; exit 77; fi
if [ -z "$ncu" ] || [ ! -x "$ncu" ]; then echo "skipped: ncu not found; set NCU=/path/to/ncu"; exit 77; fi

# id | size | kernel function regex (ncu -k) | why
cases=(
    "register_tiled.f32|4096x4096x4096|register_tiled_gemm|FMA-bound: FFMA from register tiles, no tensor cores"
    "mma_cp_async.bf16|4096x4096x4096|mma_cp_async_gemm|tensor-bound: mma.sync bf16 fed by a cp.async ring"
    "wgmma_tma.bf16|128x32768x8192|wgmma_tma_gemm|DRAM-bound: one row of 128 x 128 wgmma tiles, each block streams a 2 MiB strip of B (512 MiB, 10x the L2) at 128 flop/byte"
)

# The default set, the occupancy limits and the SM clock, as the catalogue names them, less any
# this GPU lacks (a small profile of --set all says which ones it has).
"$tclens" profile --list-metrics --json >"$raw/catalogue.json" &&
    "$tclens" profile --kernel naive_fma.f32 --mnk 256x256x256 --set all --json >"$raw/available.json" ||
    { echo "gpu_ncu_compare: tclens profile failed; see $raw/available.json" >&2; exit 3; }
metrics=$(python3 - "$raw/catalogue.json" "$raw/available.json" "$raw/unavailable.txt" <<'PY'
import json, sys
catalogue = json.load(open(sys.argv[1]))
available = {m["name"] for m in json.load(open(sys.argv[2]))["metrics"]}
wanted = [m["name"] for m in catalogue
          if m["default"] or m["name"].startswith("launch__occupancy_limit")
          or m["name"] == "sm__cycles_elapsed.avg.per_second"]
with open(sys.argv[3], "w") as missing:
    for name in wanted:
        if name not in available:
            missing.write(name + "\n")
print(",".join(name for name in wanted if name in available))
PY
)

now() { date +%s.%N; }
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv
    "$ncu" --version | tail -1
    "$tclens" --version
} >"$raw/environment.txt" 2>&1

# NCU_COMPARE_REPEATS (default 3): each tool measures each kernel this many times, alternating,
# so the table can compare medians and show how far each tool spreads from run to run by itself.
repeats=${NCU_COMPARE_REPEATS:-3}
index=0
for case in "${cases[@]}"; do
    IFS='|' read -r kernel size regex why <<<"$case"
    echo "[$((index + 1))/${#cases[@]}] $kernel $size" >&2
    for ((r = 0; r < repeats; ++r)); do
        tag="$index.$r"
        start=$(now)
        "$tclens" profile --kernel "$kernel" --mnk "$size" --metrics "$metrics" --json \
            >"$raw/$tag.tclens.json" 2>"$raw/$tag.tclens.err"
        echo "$? $(now) $start" >"$raw/$tag.tclens.time"
        start=$(now)
        "$ncu" --metrics "$metrics" -k "regex:$regex" --launch-skip 1 --launch-count 1 \
            --cache-control all --clock-control none -f -o "$raw/$tag" \
            "$tclens" bench --kernels "$kernel" --mnk "$size" --runs 20 --warmup 0 --no-peak \
            >"$raw/$tag.ncu.log" 2>&1
        status=$?
        "$ncu" --import "$raw/$tag.ncu-rep" --csv --page raw --print-units base \
            >"$raw/$tag.ncu.csv" 2>>"$raw/$tag.ncu.log"
        echo "$status $(now) $start" >"$raw/$tag.ncu.time"
    done
    echo "$kernel|$size|$regex|$why" >"$raw/$index.case"
    index=$((index + 1))
done

python3 - "$raw" "${#cases[@]}" "$metrics" "$repeats" >"$out/ncu_compare.md" <<'PY'
import csv, json, statistics, sys

raw, count, metrics, repeats = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(","), int(sys.argv[4])
env = open(f"{raw}/environment.txt").read().strip().splitlines()
print("# tclens profile vs Nsight Compute\n")
print("```\n" + "\n".join(env) + "\n```\n")
print("Agreement: within 2 % relative, or 0.5 percentage points for % metrics (counts also within 0.5).")
print("tclens: one launch in CUPTI's range around it (a user range where one run is several "
      "launches), L2 flushed before each pass, clocks not locked.")
print("ncu: first timed launch of `tclens bench` (verification launch skipped), `--cache-control all "
      "--clock-control none`.\n")
missing = open(f"{raw}/unavailable.txt").read().split()
if missing:
    print("Not compared, this GPU lacks them: " + ", ".join(f"`{m}`" for m in missing) + ".\n")

def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None

def ncu_values(path):
    rows = list(csv.reader(open(path)))
    header = next((i for i, r in enumerate(rows) if "Kernel Name" in r), None)
    if header is None or len(rows) < header + 3:
        return {}, "no profiled kernel in the ncu report"
    names, units, values = rows[header], rows[header + 1], rows[header + 2]
    out = {}
    for i, name in enumerate(names):
        if name in metrics and i < len(values):
            out[name] = (number(values[i]), units[i] if i < len(units) else "")
    return out, ""

def seconds(path):
    status, end, start = open(path).read().split()
    return int(status), float(end) - float(start)

def agrees(a, b):
    rel = abs(a - b) / max(abs(a), abs(b)) if max(abs(a), abs(b)) > 0 else 0.0
    return rel <= 0.02 or abs(a - b) <= 0.5, rel

print(f"Each tool measured each kernel {repeats} times, alternating; the table compares the "
      "medians. Spread: max - min of one tool's runs, as a difference of the same kind; "
      "'within spread' says, for a metric outside the bound, whether the medians are closer "
      "than the larger spread.\n")
all_ok = True
timing = []
for tag in range(count):
    kernel, size, regex, why = open(f"{raw}/{tag}.case").read().strip().split("|", 3)
    print(f"## {kernel} {size}\n\n{why}.\n")
    runs_t, runs_n, failed = [], [], False
    for r in range(repeats):
        t_status, t_wall = seconds(f"{raw}/{tag}.{r}.tclens.time")
        n_status, n_wall = seconds(f"{raw}/{tag}.{r}.ncu.time")
        try:
            tj = json.load(open(f"{raw}/{tag}.{r}.tclens.json"))
        except (OSError, ValueError):
            tj = None
        if t_status != 0 or tj is None:
            print(f"tclens profile failed (exit {t_status}): " + open(f"{raw}/{tag}.{r}.tclens.err").read().strip() + "\n")
            failed = True
            break
        nv, problem = ncu_values(f"{raw}/{tag}.{r}.ncu.csv")
        if problem:
            print(f"ncu failed (exit {n_status}): {problem}; see ncu_compare/{tag}.{r}.ncu.log\n")
            failed = True
            break
        runs_t.append({m["name"]: (m["value"], m["unit"]) for m in tj["metrics"]})
        runs_n.append(nv)
        if r == 0:
            first = tj
            timing.append((kernel, size, t_wall, tj["prepare_ms"], tj["profile_ms"], n_wall))
    if failed:
        all_ok = False
        continue
    print(f"tclens: {first['passes']} passes, verified ({first['reference']}, rel. RMS "
          f"{first['rel_rms_error']:.1e}), {'per-kernel range' if first.get('per_kernel_range') else 'user range'}.\n")
    print("| metric | unit | tclens | ncu | difference | agrees | tclens spread | ncu spread | within spread |")
    print("|---|---|---:|---:|---:|---|---:|---:|---|")
    for name in metrics:
        t_values = [run[name][0] for run in runs_t if name in run]
        n_values = [run[name][0] for run in runs_n if name in run and run[name][0] is not None]
        if len(t_values) != repeats or len(n_values) != repeats:
            print(f"| `{name}` | | - | - | | missing | | | |")
            all_ok = False
            continue
        unit = runs_t[0][name][1]
        percent = unit == "%"
        a, b = statistics.median(t_values), statistics.median(n_values)
        ok, rel = agrees(a, b)
        all_ok &= ok
        def spread(values):
            lo, hi = min(values), max(values)
            return hi - lo if percent else ((hi - lo) / max(abs(hi), abs(lo)) if max(abs(hi), abs(lo)) > 0 else 0.0)
        s_t, s_n = spread(t_values), spread(n_values)
        diff = abs(a - b) if percent else rel
        shown = f"{a - b:+.2f} pp" if percent else f"{100 * rel:.2f} %"
        fmt = (lambda v: f"{v:.2f} pp") if percent else (lambda v: f"{100 * v:.2f} %")
        within = "-" if ok else ("yes" if diff <= max(s_t, s_n) else "no")
        print(f"| `{name}` | {unit} | {a:.6g} | {b:.6g} | {shown} | {'yes' if ok else 'NO'} | "
              f"{fmt(s_t)} | {fmt(s_n)} | {within} |")
    print()

print("## Time to answer\n")
print("tclens wall: the whole `tclens profile` process (CUDA start, verification, launch facts, all "
      "passes). tclens profile: from request to values once the kernel is verified (what a live view "
      "pays per update). ncu wall: profiling `tclens bench` (same verification, 20 timed runs) plus "
      "reading the report back as CSV.\n")
print("| kernel | size | tclens wall s | tclens prepare ms | tclens profile ms | ncu wall s | ncu / tclens wall | ncu / tclens profile |")
print("|---|---|---:|---:|---:|---:|---:|---:|")
for kernel, size, t_wall, prep, prof, n_wall in timing:
    print(f"| {kernel} | {size} | {t_wall:.2f} | {prep:.0f} | {prof:.0f} | {n_wall:.2f} | "
          f"{n_wall / t_wall:.1f}x | {1000 * n_wall / prof:.0f}x |")
print(f"\nResult: {'every metric agrees' if all_ok else 'SOME METRICS DIFFER (see NO above)'}.")
sys.exit(0 if all_ok else 1)
PY
status=$?
cat "$out/ncu_compare.md"
exit "$status"
