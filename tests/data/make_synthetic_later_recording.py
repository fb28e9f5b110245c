#!/usr/bin/env python3
"""Writes tests/data/synthetic_h200_later.json: a SYNTHETIC second recording for the tests of
several open recordings (Compare, the Kernels chart, tclens compare). It is DERIVED from the
shipped assets/recordings/h200.json.gz, not measured, and is never installed or shipped: the real
second recording is made on a GPU with `tclens record`.

It stands for "the same H200 later that day, after a change that made every ladder rung 10 %
faster": the date is 2026-11-30 15:00 UTC, every rung's bench times are x 0.9 (TFLOP/s, % of cuBLAS and
% of peak / 0.9), the cuBLAS rows, peaks and profiles are the shipped ones, and the PM timelines,
source profiles and warp traces are left out (size). It says so wherever it shows: the file name, the command field, and the GPU
name, which every caption and Compare label ("GPU, date") prints.

    python3 tests/data/make_synthetic_later_recording.py
"""
import gzip
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SHIPPED = os.path.join(HERE, "..", "..", "assets", "recordings", "h200.json.gz")
OUT = os.path.join(HERE, "synthetic_h200_later.json")
SPEEDUP = 0.9  # times x 0.9

with gzip.open(SHIPPED, "rt") as f:
    recording = json.load(f)
recording["created_utc"] = "2026-11-30T15:00:00Z"
recording["command"] = ("SYNTHETIC TEST DATA, not measured: assets/recordings/h200.json.gz with every "
                        "ladder rung's bench times x 0.9 (tests/data/make_synthetic_later_recording.py)")
for device in recording["system"]["devices"]:
    device["name"] = "SYNTHETIC (not measured)"  # short: it heads a Compare column
for row in recording["bench"]:
    if row["rung"] == 0 or not row["verified"] or not row["timed_runs"]:
        continue
    for key in ("median_ms", "min_ms", "max_ms"):
        row[key] *= SPEEDUP
    for key in ("tflops", "pct_of_cublas", "pct_of_peak"):
        if row[key] is not None:
            row[key] /= SPEEDUP
recording["timelines"] = []
for part in ("sources", "traces"):
    if part in recording:
        recording[part] = []
        recording[part + "_missing"] = "left out of this synthetic test fixture (size)"
with open(OUT, "w") as f:
    json.dump(recording, f, indent=None, separators=(",", ":"), sort_keys=True)
    f.write("\n")
