#!/usr/bin/env python3
"""Writes the worker results that tests/data/scripted_worker.sh answers with when
SCRIPTED_BENCH / SCRIPTED_EXERCISE name them, for the GUI's CPU ui tests of kernels of yours
(tests/ui/user_kernels_test.cpp). They are fixtures, not measurements:
  worker_bench_wrong_block.json  bench of yours.scripted at 64x64x64: not verified, its error map
                                 per element with every 16x16 tile off the diagonal wrong (what
                                 examples/wrong_block_offset.cu does)
  worker_exercise_planted.json   exercise of mma.m16n8k8.tf32 with a1 and a2 swapped (what
                                 examples/exercise_mma_planted_bug.cu does): 64 A elements wrong
  worker_bench_good.json         bench of yours.scripted at 64x64x64: verified, 0.04 TFLOP/s,
                                 beside its cublas.sgemm (0.05)
  worker_profile_good.json       profile of yours.scripted at 64x64x64: the shipped recording's
                                 first profile (assets/recordings/h200.json.gz) renamed and resized
Run from the repository root: python3 tests/data/make_user_fixtures.py"""
import gzip
import json

side = 64
cells = []
wrong = 0
for r in range(side):
    for c in range(side):
        bad = (r // 16) != (c // 16)
        wrong += bad
        cells.append([1, 1 if bad else 0, 0])


def row(kernel, verified, tflops):
    return {"cublas_id": "cublas.sgemm", "error": None, "error_bound": 0.01, "input_sets": 4,
            "k": side, "kernel": kernel, "m": side, "max_ms": 0.02 if verified else None,
            "median_ms": 0.01 if verified else None, "min_ms": 0.01 if verified else None,
            "n": side, "nan_count": 0, "pct_of_cublas": None, "pct_of_peak": None,
            "precision": "f32", "reference": "cpu.fp64", "reference_rel_rms": None,
            "rel_rms_error": 1e-06 if verified else 0.9, "rung": 0, "skipped": None,
            "speedup_vs_sgemm": None, "tflops": tflops, "timed_runs": 30 if verified else 0,
            "verified": verified}


error_map = {"rows": side, "cols": side, "cell_rows": 1, "cell_cols": 1, "granularity": "element",
             "grid_rows": side, "grid_cols": side, "cells": cells, "wrong": wrong, "nan": 0,
             "tolerance": 0.04, "first_wrong": {"row": 0, "col": 16, "expected": 1.5, "got": -0.25}}
bench = {"report": {"instruction_peaks": [], "peak_error": "not measured", "peaks": [],
                    "results": [row("yours.scripted", False, None),
                                row("cublas.sgemm", True, 0.05)]},
         "runs": [{"kernel": "yours.scripted", "problem": "64x64x64", "verify_ms": 3.0,
                   "time_ms": 0.0, "out_of_bounds": "", "error_map": error_map},
                  {"kernel": "cublas.sgemm", "problem": "64x64x64", "verify_ms": 2.0,
                   "time_ms": 1.0, "out_of_bounds": "", "error_map": None}]}

good = {"report": {"instruction_peaks": [], "peak_error": "not measured", "peaks": [],
                   "results": [row("yours.scripted", True, 0.04),
                               row("cublas.sgemm", True, 0.05)]},
        "runs": [{"kernel": "yours.scripted", "problem": "64x64x64", "verify_ms": 3.0,
                  "time_ms": 1.0, "out_of_bounds": "", "error_map": None},
                 {"kernel": "cublas.sgemm", "problem": "64x64x64", "verify_ms": 2.0,
                  "time_ms": 1.0, "out_of_bounds": "", "error_map": None}]}
good["report"]["results"][0]["pct_of_cublas"] = 80.0

with gzip.open("assets/recordings/h200.json.gz", "rt") as f:
    profile = json.load(f)["profiles"][0]
profile.update({"kernel": "yours.scripted", "m": side, "n": side, "k": side})

# mma.m16n8k8.tf32 (PTX ISA): lane = 4g + q.
def a_slot(r, c):  # A 16x8: a0 (g, q), a1 (g+8, q), a2 (g, q+4), a3 (g+8, q+4)
    return 4 * (r % 8) + c % 4, (r // 8) + 2 * (c // 4)

def b_slot(r, c):  # B 8x8: b0 (q, g), b1 (q+4, g)
    return 4 * c + r % 4, r // 4

def c_slot(r, c):  # C 16x8: c0 (g, 2q), c1 (g, 2q+1), c2 (g+8, 2q), c3 (g+8, 2q+1)
    return 4 * (r % 8) + c // 2, 2 * (r // 8) + c % 2


def operand(name, rows, cols, slot):
    elements = []
    bad = 0
    for r in range(rows):
        for c in range(cols):
            lane, reg = slot(r, c)
            went = None
            if name == "A" and reg == 2:
                went = (r + 8, c - 4)
            elif name == "A" and reg == 1:
                went = (r - 8, c + 4)
            e = {"row": r, "col": c, "lane": lane, "reg": reg, "sub": 0, "correct": went is None,
                 "went_row": went[0] if went else -1, "went_col": went[1] if went else -1,
                 "outcome": "went to (%d, %d)" % went if went else ""}
            bad += went is not None
            elements.append(e)
    return {"operand": name, "rows": rows, "cols": cols, "wrong": bad, "elements": elements}


ops = [operand("A", 16, 8, a_slot), operand("B", 8, 8, b_slot), operand("C", 16, 8, c_slot)]
exercise = {"summary": "64 of 128 A elements, 0 of 64 B elements, 0 of 128 C elements wrong; "
                       "first: A (0, 4) went to (8, 0)",
            "layout_id": "mma.m16n8k8.tf32", "function": "mma_16x8x8_kernel",
            "product_correct": False, "wrong": 64, "operands": ops}

with open("tests/data/worker_bench_wrong_block.json", "w") as f:
    f.write(json.dumps(bench, separators=(",", ":")) + "\n")
with open("tests/data/worker_bench_good.json", "w") as f:
    f.write(json.dumps(good, separators=(",", ":")) + "\n")
with open("tests/data/worker_profile_good.json", "w") as f:
    f.write(json.dumps({"profile": profile}, separators=(",", ":")) + "\n")
with open("tests/data/worker_exercise_planted.json", "w") as f:
    f.write(json.dumps(exercise, separators=(",", ":")) + "\n")
