#pragma once
// JSON of profiles and timelines (`tclens profile --json`, and the kernel runs and timelines of
// recordings), both ways, and of the metric catalogue (`tclens profile --list-metrics --json`).
//
// Profile:
//   {"kernel", "precision", "m", "n", "k", "device", "chip", "verified", "rel_rms_error",
//    "error_bound", "reference", "error", "passes", "l2_flushed", "prepare_ms", "profile_ms",
//    "metrics": [{"name", "label", "unit", "value"}], "unavailable": [{"name", "reason"}],
//    "launches": [{"name", "grid": [x, y, z], "block": [x, y, z], "registers_per_thread",
//                  "static_shared_bytes", "dynamic_shared_bytes", "local_bytes_per_thread",
//                  "shared_carveout_bytes", "duration_ns"}],
//    "occupancy": {"blocks_per_sm", "limiter", "limit_registers", "limit_shared_mem",
//                  "limit_warps", "limit_blocks", "theoretical_pct"} or null when no launch was
//                  recorded, "launch_error"}
// Timeline:
//   {"kernel", "precision", "m", "n", "k", "device", "chip", "verified", "rel_rms_error",
//    "error_bound", "reference", "error", "metrics": [names], "metric_info": [{"name", "label",
//    "unit"}], "trigger", "interval_ns", "measured_interval_ns", "lost", "dropped", "overflow",
//    "launches", "kernel_ms_alone", "kernel_ms_sampled", "overhead_pct", "prepare_ms", "run_ms",
//    "samples": [{"t_ns": start - first sample's start, "start_ns", "end_ns", "values": [...]}]}
// "error" is "" when there was none. Reading back restores every field; an error read back has
// problem kFailed (its kind is not stored).

#include <nlohmann/json.hpp>
#include <string>

#include "profiling/json_reader.h"
#include "profiling/metric_catalogue.h"
#include "profiling/profile_result.h"

namespace tclens::profiling {

nlohmann::json to_json(const KernelProfile& profile);
nlohmann::json to_json(const KernelTimeline& timeline);
// {"name", "label", "unit", "meaning", "source": "range_profiler" | "pm_sampling" | "launch",
//  "default": bool, "timeline": bool}
nlohmann::json to_json(const MetricInfo& info);

// The fields every kernel-run document shares (profiles, timelines, source profiles): "kernel",
// "precision", "m", "n", "k", "device", "chip", "verified", "rel_rms_error", "error_bound",
// "reference", "error". Reading an error back gives problem kFailed.
void write_run_fields(nlohmann::json& out, const std::string& kernel, kernels::Precision precision,
                      const kernels::GemmProblem& problem, const std::string& device,
                      const std::string& chip, const kernels::Verification& check,
                      const ProfilerError& error);
void read_run_fields(JsonReader& read, const nlohmann::json& in, std::string& kernel,
                     kernels::Precision& precision, kernels::GemmProblem& problem,
                     std::string& device, std::string& chip, kernels::Verification& check,
                     ProfilerError& error);

// Reads what to_json wrote. False, with `error` naming the first missing or mistyped key, when
// `json` is not such a document.
bool kernel_profile_from_json(const nlohmann::json& json, KernelProfile& profile,
                              std::string& error);
bool kernel_timeline_from_json(const nlohmann::json& json, KernelTimeline& timeline,
                               std::string& error);

}  // namespace tclens::profiling
