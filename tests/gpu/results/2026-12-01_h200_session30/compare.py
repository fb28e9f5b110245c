#!/usr/bin/env python3
"""Session 30, call 1: dispatch_candidates of the committed rung 9 kernel (candidates.md) against
its two- and three-consumer variants (candidates_p2.md, candidates_p3.md): per shape, rung 14's
choice and the best configuration in each; per tile family, the geometric mean of each variant's
% of cuBLAS over the base's, configuration by configuration.

    python3 compare.py FOLDER   (the call's unpacked files; .md or .md.gz)"""
import gzip
import math
import os
import re
import sys


def table(path):
    opener = gzip.open if not os.path.exists(path) else open
    path = path if os.path.exists(path) else path + ".gz"
    rows = {}
    for line in opener(path, "rt"):
        f = [x.strip() for x in line.strip().strip("|").split("|")]
        if len(f) < 4 or f[0] in ("shape", "---") or f[3] in ("-", ""):
            continue
        name = "rung 14" if f[1].startswith("rung 14") else f[1]
        rows[(f[0], name)] = float(f[3])
    return rows


folder = sys.argv[1]
base = table(os.path.join(folder, "candidates.md"))
variants = {v: table(os.path.join(folder, f"candidates_{v}.md")) for v in ("p2", "p3")}
shapes = list(dict.fromkeys(s for s, _ in base))
print("| shape | rung 14 base / p2 / p3 | best base | best p2 | best p3 |")
print("|---|---|---|---|---|")
for s in shapes:
    def best(rows):
        got = [(v, k[1]) for k, v in rows.items() if k[0] == s and k[1] not in ("cuBLAS",)]
        return max(got) if got else (0, "-")
    cells = [best(base)] + [best(variants[v]) for v in ("p2", "p3")]
    r14 = " / ".join("%.1f" % rows.get((s, "rung 14"), 0) for rows in [base] + list(variants.values()))
    print(f"| {s} | {r14} | " + " | ".join("%.1f %s" % (v, n.replace("rung 9 ", "")) for v, n in cells) + " |")
print()
families = {}
for (s, name), v in base.items():
    m = re.match(r"rung 9 (\S+( deep)?)", name)
    if not m:
        continue
    for var, rows in variants.items():
        if (s, name) in rows:
            families.setdefault((m.group(1), var), []).append(rows[(s, name)] / v)
print("| tile | variant | configurations | geomean of variant / base | min | max |")
print("|---|---|---|---|---|---|")
for (fam, var), ratios in sorted(families.items()):
    g = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    print(f"| {fam} | {var} | {len(ratios)} | {g:.3f} | {min(ratios):.2f} | {max(ratios):.2f} |")
