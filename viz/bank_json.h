#pragma once
// The bank JSON of docs/json-formats.md (`tclens banks --swizzle S --pattern P --json`).

#include <nlohmann/json.hpp>

#include "viz/bank_model.h"

namespace tclens::viz {

// BankReport -> JSON with exactly the contract's keys:
// { "swizzle", "pattern", "bank_count", "bank_bytes",
//   "requests": [ { "index", "access_bytes",
//                   "lanes": [ {"lane", "byte_addr", "banks"} ... ],
//                   "wavefronts", "ideal_wavefronts" } ],
//   "total_wavefronts", "ideal_wavefronts", "conflict_wavefronts", "measured" }
// "measured" is report.measured_wavefronts, or null when it is not set.
// Example: tma32 + ldmatrix.x4 on 16 x 32 bytes -> lanes[0] = {"lane": 0, "byte_addr": 0,
// "banks": [0, 1, 2, 3]}, "total_wavefronts": 4, "conflict_wavefronts": 0, "measured": null.
nlohmann::json bank_report_json(const BankReport& report);

}  // namespace tclens::viz
