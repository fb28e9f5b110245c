#!/usr/bin/env python3
"""Session 29's sweep numbers for its tile rules, seeds 1-3, by composition: session 28's
composition of each seed (../2026-12-01_h200_session28/composite.py: session 27's sweeps with the
shapes session 28's rules moved benched again), with the rows of the 22 shapes session 29's rules
move (moved_sweep_shapes.txt: `tclens kernels --mnk` before and after on every shape of the three
seeds) replaced by call 7's bench of them on the new rules (call7/moved_sweep_shapes_tclens.json.gz,
rung 14 and same-run cuBLAS, verified first). Call 7 benched the same shapes on the previous rules
in the same run too (..._tclens_old.json.gz): their geometric mean there is printed beside the
composed rows' one, a check that the older rows are of the same scale. Prints, per seed, the
shapes, the moved ones, geomean and minimum of rung 14's ratio to cuBLAS, then the worst ten.

    python3 composite.py   (from this folder)"""
import gzip
import json
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "../2026-12-01_h200_session28"))
os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../2026-12-01_h200_session28"))
import composite as s28  # noqa: E402  (session 28's composition; its folder is the working one)

HERE = "../2026-12-01_h200_session29"


def ratios(path):
    rows = json.load(gzip.open(path))["results"]
    return {(r["m"], r["n"], r["k"]): r["pct_of_cublas"] / 100 for r in rows
            if r["kernel"] == "dispatch.bf16" and r.get("verified") and r.get("pct_of_cublas")}


def geomean(values):
    values = list(values)
    return math.exp(sum(math.log(v) for v in values) / len(values))


moved_shapes = {tuple(int(x) for x in line.split("x"))
                for line in open(f"{HERE}/moved_sweep_shapes.txt") if line.strip()}
new = ratios(f"{HERE}/call7/moved_sweep_shapes_tclens.json.gz")
old = ratios(f"{HERE}/call7/moved_sweep_shapes_tclens_old.json.gz")
assert moved_shapes <= set(new), "call 7 benched every moved shape"
worst, geomeans, minima = [], [], []
print("| seed | shapes | moved | geomean | minimum | moved: composed rows / call 7 old / new |")
print("|---|---|---|---|---|---|")
for seed in s28.SEEDS:
    rows, _ = s28.composed(seed)
    hits = [key for key in rows if key in moved_shapes]
    merged = {key: new[key] if key in hits else value for key, value in rows.items()}
    g, m = geomean(merged.values()), min(merged.values())
    geomeans.append(g)
    minima.append(m)
    print(f"| {seed} | {len(merged)} | {len(hits)} | {g:.3f} | {m:.3f} | "
          f"{geomean(rows[k] for k in hits):.3f} / {geomean(old[k] for k in hits):.3f} / "
          f"{geomean(new[k] for k in hits):.3f} |")
    worst += [(v, "%dx%dx%d" % key, seed, "session 29" if key in hits else "earlier")
              for key, v in merged.items()]
print(f"\nMedian over 3 seeds: geomean **{statistics.median(geomeans):.3f}**, minimum "
      f"**{statistics.median(minima):.3f}**.\n")
print("| ratio | M x N x K | seed | row from |\n|---|---|---|---|")
for v, mnk, seed, source in sorted(worst)[:10]:
    print(f"| {v:.3f} | {mnk} | {seed} | {source} |")
