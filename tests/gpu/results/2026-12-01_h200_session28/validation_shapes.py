#!/usr/bin/env python3
"""Call 4's fresh shapes (random.Random(28), drawn after the rules were set): the classes session
28's short-K rules decide, none of them a shape the rules were fitted on. A: N odd, K = 129-448,
at least 66 of the short-K GEMM's 128 x 128 tiles; B: N or K not a multiple of 8, K = 65-128,
1-65 tiles; C: N odd, K = 129-384, 1-65 tiles; D: as B over K = 65-96 and 17-65 tiles (the
short-K GEMM's side of the few-tiles rule). Prints them, space-separated."""
import random

rng = random.Random(28)


def tiles(m, n):
    return ((m + 127) // 128) * ((n + 127) // 128)


def draw(count, ok, k_range, n_odd):
    out = []
    while len(out) < count:
        m = int(2 ** rng.uniform(4, 14))
        n = int(2 ** rng.uniform(4, 14))
        if n_odd:
            n |= 1
        k = rng.randint(*k_range)
        if (n % 8 or k % 8) and ok(tiles(m, n)):
            out.append(f"{m}x{n}x{k}")
    return out


shapes = (draw(12, lambda t: t >= 66, (129, 448), True) +
          draw(16, lambda t: t <= 65, (65, 128), False) +
          draw(4, lambda t: t <= 65, (129, 384), True) +
          draw(4, lambda t: 17 <= t <= 65, (65, 96), False))
print(" ".join(shapes))
