#!/usr/bin/env python3
"""Merges several runs of one `tclens bench --json` command (each with its own --seed, so fresh
inputs) into one bench JSON whose numbers are the median over the runs: what the ladder's targets
ask for ("median of >= 3 runs of the preset").

    scripts/bench_median.py OUT.json RUN1.json RUN2.json RUN3.json

Per result (kernel and size): verified only if verified in every run; then tflops, median_ms,
pct_of_cublas, pct_of_peak and speedup_vs_sgemm are the medians of the runs' values (each run's
ratio is against the cuBLAS of that same run), rel_rms_error the largest, and `runs` lists each
run's tflops and pct_of_cublas. A result not verified in some run keeps that run's row (its error
or skip). Peaks are the median per precision. The runs must have the same kernels and sizes in the
same order, and the same device; the output has the keys of a bench JSON (scripts/bench_table.py
reads it) plus `median_of_runs` (how many) and `seeds`.
"""
import json
import os
import statistics
import sys

MEDIAN_KEYS = ("tflops", "median_ms", "pct_of_cublas", "pct_of_peak", "speedup_vs_sgemm")


def fail(message):
    sys.exit(f"bench_median.py: {message}")


def median_or_none(values):
    present = [v for v in values if v is not None]
    return statistics.median(present) if len(present) == len(values) else None


def merge_rows(rows):
    first = rows[0]
    failed = next((r for r in rows if not r.get("verified")), None)
    if failed is not None:
        return dict(failed)
    merged = dict(first)
    for key in MEDIAN_KEYS:
        merged[key] = median_or_none([r.get(key) for r in rows])
    errors = [r.get("rel_rms_error") for r in rows if r.get("rel_rms_error") is not None]
    merged["rel_rms_error"] = max(errors) if errors else None
    merged["min_ms"] = min(r["min_ms"] for r in rows)
    merged["max_ms"] = max(r["max_ms"] for r in rows)
    merged["runs"] = [{"tflops": r.get("tflops"), "pct_of_cublas": r.get("pct_of_cublas")}
                      for r in rows]
    return merged


def merge_peaks(runs):
    by_precision = {}
    for run in runs:
        for peak in run.get("peaks") or []:
            by_precision.setdefault(peak["precision"], []).append(peak)
    merged = []
    for precision, peaks in by_precision.items():
        if len(peaks) != len(runs):
            continue  # measured in some runs only: left out, as an unmeasured peak is
        entry = dict(peaks[0])
        entry["tflops"] = statistics.median(p["tflops"] for p in peaks)
        merged.append(entry)
    return merged


def merge(runs, names):
    key = lambda r: (r["kernel"], r["m"], r["n"], r["k"])
    first_keys = [key(r) for r in runs[0]["results"]]
    for run, name in zip(runs[1:], names[1:]):
        if [key(r) for r in run["results"]] != first_keys:
            fail(f"'{name}' has other kernels or sizes than '{names[0]}': merge runs of one command")
        if run["device"]["devices"] != runs[0]["device"]["devices"]:
            fail(f"'{name}' ran on another device than '{names[0]}'")
    out = dict(runs[0])
    out["results"] = [merge_rows([run["results"][i] for run in runs])
                      for i in range(len(first_keys))]
    out["peaks"] = merge_peaks(runs)
    out["median_of_runs"] = len(runs)
    out["seeds"] = [run.get("seed") for run in runs]
    return out


def main():
    if len(sys.argv) < 4:
        fail("usage: bench_median.py OUT.json RUN1.json RUN2.json [RUN3.json ...] (two runs or more)")
    out_path, names = sys.argv[1], sys.argv[2:]
    runs = []
    for name in names:
        try:
            with open(name) as f:
                run = json.load(f)
            run["results"], run["device"]["devices"]  # the keys merge() needs
        except (OSError, ValueError, KeyError, TypeError) as e:
            fail(f"cannot read '{name}' as tclens bench JSON: {type(e).__name__} {e}")
        runs.append(run)
    merged = merge(runs, names)
    with open(out_path + ".tmp", "w") as f:
        json.dump(merged, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(out_path + ".tmp", out_path)


if __name__ == "__main__":
    main()
