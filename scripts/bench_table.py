#!/usr/bin/env python3
"""Prints a bench.json (`tclens bench --json`) as a Markdown table: one row per kernel (ladder
order), one column per size, each cell "TFLOP/s (% of the same-run cuBLAS)", or "-" where the
kernel skipped the size or its result was not verified (those have no numbers).

    scripts/bench_table.py bench/results/<run>/square/bench.json [--sizes-as m]

--sizes-as m labels the columns by M only (for a sweep over M with N and K fixed, e.g. lab6).
--best16 prints the target table instead: one row per size, the best verified f16 and bf16
rung there as % of the same-run cuBLAS of its type, and which rung that is.
"""
import argparse
import json
import sys


def size_label(row, by_m):
    if by_m:
        return f"M={row['m']}"
    if row["m"] == row["n"] == row["k"]:
        return f"{row['m']}³"
    return f"{row['m']}x{row['n']}x{row['k']}"


def cell(row):
    if not row.get("verified") or row.get("tflops") is None:
        return "-"
    tflops = row["tflops"]
    text = f"{tflops:.0f}" if tflops >= 10 else f"{tflops:.1f}"
    pct = row.get("pct_of_cublas")
    return text if row["rung"] == 0 or pct is None else f"{text} ({pct:.0f}%)"


def print_table(rows, by_m):
    sizes = sorted({(r["m"], r["n"], r["k"]) for r in rows})
    labels = {s: None for s in sizes}
    kernels = []
    cells = {}
    for r in rows:
        if r["kernel"] not in kernels:
            kernels.append(r["kernel"])
        labels[(r["m"], r["n"], r["k"])] = size_label(r, by_m)
        cells[(r["kernel"], (r["m"], r["n"], r["k"]))] = cell(r)
    kernels.sort(key=lambda k: next(r["rung"] or 99 for r in rows if r["kernel"] == k))
    print("| rung | kernel | " + " | ".join(labels[s] for s in sizes) + " |")
    print("|---|---|" + "---|" * len(sizes))
    for k in kernels:
        rung = next(r["rung"] for r in rows if r["kernel"] == k)
        line = [str(rung) if rung else "ref", f"`{k}`"]
        line += [cells.get((k, s), "-") for s in sizes]
        print("| " + " | ".join(line) + " |")


def print_best16(rows, by_m):
    sizes = sorted({(r["m"], r["n"], r["k"]) for r in rows})
    print("| size | f16 | bf16 | rung (f16, bf16) |")
    print("|---|---|---|---|")
    for size in sizes:
        label = next(size_label(r, by_m) for r in rows if (r["m"], r["n"], r["k"]) == size)
        cells, rungs = [], []
        for precision in ("f16", "bf16"):
            candidates = [r for r in rows
                          if (r["m"], r["n"], r["k"]) == size and r["precision"] == precision
                          and r["rung"] > 0 and r.get("verified")
                          and r.get("pct_of_cublas") is not None]
            best = max(candidates, key=lambda r: r["pct_of_cublas"], default=None)
            cells.append(f"{best['pct_of_cublas']:.1f}" if best else "-")
            rungs.append(str(best["rung"]) if best else "-")
        print(f"| {label} | {cells[0]} | {cells[1]} | {', '.join(rungs)} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bench_json")
    parser.add_argument("--sizes-as", choices=["mnk", "m"], default="mnk")
    parser.add_argument("--best16", action="store_true")
    args = parser.parse_args()
    try:
        with open(args.bench_json) as f:
            rows = json.load(f)["results"]
        if args.best16:
            print_best16(rows, args.sizes_as == "m")
        else:
            print_table(rows, args.sizes_as == "m")
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"bench_table.py: cannot read '{args.bench_json}' as tclens bench JSON: "
                 f"{type(e).__name__} {e}")


if __name__ == "__main__":
    main()
