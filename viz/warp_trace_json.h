#pragma once
// JSON of a warp timeline (viz/warp_trace.h), both ways: what `tclens trace --json` writes and
// what a recording's "traces" hold (docs/json-formats.md).
//
//   {"kernel": "wgmma_ws.bf16", "m": 4096, "n": 4096, "k": 4096,
//    "blocks_launched": 512, "blocks_traced": 8, "warps_per_block": 12, "wgmma_per_phase": 4,
//    "dropped": 0, "kernel_ms": 0.19, "untraced_ms": 0.18,
//    "phases": [[block, warp, sm, "wgmma", k_tile, start_ns, end_ns, cycles], ...]}
//
// Strict: every key present, no other key, every value in range (block < blocks_traced <=
// blocks_launched, warp < warps_per_block, 0 <= start_ns <= end_ns, k_tile >= -1, a known phase
// name), at most kMaxTracePhases phases. Errors are one line naming the first bad key or phase.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "viz/warp_trace.h"

namespace tclens::viz {

inline constexpr std::size_t kMaxTracePhases = std::size_t{1} << 22;

nlohmann::json warp_trace_json(const WarpTrace& trace);

// False, with `error` one line, unless `json` is what warp_trace_json writes (see above).
bool warp_trace_from_json(const nlohmann::json& json, WarpTrace& trace, std::string& error);

// warp_trace_from_json of `text` parsed as JSON; a parse error is one line too.
bool parse_warp_trace(std::string_view text, WarpTrace& trace, std::string& error);

}  // namespace tclens::viz
