#!/usr/bin/env python3
"""Session 28's sweep numbers for seeds 2 and 3 (and 1, beside call 3's full sweep of it), by
composition: session 27's sweep of the seed (the same 1000 shapes: a seed draws the same shapes),
with the rows of the shapes this session's rules move replaced by call 3's bench of those shapes
(call3/moved.json.gz, rung 14 and same-run cuBLAS, verified first). The other shapes run the same
kernels as in session 27. Prints, per seed, the shapes, geomean and minimum of rung 14's ratio to
cuBLAS (composite), then the worst ten of all seeds with where each row comes from.

    python3 composite.py   (from this folder)"""
import gzip
import json
import math
import statistics

S27 = "../2026-12-01_h200_session27"
SEEDS = {1: f"{S27}/call2/sweep1000_seed1.json.gz", 2: f"{S27}/call3/sweep1000_seed2.json.gz",
         3: f"{S27}/call3/sweep1000_seed3.json.gz"}


def ratios(path):
    rows = json.load(gzip.open(path))["results"]
    return {(r["m"], r["n"], r["k"]): r["pct_of_cublas"] / 100 for r in rows
            if r["kernel"] == "dispatch.bf16" and r.get("verified") and r.get("pct_of_cublas")}


moved = ratios("call3/moved.json.gz")
worst = []
geomeans, minima = [], []
print("| seed | shapes | moved | geomean | minimum |\n|---|---|---|---|---|")
for seed, path in SEEDS.items():
    rows = ratios(path)
    hits = [key for key in rows if key in moved]
    merged = {key: moved.get(key, value) for key, value in rows.items()}
    g = math.exp(sum(math.log(v) for v in merged.values()) / len(merged))
    m = min(merged.values())
    geomeans.append(g)
    minima.append(m)
    print(f"| {seed} | {len(merged)} | {len(hits)} | {g:.3f} | {m:.3f} |")
    worst += [(v, "%dx%dx%d" % key, seed, "session 28" if key in moved else "session 27")
              for key, v in merged.items()]
print(f"\nMedian over 3 seeds: geomean **{statistics.median(geomeans):.3f}**, minimum "
      f"**{statistics.median(minima):.3f}**.\n")
print("| ratio | M x N x K | seed | row from |\n|---|---|---|---|")
for v, mnk, seed, source in sorted(worst)[:10]:
    print(f"| {v:.3f} | {mnk} | {seed} | {source} |")
