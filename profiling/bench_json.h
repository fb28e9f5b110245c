#pragma once
// JSON of the kernel registry (`tclens kernels --json`) and of bench results (`tclens bench
// --json`, and the kernel runs of recordings).

#include <nlohmann/json.hpp>

#include "kernels/bench.h"
#include "kernels/gemm.h"

namespace tclens::profiling {

// {"id", "rung", "title", "adds", "precision", "block_tile": {"m","n","k"}, "warp_tile",
//  "thread_tile", "mma_tile", "stages", "swizzle", "layout_ids", "threads", "min_sm",
//  "reference_id"}
nlohmann::json to_json(const kernels::KernelDescriptor& kernel);

// {"kernel", "rung", "precision", "m", "n", "k", "skipped", "error", "verified",
//  "rel_rms_error", "error_bound", "reference", "reference_rel_rms", "nan_count", "input_sets",
//  "timed_runs", "median_ms", "min_ms", "max_ms", "tflops", "pct_of_cublas", "cublas_id",
//  "speedup_vs_sgemm", "pct_of_peak"}; numbers that are unknown (0 in BenchRow) are null.
nlohmann::json to_json(const kernels::BenchRow& row);

// {"peaks": [{"precision", "instruction", "tflops"}], "peak_error", "results": [rows]}
nlohmann::json to_json(const kernels::BenchReport& report);

}  // namespace tclens::profiling
