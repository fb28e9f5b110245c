#!/usr/bin/env python3
"""Session 30's sweep numbers for its tile rules, seeds 1-3, by composition: session 29's
composition of each seed (../2026-12-01_h200_session29/composite.py: session 28's, with the rows
of the shapes session 29's rules moved), with the rows of the 139 shapes session 30's first rule
moves (moved_sweep_shapes.txt: `tclens kernels --mnk` before and after on every shape of the three
seeds) replaced by call 3's bench of them on that rule, then those of the 153 shapes its final
rules move from there (moved_sweep_shapes_final.txt; each runs the configuration call 5 benched
it in: call 5's rules moved 187, of which the final bound of K < 512 returns 34) by call 5's
bench, then those of the 12 the narrow-N rule moves (moved_sweep_shapes_narrow.txt: N < 64, the
configuration call 7 benched) by call 7's (each the mean of two passes, rung 14 and same-run
cuBLAS, verified first). Calls 3, 5 and 7
benched their shapes on the rules before as well, in the same call: that geometric mean is printed
beside the composed rows' one, a check that the older rows are of the same scale. Prints, per
seed, the shapes, the moved ones, geomean and minimum of rung 14's ratio to cuBLAS, then the worst
ten.

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
moved_final = shapes(f"{HERE}/moved_sweep_shapes_final.txt")
call5 = f"{HERE}/call5/moved_sweep_shapes_call5"
new_final = ratios([f"{call5}_tclens_{p}.json.gz" for p in (1, 2)])
old_final = ratios([f"{call5}_tclens_old_{p}.json.gz" for p in (1, 2)])
assert moved_final <= set(new_final), "call 5 benched every shape the final rules move"
moved_narrow = shapes(f"{HERE}/moved_sweep_shapes_narrow.txt")
call7 = f"{HERE}/call7/moved_sweep_shapes_call7"
new_narrow = ratios([f"{call7}_tclens_{p}.json.gz" for p in (1, 2)])
assert moved_narrow <= set(new_narrow), "call 7 benched every shape the narrow-N rule moves"
worst, geomeans, minima = [], [], []
print("| seed | shapes | moved (call 3 / 5 / 7) | geomean | minimum | moved by call 3's rule: composed "
      "rows / call 3 old / new | by the final rules: call 5 old / new |")
print("|---|---|---|---|---|---|---|")
for seed in s28.SEEDS:
    rows, _ = s28.composed(seed)
    rows = {key: new29[key] if key in moved29 else value for key, value in rows.items()}
    hits = [key for key in rows if key in moved30]
    merged = {key: new30[key] if key in moved30 else value for key, value in rows.items()}
    hits_final = [key for key in rows if key in moved_final]
    merged = {key: new_final[key] if key in moved_final else value
              for key, value in merged.items()}
    hits_narrow = [key for key in rows if key in moved_narrow]
    merged = {key: new_narrow[key] if key in moved_narrow else value
              for key, value in merged.items()}
    g, m = geomean(merged.values()), min(merged.values())
    geomeans.append(g)
    minima.append(m)
    print(f"| {seed} | {len(merged)} | {len(hits)} / {len(hits_final)} / {len(hits_narrow)} | {g:.3f} | {m:.3f} | "
          f"{geomean(rows[k] for k in hits):.3f} / {geomean(old30[k] for k in hits):.3f} / "
          f"{geomean(new30[k] for k in hits):.3f} | {geomean(old_final[k] for k in hits_final):.3f}"
          f" / {geomean(new_final[k] for k in hits_final):.3f} |")
    source = {key: "session 30, call 7" if key in moved_narrow else
              "session 30, call 5" if key in moved_final else
              "session 30, call 3" if key in moved30 else "earlier" for key in merged}
    worst += [(v, "%dx%dx%d" % key, seed, source[key]) for key, v in merged.items()]
print(f"\nMedian over 3 seeds: geomean **{statistics.median(geomeans):.3f}**, minimum "
      f"**{statistics.median(minima):.3f}**.\n")
print("| ratio | M x N x K | seed | row from |\n|---|---|---|---|")
for v, shape, seed, source in sorted(worst)[:10]:
    print(f"| {v:.3f} | {shape} | {seed} | {source} |")
