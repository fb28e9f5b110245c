#pragma once
// The phases a traced kernel marks (kernels/trace.cuh), shared by the device code that records
// them and the host code that decodes, summarises and draws them (viz/warp_trace.h). Plain enum
// and constants only, so that nvcc device code can include it.
#include <cstdint>

namespace tclens::viz {

// What a warp was doing between two trace points. The numbers are stored in device records and
// trace files' phase names are phase_name() of them; append new phases, never renumber.
enum class TracePhase : std::uint16_t {
    kLoadIssue = 0,     // issuing a stage's TMA copies (the thread that issues them, its warp)
    kFullWait = 1,      // waiting for a stage's bytes to land: its full barrier (TMA rungs) or
                        // cp.async.wait_group (rung 8)
    kEmptyWait = 2,     // the producer waiting on a stage's empty barrier (consumers to release it)
    kWgmma = 3,         // fence, one K tile's wgmma issued and committed, wait_group 1 returned
    kBlockSync = 4,     // waiting at a block-wide barrier (__syncthreads) inside the K loop
    kEpilogue = 5,      // the last wgmma group drained (wait_group 0) and accumulators fenced
    kStore = 6,         // writing the C tile (or a stream-K partial tile) to global memory
    kMmaSync = 7,       // one k16 step's mma.sync issued (rung 8: a warp's 4 x 8 m16n8k16)
    kTileSchedule = 8,  // a persistent block picking its next output tile (or stream-K piece)
    kFixupWait = 9,     // a stream-K tile's owner waiting for a contributor's partial tile
    kFixupReduce = 10,  // the owner adding that partial tile into its accumulators
};

inline constexpr int kTracePhaseCount = 11;

#ifndef __CUDACC_RTC__  // host code; NVRTC (kernels of yours, kernels/user_trace.cuh) has none
// The phases that issue tensor-core work (kWgmma, kMmaSync): what the summary counts per warp,
// the tensor pipe's idle gaps lie between, and TracedLaunch::wgmma_per_phase multiplies.
constexpr bool is_multiply_phase(TracePhase phase) {
    return phase == TracePhase::kWgmma || phase == TracePhase::kMmaSync;
}
#endif

}  // namespace tclens::viz
