#!/usr/bin/env python3
"""Session 30, calls 3 and 5: rung 14 on the new rules (tclens) against the previous ones (tclens_old),
benched in one call, two passes each (new, old, old, new): per shape set the geometric mean and
minimum of % of cuBLAS over the shapes both verified, each shape's ratio the median (mean of two)
of its passes; then each shape old -> new.

    python3 old_new.py FOLDER [SET ...]   (a call's unpacked files; the shape sets, by default
    moved_sweep_shapes and validation_shapes: files SET_tclens[_old]_{1,2}.json.gz)"""
import gzip
import json
import math
import os
import sys

folder = sys.argv[1]


def ratios(name):
    out = {}
    for pass_ in (1, 2):
        path = os.path.join(folder, f"{name}_{pass_}.json.gz")
        if not os.path.exists(path):
            continue
        try:
            rows = json.load(gzip.open(path))["results"]
        except Exception:
            continue
        for x in rows:
            if x["kernel"] == "dispatch.bf16" and x.get("verified") and x.get("pct_of_cublas"):
                out.setdefault((x["m"], x["n"], x["k"]), []).append(x["pct_of_cublas"] / 100)
    return {k: sum(v) / len(v) for k, v in out.items()}


def geomean(values):
    values = list(values)
    return math.exp(sum(math.log(v) for v in values) / len(values))


for shape_set in sys.argv[2:] or ("moved_sweep_shapes", "validation_shapes"):
    new, old = ratios(f"{shape_set}_tclens"), ratios(f"{shape_set}_tclens_old")
    both = [s for s in new if s in old]
    if not both:
        print(shape_set, "no shapes in both")
        continue
    gained = sum(1 for s in both if new[s] > old[s])
    print(f"{shape_set}: {len(both)} shapes, old {geomean(old[s] for s in both):.3f} -> new "
          f"{geomean(new[s] for s in both):.3f} (geometric mean), minimum {min(old[s] for s in both):.3f}"
          f" -> {min(new[s] for s in both):.3f}; {gained} gained, {len(both) - gained} lost")
    print("  " + " ".join("%dx%dx%d %.2f->%.2f" % (s + (old[s], new[s]))
                          for s in sorted(both, key=lambda s: new[s] / old[s])))
