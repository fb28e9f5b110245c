#!/usr/bin/env python3
"""Sums up the sweeps of several seeds (`tclens bench --sweep N --seed S --json`, plain or .gz)
the way issue 34 asks for them: per seed the shapes, the geometric mean and the minimum of the
best kernel's ratio to same-run cuBLAS (the bench's own "sweep" summary), then the median of those
over the seeds, the same per class of shape (aligned or padded: N or K not a multiple of 8; M or
N at most 64; K under 128), and the worst shapes of all seeds with the tile model's reasons and
what a kernel that chooses per shape (rung 14) ran there.

    scripts/sweep_seeds.py sweep_seed1.json.gz sweep_seed2.json.gz sweep_seed3.json.gz

Prints markdown. A file without a "sweep" summary (a bench cut short prints none) is named and
left out."""
import gzip
import json
import math
import statistics
import sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def classes(m, n, k):
    """The classes a shape belongs to (one shape may be in several)."""
    out = ["padded" if n % 8 or k % 8 else "aligned"]
    if m <= 64:
        out.append("M <= 64")
    if n <= 64:
        out.append("N <= 64")
    if k < 128:
        out.append("K < 128")
    return out


def main(paths):
    seeds = []
    for path in paths:
        try:
            report = load(path)
        except (OSError, ValueError) as e:
            sys.exit(f"sweep_seeds.py: cannot read {path} as a bench JSON: {e}")
        if not isinstance(report, dict) or "sweep" not in report:
            print(f"{path}: no sweep summary (cut short?), left out")
            continue
        seeds.append((path, report))
    if not seeds:
        sys.exit("sweep_seeds.py: no sweep summary in the files given")

    print("| seed | file | shapes run | geomean | minimum |")
    print("|---|---|---|---|---|")
    per_class = {}
    worst = []
    for path, report in seeds:
        s = report["sweep"]
        print(f"| {report.get('seed', '?')} | {path} | {s['shapes_run']} of {s['shapes']} | "
              f"{s['geomean']:.3f} | {s['minimum']:.3f} |")
        worst += [(w["ratio"], w["mnk"], w["best"], w["reason"], report.get("seed", "?"),
                   w.get("plan", ""))  # what rung 14 chose (benches since session 22)
                  for w in s["worst"] if w.get("ratio") is not None]
        best = {}
        for r in report["results"]:
            if r["kernel"].startswith("cublas"):
                continue  # the reference itself
            if r.get("verified") and r.get("pct_of_cublas"):
                key = (r["m"], r["n"], r["k"])
                best[key] = max(best.get(key, 0), r["pct_of_cublas"] / 100)
        for (m, n, k), ratio in best.items():
            for c in classes(m, n, k):
                per_class.setdefault(c, {}).setdefault(path, []).append(ratio)
    geomeans = [r["sweep"]["geomean"] for _, r in seeds]
    minima = [r["sweep"]["minimum"] for _, r in seeds]
    print(f"\nMedian over {len(seeds)} seeds: geomean **{statistics.median(geomeans):.3f}**, "
          f"minimum **{statistics.median(minima):.3f}**.\n")

    print("| class | shapes (all seeds) | geomean (median of seeds) | minimum (median of seeds) |")
    print("|---|---|---|---|")
    for c in sorted(per_class):
        by_seed = per_class[c].values()
        count = sum(len(v) for v in by_seed)
        print(f"| {c} | {count} | {statistics.median(geomean(v) for v in by_seed):.3f} | "
              f"{statistics.median(min(v) for v in by_seed):.3f} |")

    print("\nWorst shapes of all seeds:\n")
    print("| ratio | M x N x K | seed | best kernel | reason (tile model) | what it ran |")
    print("|---|---|---|---|---|---|")
    for ratio, mnk, best, reason, seed, plan in sorted(worst)[:10]:
        print(f"| {ratio:.3f} | {mnk} | {seed} | {best} | {reason} | {plan or '-'} |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
