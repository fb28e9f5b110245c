#!/usr/bin/env bash
# After scripts/gpu_check.sh (which builds build-gpu/): where a shape's time goes when rung 14 loses
# to cuBLAS (issue 34's "the profile that explains it"). For each shape of SHAPES (default: one of
# each losing class of session 20's sweeps: a padded short K, a padded skinny M whose B is copied,
# a padded tall narrow N, an aligned few-rows shape on split-K), `tclens bench --kernels
# dispatch.bf16 --mnk SHAPE` runs once on its own (its median time, CUDA events around each
# launch, the launches back to back behind the runner's stream gate: the kernels and the GPU's
# gaps between them) and once under Nsight Compute, which times every
# kernel of the run alone (gpu__time_duration, --clock-control none as the bench runs) with the
# DRAM bytes it moved. Writes to $OUT/dispatch_kernels/ (OUT default gpu-out):
#   SHAPE.bench.json   the bench (verified, median of 20 runs, same-run cuBLAS)
#   SHAPE.ncu.csv      ncu's rows: one per kernel launch and metric
#   summary.md         per shape: the bench's ms for dispatch.bf16 and cuBLAS, then per kernel name
#                      its launches, median µs and DRAM MB; the bench's time less the sum of
#                      rung 14's kernels (one launch each) is what the launches between cost
# Environment: TCLENS (default build-gpu/bin/tclens), NCU, SHAPES (space-separated MxNxK), OUT.
# Exit 0 when every shape was measured, 1 otherwise, 77 without a GPU or ncu.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${OUT:-gpu-out}/dispatch_kernels
mkdir -p "$out"
tclens=${TCLENS:-build-gpu/bin/tclens}
shapes=${SHAPES:-6310x119x33 18x1205x3165 14199x28x4767 48x512x4096}
ncu=${NCU:-$(command -v ncu || ls /usr/local/cuda/bin/ncu /usr/local/cuda/nsight-compute*/ncu \
    /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)}
if [ ! -x "$tclens" ]; then echo "gpu_dispatch_kernels: $tclens not built (run scripts/gpu_check.sh)" >&2; exit 1; fi
if ! "$tclens" --version 2>/dev/null | grep -q '^GPU 0:'; then echo "skipped: no GPU"; exit 77; fi
if [ -z "$ncu" ] || [ ! -x "$ncu" ]; then echo "skipped: ncu not found; set NCU=/path/to/ncu"; exit 77; fi

status=0
for shape in $shapes; do
    bench=("$tclens" bench --kernels dispatch.bf16 --mnk "$shape" --runs 20 --warmup 2 --no-peak)
    "${bench[@]}" --json >"$out/$shape.bench.json" 2>"$out/$shape.bench.log" || status=1
    "$ncu" --target-processes all --clock-control none --kernel-name-base function --print-units base \
        --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum --csv \
        "${bench[@]}" >"$out/$shape.ncu.csv" 2>"$out/$shape.ncu.log" || status=1
done

python3 - "$out" $shapes >"$out/summary.md" <<'EOF' || status=1
import csv, io, json, statistics, sys

out, shapes = sys.argv[1], sys.argv[2:]

def ncu_rows(path):
    """ncu's --csv rows after its own log lines: one per (launch, metric)."""
    text = open(path, errors="replace").read()
    start = text.find('"ID"')
    return list(csv.DictReader(io.StringIO(text[start:]))) if start >= 0 else []

def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None

for shape in shapes:
    print(f"## {shape}\n")
    try:
        bench = json.load(open(f"{out}/{shape}.bench.json"))
        for r in bench["results"]:
            print(f"- {r['kernel']}: median {r['median_ms'] * 1e3:.1f} µs, verified "
                  f"{r['verified']}, {r.get('pct_of_cublas') or 0:.1f} % of cuBLAS")
    except (OSError, ValueError, KeyError) as e:
        print(f"- no bench result ({e})")
    launches = {}  # (kernel name, launch id) -> {metric: value}
    unknown_units = set()
    for row in ncu_rows(f"{out}/{shape}.ncu.csv"):
        key = (row.get("Kernel Name", "?"), row.get("ID", "?"))
        value = number(row.get("Metric Value", ""))
        unit = row.get("Metric Unit", "")
        if value is None:
            continue
        # ncu 2025 writes "ns", "us", "ms" and "byte"; older ones "nsecond" ... "Mbyte".
        scale = {"nsecond": 1e-3, "usecond": 1, "msecond": 1e3, "second": 1e6,
                 "ns": 1e-3, "us": 1, "ms": 1e3, "s": 1e6,
                 "byte": 1e-6, "Kbyte": 1e-3, "Mbyte": 1, "Gbyte": 1e3}.get(unit)
        if scale is None:  # left out (said once on stderr), rather than read at a wrong scale
            if unit not in unknown_units:
                print(f"gpu_dispatch_kernels: unit {unit!r} of {row.get('Metric Name')} unknown, "
                      "left out", file=sys.stderr)
                unknown_units.add(unit)
            continue
        launches.setdefault(key, {})[row.get("Metric Name", "?")] = value * scale
    by_name = {}
    for (name, _), metrics in launches.items():
        by_name.setdefault(name, []).append(metrics)
    print("\n| kernel | launches | median µs | DRAM read MB | DRAM write MB |")
    print("|---|---|---|---|---|")
    for name, runs in sorted(by_name.items(), key=lambda kv: -len(kv[1])):
        def med(metric):
            values = [m[metric] for m in runs if metric in m]
            return f"{statistics.median(values):.2f}" if values else "-"
        print(f"| `{name[:80]}` | {len(runs)} | {med('gpu__time_duration.sum')} | "
              f"{med('dram__bytes_read.sum')} | {med('dram__bytes_write.sum')} |")
    print()
EOF
cat "$out/summary.md"
exit "$status"
