#pragma once
// What a warp timeline (viz/warp_trace.h) adds up to: the share of the traced warps' time each
// phase kind takes, and per warp the idle gaps of its tensor pipe between K tiles. Pure.
#include <array>
#include <cstdint>
#include <vector>

#include "viz/warp_trace.h"

namespace tclens::viz {

struct PhaseShare {
    TracePhase phase = TracePhase::kWgmma;
    std::int64_t count = 0;     // phases of this kind, all traced warps
    std::int64_t total_ns = 0;  // their summed durations
    double share = 0;           // total_ns / sum of every warp's span (0..1; 0 if no span)
};

struct WarpSummary {
    int block = 0;
    int warp = 0;
    int sm = 0;
    std::int64_t span_ns = 0;  // first phase's start to last phase's end
    // Multiply phases (is_multiply_phase: kWgmma, one per K tile; kMmaSync, one per k16 step)
    int mma_phases = 0;
    std::int64_t mma_ns = 0;  // their summed durations
    // Tensor-pipe idle gaps: time between the end of one multiply phase and the start of the
    // next one of the same warp, summed and the largest; 0 with fewer than two.
    std::int64_t idle_ns = 0;
    std::int64_t longest_idle_ns = 0;
};

struct TraceSummary {
    std::int64_t span_ns = 0;  // earliest start to latest end over all traced warps
    // Tensor-core instructions the traced warps issued: their multiply phases times
    // trace.wgmma_per_phase. With every block traced, what a profile of the same run counts
    // (sm__inst_executed_pipe_tensor_op_gmma.sum for wgmma, ..._hmma.sum for mma.sync).
    std::int64_t mma_instructions = 0;
    std::array<PhaseShare, kTracePhaseCount> shares{};  // indexed by TracePhase
    std::vector<WarpSummary> warps;                     // ordered by (block, warp)
};

// Example: one warp with wgmma [0, 10) and [15, 25) and full_wait [10, 15): span 25, wgmma
// share 20/25 = 0.8, full_wait 0.2, idle_ns 5, longest_idle_ns 5.
TraceSummary summarize_trace(const WarpTrace& trace);

// The tensor pipe's idle gaps over the warps that multiplied (mma_phases > 0): how many such
// warps, their idle_ns summed, and the longest single gap. Example: warps with idle_ns 5 and 15
// (longest 5 and 10) and a producer warp with no wgmma -> {2, 20, 10}.
struct TensorPipeIdle {
    int warps = 0;
    std::int64_t idle_ns = 0;
    std::int64_t longest_ns = 0;
};
TensorPipeIdle tensor_pipe_idle(const TraceSummary& summary);

}  // namespace tclens::viz
