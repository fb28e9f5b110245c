#!/usr/bin/env python3
"""Session 28's sweep numbers for the final rules, seeds 1-3, by composition: session 27's sweep
of the seed (the same 1000 shapes: a seed draws the same shapes), with the rows of the shapes the
final rules move (moves(), below: session 27's rule against the final one; call 3 benched every
shape its first rules moved, which include these, on the configuration the final rules pick)
replaced by call 3's bench of them (call3/moved.json.gz, rung 14 and same-run cuBLAS, verified
first). The other shapes run the same kernels as in session 27. Prints, per seed, the shapes,
the moved ones, geomean and minimum of rung 14's ratio to cuBLAS (composite), then the worst ten
of all seeds with where each row comes from.

    python3 composite.py   (from this folder)"""
import gzip
import json
import math
import statistics

S27 = "../2026-12-01_h200_session27"
SEEDS = {1: f"{S27}/call2/sweep1000_seed1.json.gz", 2: f"{S27}/call3/sweep1000_seed2.json.gz",
         3: f"{S27}/call3/sweep1000_seed3.json.gz"}


def moves(m, n, k, sms=132):
    """Whether rung 14 runs the short-K GEMM on one side of session 28's change and not on the
    other (kernels/dispatch_rules.cpp: choose_dispatch, its first lines)."""
    tiles = ((m + 127) // 128) * ((n + 127) // 128)
    padded = n % 8 != 0 or k % 8 != 0
    in_place = n % 4 == 0 and n > 128 and tiles >= 1024
    before = padded and k <= 128 and not in_place
    few = k > 64 and 2 * tiles < sms and (8 * tiles <= sms or k > 96)
    after = padded and (k <= 128 or (n % 2 == 1 and k <= 384)) and not in_place and not few
    return before != after


def ratios(path):
    rows = json.load(gzip.open(path))["results"]
    return {(r["m"], r["n"], r["k"]): r["pct_of_cublas"] / 100 for r in rows
            if r["kernel"] == "dispatch.bf16" and r.get("verified") and r.get("pct_of_cublas")}


def composed(seed):
    """Seed `seed`'s rows as this session composes them: {(m, n, k): ratio to cuBLAS}, and the
    shapes whose rows come from call 3."""
    moved = ratios("call3/moved.json.gz")
    rows = ratios(SEEDS[seed])
    hits = [key for key in rows if moves(*key)]
    assert all(key in moved for key in hits), "call 3 benched every shape the final rules move"
    return {key: moved[key] if key in hits else value for key, value in rows.items()}, hits


if __name__ == "__main__":
    worst = []
    geomeans, minima = [], []
    print("| seed | shapes | moved | geomean | minimum |\n|---|---|---|---|---|")
    for seed in SEEDS:
        merged, hits = composed(seed)
        g = math.exp(sum(math.log(v) for v in merged.values()) / len(merged))
        m = min(merged.values())
        geomeans.append(g)
        minima.append(m)
        print(f"| {seed} | {len(merged)} | {len(hits)} | {g:.3f} | {m:.3f} |")
        worst += [(v, "%dx%dx%d" % key, seed, "session 28" if key in hits else "session 27")
                  for key, v in merged.items()]
    print(f"\nMedian over 3 seeds: geomean **{statistics.median(geomeans):.3f}**, minimum "
          f"**{statistics.median(minima):.3f}**.\n")
    print("| ratio | M x N x K | seed | row from |\n|---|---|---|---|")
    for v, mnk, seed, source in sorted(worst)[:10]:
        print(f"| {v:.3f} | {mnk} | {seed} | {source} |")
