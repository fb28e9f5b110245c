#!/usr/bin/env bash
# The source view on a GPU server: `tclens source` against Nsight Compute's source page on an FMA rung,
# rung 8 and rung 11 at 4096^3, and the raw nvdisasm listings the SASS reader's tests want.
# Writes to $OUT (or ./gpu-out/source):
#   source_compare.md           the comparison: top five stall reasons' shares (within 5 pp),
#                               per-instruction shared wavefronts (equal), per-instruction sums vs
#                               the Range Profiler's totals (equal), time to answer (<= 2 s)
#   <kernel>.tclens.json/.txt   `tclens source --json` and the human table; .time: exit, wall s
#   <kernel>.ncu.source.csv     `ncu -i REP --page source --csv --print-source sass`
#   <kernel>.ncu.raw.csv        the same report's kernel metrics (--page raw)
#   nvdisasm/<kernel>.nvdisasm.txt   `nvdisasm -c -gi` of the cubin holding the kernel
#   ctest.log                   the source view's GPU tests and the SASS reader's tests run on
#                               those listings (copied into tests/data/nvdisasm/ here)
# Builds build-gpu/ first when it is missing (as scripts/gpu_check.sh does, from .carry/).
# Environment: TCLENS (default build-gpu/bin/tclens), NCU. Exit 0 when every comparison passes.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-out}/source
mkdir -p "$out/nvdisasm"
export PATH=/usr/local/cuda/bin:$PATH
tclens=${TCLENS:-build-gpu/bin/tclens}
ncu=${NCU:-$(command -v ncu || ls /usr/local/cuda/bin/ncu /usr/local/cuda/nsight-compute*/ncu \
    /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)}

if [ ! -x "$tclens" ]; then
    cmake -S . -B build-gpu -G Ninja -DTCLENS_GUI=OFF -DTCLENS_BENCHMARKS=OFF \
        -DTCLENS_EXTRA_INCLUDE="$PWD/.carry/include" -DTCLENS_GTEST_SOURCE="$PWD/.carry/googletest" \
        -DTCLENS_HEADLESS_GUI=ON -DTCLENS_IMGUI_DIR="$PWD/.carry/imgui" >"$out/build.log" 2>&1 &&
        cmake --build build-gpu --target tclens gpu_tests profiling_source_tests \
            >>"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
fi
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
    "$tclens" --version
    [ -n "$ncu" ] && "$ncu" --version | tail -1
    command -v cuobjdump nvdisasm
} >"$out/environment.txt" 2>&1

# id | size | kernel function regex (ncu -k) | why
cases=(
    "register_tiled.f32|4096x4096x4096|register_tiled_gemm|FMA rung: FFMA from register tiles fed by LDS"
    "mma_cp_async.f16|4096x4096x4096|mma_cp_async_gemm|rung 8: mma.sync fed by ldmatrix from a cp.async ring"
    "wgmma_persistent.f16|4096x4096x4096|persistent_gemm|rung 11: persistent wgmma, TMA, mbarrier waits"
)
now() { date +%s.%N; }
for case in "${cases[@]}"; do
    IFS='|' read -r kernel size regex why <<<"$case"
    echo "$kernel $size" >&2
    start=$(now)
    "$tclens" source --kernel "$kernel" --mnk "$size" --json >"$out/$kernel.tclens.json" \
        2>"$out/$kernel.tclens.err"
    echo "$? $(now) $start" >"$out/$kernel.tclens.time"
    "$tclens" source --kernel "$kernel" --mnk "$size" --top 15 >"$out/$kernel.tclens.txt" 2>&1
    if [ -n "$ncu" ]; then
        "$ncu" --section SourceCounters --section WarpStateStats --import-source yes \
            -k "regex:$regex" --launch-skip 1 --launch-count 1 -f -o "$out/$kernel" \
            "$tclens" bench --kernels "$kernel" --mnk "$size" --runs 20 --warmup 0 --no-peak \
            >"$out/$kernel.ncu.log" 2>&1
        "$ncu" -i "$out/$kernel.ncu-rep" --page source --csv --print-source sass \
            >"$out/$kernel.ncu.source.csv" 2>>"$out/$kernel.ncu.log"
        "$ncu" -i "$out/$kernel.ncu-rep" --page raw --csv --print-units base \
            >"$out/$kernel.ncu.raw.csv" 2>>"$out/$kernel.ncu.log"
    fi
    echo "$kernel|$size|$regex|$why" >>"$out/cases.txt"
done

