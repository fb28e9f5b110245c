#pragma once
// JSON of a source profile (`tclens source --json`, and the "sources" of recordings), both ways.
//
//   {the run fields of profile_json.h ("kernel", ..., "error"),
//    "sass_how", "sass_missing", "line_info_missing", "sampling_missing", "counters_missing",
//    "totals_missing", "period_log2", "dropped_samples", "total_samples",
//    "functions": [mangled names],
//    "instructions": [{"function", "pc", "sass", "opcode", "frames": [{"file", "line"}],
//                      "samples", "stalls": {"long_scoreboard": 12, ...}, "counted", "executed",
//                      "shared_wavefronts", "shared_ideal", "shared_conflicts", "global_sectors",
//                      "shared_access", "shared_access_candidates": [...]}],
//    "files": [{"path", "text", "absent"}],
//    "stalls": [{"key", "label", "ncu_column", "meaning", "samples", "share_pct"}],
//    "checks": [{"what", "range_metric", "available", "why_not", "instruction_sum",
//                "range_total", "equal"}],
//    "timings_ms": {"prepare", "sampling", "counters", "totals", "disassembly", "total"}}
// "stalls", "shared_ideal", "total_samples" and "equal" are written for readers (scripts); reading
// back recomputes them from the instructions (aggregate_source_profile), so they cannot disagree.

#include <nlohmann/json.hpp>
#include <string>

#include "profiling/source/source_profile.h"

namespace tclens::profiling {

nlohmann::json to_json(const SourceProfile& profile);

// False, with `error` naming the first missing or mistyped key (prefixed with where it is:
// "instructions[12]: missing key 'pc'"), when `json` is not such a document.
bool source_profile_from_json(const nlohmann::json& json, SourceProfile& profile,
                              std::string& error);

}  // namespace tclens::profiling
