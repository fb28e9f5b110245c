#pragma once
// The phases a traced kernel marks (kernels/trace.cuh), shared by the device code that records
// them and the host code that decodes, summarises and draws them (viz/warp_trace.h). Plain enum
// and constants only, so that nvcc device code can include it.
#include <cstdint>

namespace tclens::viz {

// What a warp was doing between two trace points. The numbers are stored in device records and
// trace files' phase names are phase_name() of them; append new phases, never renumber.
enum class TracePhase : std::uint16_t {
    kLoadIssue = 0,  // issuing a stage's TMA copies (the thread that issues them, its warp)
    kFullWait = 1,   // waiting on a stage's full barrier (its bytes to land)
    kEmptyWait = 2,  // the producer waiting on a stage's empty barrier (consumers to release it)
    kWgmma = 3,      // fence, one K tile's wgmma issued and committed, wait_group 1 returned
    kBlockSync = 4,  // waiting at a block-wide barrier (__syncthreads) inside the K loop
    kEpilogue = 5,   // the last wgmma group drained (wait_group 0) and accumulators fenced
    kStore = 6,      // writing the C tile from registers to global memory
};

inline constexpr int kTracePhaseCount = 7;

}  // namespace tclens::viz
