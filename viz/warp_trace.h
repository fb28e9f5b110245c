#pragma once
// A per-warp timeline of one kernel run: what every traced warp did (viz/trace_phase.h), on which
// SM, from when to when. Decoded on the host from a traced kernel's device records
// (kernels/trace.cuh, kernels/trace_capture.h), written and read as JSON (viz/warp_trace_json.h),
// summarised (viz/warp_trace_summary.h) and drawn (viz/warp_timeline_view.h). Pure C++.
//
// Time base: nanoseconds of the GPU's %globaltimer, one chip-wide clock every SM reads, shifted
// so that the earliest traced phase starts at 0 (how far apart SMs' readings can be and the
// timer's tick: kernels/trace.cuh). `cycles` is the same phase measured with the SM's own
// clock (%clock, mod 2^32), for phases shorter than a tick.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "viz/trace_phase.h"

namespace tclens::viz {

struct WarpPhase {
    int block = 0;  // linear block id (blockIdx.x)
    int warp = 0;   // warp of the block, threadIdx.x / 32
    int sm = 0;     // %smid the block ran on
    TracePhase phase = TracePhase::kWgmma;
    int k_tile = -1;  // K tile (stage round) the phase belongs to; -1 for none (epilogue, store)
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;  // >= start_ns
    std::int64_t cycles = 0;  // SM clock cycles from start to end (%clock, mod 2^32)
};

struct WarpTrace {
    std::string kernel;  // registry id, e.g. "wgmma_ws.bf16"
    std::int64_t m = 0, n = 0, k = 0;
    int blocks_launched = 0;  // the launch's grid
    int blocks_traced = 0;    // blocks 0 .. blocks_traced - 1 recorded (<= blocks_launched)
    int warps_per_block = 0;
    // Tensor-core instructions one warp issues in one multiply phase (is_multiply_phase: wgmma
    // in a kWgmma phase, mma.sync in a kMmaSync one); the name is the trace files' key.
    int wgmma_per_phase = 0;
    std::int64_t dropped = 0;       // phases recorded past a warp's buffer and lost (0 normally)
    double kernel_ms = 0;           // median time of the traced kernel (CUDA events); 0 unknown
    double untraced_ms = 0;         // median time of the same kernel untraced; 0 unknown
    std::vector<WarpPhase> phases;  // ordered by (block, warp, start_ns)
};

// "load_issue", "full_wait", "empty_wait", "wgmma", "block_sync", "epilogue", "store",
// "mma_sync", "tile_schedule", "fixup_wait", "fixup_reduce".
const char* phase_name(TracePhase phase);
// The inverse of phase_name; nullopt for any other text.
std::optional<TracePhase> phase_from_name(std::string_view name);
// What a warp does in the phase, in a few plain words for legends and summaries (never the id):
// "waits for a full stage" for full_wait, "multiplies (wgmma)" for wgmma.
const char* phase_words(TracePhase phase);
// One short line about a phase for tooltips, e.g. "waiting for a stage's bytes".
const char* phase_meaning(TracePhase phase);

// Sorts `trace.phases` by (block, warp, start_ns, end_ns) and shifts all times so that the
// earliest start is 0. Idempotent.
void normalise_trace(WarpTrace& trace);

// The same trace cut to its blocks 0 .. blocks - 1 (all of it when it holds no more); times are
// not shifted again, so the cut lines up with the whole.
WarpTrace first_blocks(const WarpTrace& trace, int blocks);

}  // namespace tclens::viz
