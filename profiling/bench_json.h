#pragma once
// JSON of the kernel registry (`tclens kernels --json`) and of bench results (`tclens bench
// --json`, and the kernel runs of recordings).

#include <nlohmann/json.hpp>
#include <string>

#include "kernels/bench_result.h"
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

// {"precision", "instruction", "tflops"}
nlohmann::json to_json(const kernels::PeakMeasurement& peak);

// {"peaks": [peaks], "peak_error", "results": [rows]}
nlohmann::json to_json(const kernels::BenchReport& report);

// Read what to_json wrote (the rows and peaks of recordings). Null numbers and texts read as 0
// and ""; "cublas_id" equal to "kernel" reads as no reference (a cuBLAS row). False, with `error`
// naming the first missing or mistyped key, when `json` is not such a document.
bool bench_row_from_json(const nlohmann::json& json, kernels::BenchRow& row, std::string& error);
bool peak_from_json(const nlohmann::json& json, kernels::PeakMeasurement& peak, std::string& error);
// A whole report (what to_json(BenchReport) wrote), e.g. from `tclens worker`; a row's error is
// prefixed with where it is ("results[2]: missing key 'tflops'").
bool bench_report_from_json(const nlohmann::json& json, kernels::BenchReport& report,
                            std::string& error);

}  // namespace tclens::profiling
