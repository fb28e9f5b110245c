#!/usr/bin/env python3
"""Compares sweeps of scripts/gpu_spread_bench.sh: the per-row % of cuBLAS of the runs with one
worker against those with --workers 2, next to the run-to-run spread of the one-worker runs.

Usage: spread_bench_summary.py --one A.json B.json ... --two C.json D.json ... [--walls W.txt ...]
Prints markdown: every row verified?, wall times and their ratio, and per kernel and size the
% of cuBLAS of each run, the one-worker spread (max - min) and how far the two-worker median is
from the one-worker median."""
import argparse
import json
import re
import statistics


def rows(path):
    report = json.load(open(path))
    out = {}
    for r in report["results"]:
        key = (r["kernel"], f'{r["m"]}x{r["n"]}x{r["k"]}')
        out[key] = r
    return report, out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--one", nargs="+", required=True)
    parser.add_argument("--two", nargs="+", required=True)
    parser.add_argument("--walls", nargs="*", default=[])
    args = parser.parse_args()
    one = [rows(p)[1] for p in args.one]
    two_reports = [rows(p) for p in args.two]
    two = [r for _, r in two_reports]

    print("## Wall time of each sweep (tclens bench, start to exit)\n")
    walls = {"one": [], "two": []}
    for path in args.walls:
        for line in open(path):
            m = re.match(r"(\S+) rc=(\d+) wall_s=([\d.]+)", line)
            if m:
                kind = "two" if m.group(1).startswith("two") else "one"
                walls[kind].append(float(m.group(3)))
                print(f"- {path}: {line.strip()}")
    if walls["one"] and walls["two"]:
        a, b = statistics.median(walls["one"]), statistics.median(walls["two"])
        print(f"\nmedian one worker {a:.1f} s, two workers {b:.1f} s: **{a / b:.2f}x** "
              f"(each pair: {', '.join(f'{x / y:.2f}' for x in walls['one'] for y in walls['two'])})\n")

    unverified = [(k, p) for run in one + two for (k, p), r in run.items() if not r["verified"]]
    print(f"rows per run: {[len(r) for r in one + two]}; rows not verified: {len(unverified)}\n")
    for report, _ in two_reports:
        gpus = [w["gpu"] for w in report.get("workers", [])]
        print(f"two-worker run's workers: {gpus}; notes: {report.get('notes', [])}\n")

    print("## % of cuBLAS per row\n")
    print("| kernel | MxNxK | one worker (each run) | spread | two workers (each run) | "
          "two - one (medians) | within spread |")
    print("|---|---|---|---|---|---|---|")
    within = total = 0
    diffs = []
    for key in one[0]:
        if key[0].startswith("cublas"):
            continue
        a = [run[key]["pct_of_cublas"] for run in one if key in run and run[key]["pct_of_cublas"]]
        b = [run[key]["pct_of_cublas"] for run in two if key in run and run[key]["pct_of_cublas"]]
        if not a or not b:
            continue
        spread = max(a) - min(a)
        diff = statistics.median(b) - statistics.median(a)
        ok = abs(diff) <= max(spread, 1.0)
        total += 1
        within += ok
        diffs.append(abs(diff))
        print(f"| {key[0]} | {key[1]} | {' '.join(f'{x:.1f}' for x in a)} | {spread:.1f} | "
              f"{' '.join(f'{x:.1f}' for x in b)} | {diff:+.1f} | {'yes' if ok else 'no'} |")
    print(f"\n{within} of {total} rows: the two-worker median within the one-worker runs' spread "
          f"(or 1 point); median |difference| {statistics.median(diffs):.2f} points, "
          f"largest {max(diffs):.1f}.")


if __name__ == "__main__":
    main()
