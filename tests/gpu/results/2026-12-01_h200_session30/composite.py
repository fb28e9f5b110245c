#!/usr/bin/env python3
"""Session 30's sweep numbers for its tile rule, seeds 1-3, by composition: session 29's
composition of each seed (../2026-12-01_h200_session29/composite.py: session 28's, with the rows
of the shapes session 29's rules moved), with the rows of the 139 shapes session 30's rule moves
(moved_sweep_shapes.txt: `tclens kernels --mnk` before and after on every shape of the three seeds)
replaced by call 3's bench of them on the new rule (the mean of its two passes, rung 14 and
same-run cuBLAS, verified first). Call 3 benched them on the previous rules in the same call as
well: their geometric mean there is printed beside the composed rows' one, a check that the older
rows are of the same scale. Prints, per seed, the shapes, the moved ones, geomean and minimum of
rung 14's ratio to cuBLAS, then the worst ten.

    python3 composite.py   (from this folder)"""
import gzip
import json
import math
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
S29 = os.path.join(HERE, "../2026-12-01_h200_session29")
S28 = os.path.join(HERE, "../2026-12-01_h200_session28")
sys.path.insert(0, S28)
os.chdir(S28)
import composite as s28  # noqa: E402  (session 28's composition; its folder is the working one)


def ratios(paths):
    out = {}
    for path in paths:
        for r in json.load(gzip.open(path))["results"]:
            if r["kernel"] == "dispatch.bf16" and r.get("verified") and r.get("pct_of_cublas"):
                out.setdefault((r["m"], r["n"], r["k"]), []).append(r["pct_of_cublas"] / 100)
    return {key: sum(v) / len(v) for key, v in out.items()}


def shapes(path):
    return {tuple(int(x) for x in line.split("x")) for line in open(path) if line.strip()}


def geomean(values):
    values = list(values)
    return math.exp(sum(math.log(v) for v in values) / len(values))


moved29 = shapes(f"{S29}/moved_sweep_shapes.txt")
new29 = ratios([f"{S29}/call7/moved_sweep_shapes_tclens.json.gz"])
moved30 = shapes(f"{HERE}/moved_sweep_shapes.txt")
call3 = f"{HERE}/call3/moved_sweep_shapes"
new30 = ratios([f"{call3}_tclens_{p}.json.gz" for p in (1, 2)])
old30 = ratios([f"{call3}_tclens_old_{p}.json.gz" for p in (1, 2)])
assert moved30 <= set(new30), "call 3 benched every moved shape"
worst, geomeans, minima = [], [], []
print("| seed | shapes | moved | geomean | minimum | moved: composed rows / call 3 old / new |")
print("|---|---|---|---|---|---|")
for seed in s28.SEEDS:
    rows, _ = s28.composed(seed)
    rows = {key: new29[key] if key in moved29 else value for key, value in rows.items()}
    hits = [key for key in rows if key in moved30]
    merged = {key: new30[key] if key in moved30 else value for key, value in rows.items()}
    g, m = geomean(merged.values()), min(merged.values())
    geomeans.append(g)
    minima.append(m)
    print(f"| {seed} | {len(merged)} | {len(hits)} | {g:.3f} | {m:.3f} | "
          f"{geomean(rows[k] for k in hits):.3f} / {geomean(old30[k] for k in hits):.3f} / "
          f"{geomean(new30[k] for k in hits):.3f} |")
    worst += [(v, "%dx%dx%d" % key, seed, "session 30" if key in moved30 else "earlier")
              for key, v in merged.items()]
print(f"\nMedian over 3 seeds: geomean **{statistics.median(geomeans):.3f}**, minimum "
      f"**{statistics.median(minima):.3f}**.\n")
print("| ratio | M x N x K | seed | row from |\n|---|---|---|---|")
for v, shape, seed, source in sorted(worst)[:10]:
    print(f"| {v:.3f} | {shape} | {seed} | {source} |")