# Raw nvdisasm listings: the cubin of each kernel's function, for tests/data/nvdisasm.
cubins=$(mktemp -d)
binary=$(readlink -f "$tclens")
(cd "$cubins" && cuobjdump -xelf all "$binary" >/dev/null 2>&1)
for case in "${cases[@]}"; do
    IFS='|' read -r kernel size regex why <<<"$case"
    for cubin in "$cubins"/*sm_90a.cubin; do
        if grep -q "$regex" "$cubin"; then
            nvdisasm -c -gi "$cubin" >"$out/nvdisasm/$kernel.nvdisasm.txt" 2>&1
            break
        fi
    done
done
rm -rf "$cubins"
cp "$out"/nvdisasm/*.nvdisasm.txt tests/data/nvdisasm/ 2>/dev/null
TCLENS_RESULTS_DIR="$out" ctest --test-dir build-gpu --output-on-failure -R 'SourceProfile|SassText' \
    >"$out/ctest.log" 2>&1
ctest_status=$?

python3 - "$out" >"$out/source_compare.md" <<'PY'
import csv, json, re, sys

out = sys.argv[1]
ok = True
print("# tclens source vs Nsight Compute's source page\n")
print("```\n" + open(f"{out}/environment.txt").read().strip() + "\n```\n")
print("tclens: `tclens source` (PC sampling, SASS metrics and the Range Profiler on three launches "
      "of the verified kernel). ncu: `--section SourceCounters --section WarpStateStats "
      "--import-source yes` on the first timed launch of `tclens bench`, read with `--page source "
      "--csv --print-source sass`.\n")

def number(text):
    try:
        return float(str(text).replace(",", ""))
    except ValueError:
        return None

def ncu_source(path):
    """(per-instruction rows, header) of ncu's source CSV: the header is the row naming an
    address column and a source column."""
    try:
        rows = list(csv.reader(open(path)))
    except OSError:
        return [], []
    for i, row in enumerate(rows):
        if any("Address" in c for c in row) and "Source" in row:
            return rows[i + 1:], row
    return [], []

timing = []
for line in open(f"{out}/cases.txt"):
    kernel, size, regex, why = line.strip().split("|", 3)
    print(f"## {kernel} {size}\n\n{why}.\n")
    status, end, start = open(f"{out}/{kernel}.tclens.time").read().split()
    try:
        t = json.load(open(f"{out}/{kernel}.tclens.json"))
    except (OSError, ValueError):
        print(f"tclens source failed (exit {status}): " + open(f"{out}/{kernel}.tclens.err").read().strip() + "\n")
        ok = False
        continue
    timing.append((kernel, size, float(end) - float(start), t["timings_ms"]))
    for note in ("sass_missing", "line_info_missing", "sampling_missing", "counters_missing", "totals_missing"):
        if t.get(note):
            print(f"- {note}: {t[note]}")
    print(f"\ntclens: {t['total_samples']} PC samples (every 2^{t['period_log2']} cycles), "
          f"{len(t['instructions'])} instructions, SASS: {t['sass_how'] or '-'}\n")

    rows, header = ncu_source(f"{out}/{kernel}.ncu.source.csv")
    if not rows:
        print(f"no ncu source page ({kernel}.ncu.source.csv, {kernel}.ncu.log)\n")
        ok = False
    col = {name: i for i, name in enumerate(header)}
    address = next((i for i, n in enumerate(header) if "Address" in n), None)
    # "stall_x (Not Issued)" columns count a subset of "stall_x"'s samples: shares are of the
    # all-samples columns only.
    stall_cols = [n for n in header if n.startswith("stall_") and "not issued" not in n.lower()]
    waves = next((n for n in header if re.search(r"L1 Wavefronts Shared$", n)), None)

    # 1. Top five stall reasons: shares within 5 percentage points.
    if rows and stall_cols:
        sums = {n: sum(number(r[col[n]]) or 0 for r in rows if len(r) > col[n]) for n in stall_cols}
        total = sum(sums.values())
        ncu_share = {n: 100 * v / total for n, v in sums.items()} if total else {}
        print("| reason | ncu column | tclens % | ncu % | difference | within 5 pp |")
        print("|---|---|---:|---:|---:|---|")
        for s in t["stalls"][:5]:
            column = s["ncu_column"]
            theirs = ncu_share.get(column)
            if theirs is None:
                print(f"| {s['label']} | `{column}` | {s['share_pct']:.1f} | - | | no such ncu column |")
                ok = False
                continue
            good = abs(s["share_pct"] - theirs) <= 5
            ok &= good
            print(f"| {s['label']} | `{column}` | {s['share_pct']:.1f} | {theirs:.1f} | "
                  f"{s['share_pct'] - theirs:+.1f} pp | {'yes' if good else 'NO'} |")
        ncu_top = sorted(ncu_share.items(), key=lambda kv: -kv[1])[:5]
        print("\nncu's own top five: " + ", ".join(f"`{n}` {v:.1f} %" for n, v in ncu_top))
        known = {s["ncu_column"] for s in t["stalls"]}
        unmapped = [n for n in stall_cols if n not in known and sums[n] > 0]
        if unmapped:
            print("\nncu columns with samples that tclens names otherwise or not at all: " +
                  ", ".join(f"`{n}`" for n in unmapped))
        print()
    elif rows:
        print("ncu's source page has no stall_* columns; header: " + ", ".join(header) + "\n")
        ok = False

    # 2. Per-instruction shared wavefronts: equal.
    if rows and address is not None and waves:
        addresses = [int(r[address], 16) for r in rows if len(r) > address and r[address].startswith("0x")]
        base = min(addresses) if addresses else 0
        ncu_waves = {}
        for r in rows:
            if len(r) > max(address, col[waves]) and r[address].startswith("0x"):
                value = number(r[col[waves]])
                if value:
                    ncu_waves[int(r[address], 16) - base] = value
        ours = {i["pc"]: i["shared_wavefronts"] for i in t["instructions"] if i["shared_wavefronts"]}
        if not addresses:
            print("ncu's source page has no 0x... addresses to match instructions by; first rows: " +
                  repr(rows[:3]) + "\n")
            ok = False
        else:
            pcs = sorted(set(ncu_waves) | set(ours))
            equal = [pc for pc in pcs if ours.get(pc, 0) == ncu_waves.get(pc, 0)]
            good = len(equal) == len(pcs)
            ok &= good
            print(f"Per-instruction shared wavefronts (`{waves}`): {len(equal)} of {len(pcs)} "
                  f"instructions equal{'' if good else ' -- NOT all'}.")
            for pc in [pc for pc in pcs if pc not in equal][:10]:
                print(f"- pc {pc:#x}: tclens {ours.get(pc, 0):.0f}, ncu {ncu_waves.get(pc, 0):.0f}")
            print()
    elif rows:
        print("ncu's source page has no address or 'L1 Wavefronts Shared' column; header: " +
              ", ".join(header) + "\n")
        ok = False

    # Per-opcode shared wavefronts, ideal and excess: what the sums below are made of.
    by_opcode = {}
    for i in t["instructions"]:
        if i["shared_wavefronts"] or i.get("shared_ideal"):
            op = i["opcode"].split(".")[0] if i["opcode"] else "?"
            e = by_opcode.setdefault(op, [0, 0, 0])
            e[0] += 1; e[1] += i["shared_wavefronts"]; e[2] += i.get("shared_ideal", 0)
    if by_opcode:
        print("| opcode | instructions | shared wavefronts | ideal | excess |")
        print("|---|---:|---:|---:|---:|")
        for op, (n, w, ideal) in sorted(by_opcode.items()):
            print(f"| {op} | {n} | {w} | {ideal} | {w - ideal} |")
        print()

    # 3. Per-instruction sums vs the Range Profiler.
    print("| per-instruction sum | Range Profiler metric | sum | total | equal |")
    print("|---|---|---:|---:|---|")
    for c in t["checks"]:
        if not c["available"]:
            print(f"| {c['what']} | `{c['range_metric']}` | - | - | not compared: {c['why_not']} |")
            continue
        exact = c["equal"]
        if c["range_metric"] != "smsp__inst_executed.sum" or not kernel.startswith("wgmma"):
            ok &= exact
        print(f"| {c['what']} | `{c['range_metric']}` | {c['instruction_sum']:.0f} | "
              f"{c['range_total']:.0f} | {'yes' if exact else 'NO (' + format(c['instruction_sum'] - c['range_total'], '+.0f') + ')'} |")
    print()

print("## Time to answer\n")
print("In-process: request to answer inside `tclens source` (verification, PC sampling, SASS "
      "metrics, Range Profiler totals, disassembly). Wall: the whole process, CUDA start included.\n")
print("| kernel | size | in-process ms | <= 2 s | wall s | prepare | sampling | counts | totals | SASS |")
print("|---|---|---:|---|---:|---:|---:|---:|---:|---:|")
for kernel, size, wall, ms in timing:
    good = ms["total"] <= 2000
    ok &= good
    print(f"| {kernel} | {size} | {ms['total']:.0f} | {'yes' if good else 'NO'} | {wall:.2f} | "
          f"{ms['prepare']:.0f} | {ms['sampling']:.0f} | {ms['counters']:.0f} | {ms['totals']:.0f} | "
          f"{ms['disassembly']:.0f} |")
print(f"\nOverall: {'every comparison passes' if ok else 'NOT every comparison passes'}.")
sys.exit(0 if ok else 1)
PY
compare_status=$?
cat "$out/source_compare.md"
echo "ctest exit $ctest_status (see $out/ctest.log)"
[ "$compare_status" -eq 0 ] && [ "$ctest_status" -eq 0 ]
