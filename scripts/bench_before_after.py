#!/usr/bin/env python3
"""Before/after table of `tclens bench --json` runs of two builds made in one GPU session.

  scripts/bench_before_after.py OLD1.json [OLD2.json ...] -- NEW1.json [NEW2.json ...]

Per kernel: TFLOP/s of every run of each build, % of same-run cuBLAS (first run of each), the
change of the medians, and whether every run verified. Prints a Markdown table."""
import json
import statistics
import sys


def load(paths):
    return [{r["kernel"]: r for r in json.load(open(p))["results"]} for p in paths]


def main(argv):
    if "--" not in argv:
        sys.exit("usage: bench_before_after.py OLD.json... -- NEW.json...")
    split = argv.index("--")
    old, new = load(argv[:split]), load(argv[split + 1:])
    if not old or not new:
        sys.exit("bench_before_after: give at least one run of each build")
    cells = lambda runs, k: " / ".join(f"{r[k]['tflops']:.1f}" for r in runs)
    print("| kernel | before TFLOP/s | after TFLOP/s | before %cuBLAS | after %cuBLAS | change of medians | verified |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for k in old[0]:
        med_old = statistics.median(r[k]["tflops"] for r in old)
        med_new = statistics.median(r[k]["tflops"] for r in new)
        pct = lambda runs: runs[0][k].get("pct_of_cublas")
        fmt = lambda v: "-" if v is None else f"{v:.1f} %"
        verified = all(r[k]["verified"] for r in old + new)
        print(f"| {k} | {cells(old, k)} | {cells(new, k)} | {fmt(pct(old))} | {fmt(pct(new))} | "
              f"{100 * (med_new - med_old) / med_old:+.2f} % | {'yes' if verified else 'NO'} |")


if __name__ == "__main__":
    main(sys.argv[1:])
