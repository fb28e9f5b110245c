#pragma once
// Trace points for a kernel of yours (docs/your-kernel.md, "Trace your kernel"):
//
//   #include "kernels/user_trace.cuh"
//   TCLENS_TRACE_WARP();                  once per thread, before the first phase
//   TCLENS_TRACE_BEGIN(load);             a phase begins ...
//   TCLENS_TRACE_END_TILE(load, kt);      ... and ends, as part of K tile kt
//   TCLENS_TRACE_END(store);              ... or ends with no K tile
//
// Phases: load (issuing loads of a stage: cp.async, plain copies to shared memory), wait
// (waiting for a stage's data: cp.async.wait_group, the __syncthreads after the copies), mma
// (mma.sync or WMMA), wgmma, sync (another __syncthreads in the K loop), epilogue, store
// (writing C). They are the ladder's phases (viz/trace_phase.h), recorded in the ladder's
// records (kernels/trace_sink.h, kernels/trace_warp.cuh). Mark a phase in every thread of a warp
// (a phase is a warp's), with BEGIN and END in one scope; the same phase may not nest in itself.
//
// Zero cost unless traced: without TCLENS_TRACE the macros compile to nothing (they only check
// the phase's name). `tclens trace --kernel path.cu` builds a second, traced variant with
// -DTCLENS_TRACE next to the timed one. There warp w of block b (linear: blockIdx x fastest,
// threadIdx x fastest, w = thread / 32) records into tclens_trace_sink, a __constant__ of the
// module the worker sets before each traced launch (cuModuleGetGlobal for a directive kernel,
// the shim's tclens_user_set_trace_sink for a host launcher), when b < blocks and w <
// warps_per_block of that sink.
//
// tclens hands this header and the three it includes to NVRTC and nvcc itself; to build the file
// elsewhere, put the tclens source folder on the include path (-I path/to/tclens).
#include "viz/trace_phase.h"

#define TCLENS_TRACE_PHASE_load ::tclens::viz::TracePhase::kLoadIssue
#define TCLENS_TRACE_PHASE_wait ::tclens::viz::TracePhase::kFullWait
#define TCLENS_TRACE_PHASE_mma ::tclens::viz::TracePhase::kMmaSync
#define TCLENS_TRACE_PHASE_wgmma ::tclens::viz::TracePhase::kWgmma
#define TCLENS_TRACE_PHASE_sync ::tclens::viz::TracePhase::kBlockSync
#define TCLENS_TRACE_PHASE_epilogue ::tclens::viz::TracePhase::kEpilogue
#define TCLENS_TRACE_PHASE_store ::tclens::viz::TracePhase::kStore

#if defined(TCLENS_TRACE)
#include "kernels/trace_warp.cuh"

// What the worker's loader sets: the traced blocks and the records' buffers. C linkage, so that
// its name in the module is this one.
extern "C" {
__constant__ ::tclens::kernels::TraceSink tclens_trace_sink;
}
#define TCLENS_TRACE_SINK_DEFINED 1

namespace tclens::kernels {

// A warp of a kernel of yours: its recorder on tclens_trace_sink and the begin of each open
// phase (indexed by the phase: compile-time constants, so they stay in registers).
struct UserWarpTracer {
    WarpRecorder recorder;
    TraceMark open[viz::kTracePhaseCount];

    __device__ UserWarpTracer()
        : recorder(tclens_trace_sink, records_here(), linear_block(), linear_thread() / 32) {}

    __device__ __forceinline__ void begin(viz::TracePhase phase) {
        open[static_cast<int>(phase)] = recorder.begin();
    }
    __device__ __forceinline__ void end(viz::TracePhase phase, int k_tile) {
        recorder.end(open[static_cast<int>(phase)], phase, k_tile);
    }

  private:
    __device__ static int linear_block() {
        return static_cast<int>(blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z));
    }
    __device__ static int linear_thread() {
        return static_cast<int>(threadIdx.x +
                                blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
    }
    // Uniform over the warp: its block is among the first sink.blocks and it has a slot.
    __device__ static bool records_here() {
        return linear_block() < tclens_trace_sink.blocks &&
               linear_thread() / 32 < tclens_trace_sink.warps_per_block;
    }
};

}  // namespace tclens::kernels

#define TCLENS_TRACE_WARP() ::tclens::kernels::UserWarpTracer tclens_warp_tracer_
#define TCLENS_TRACE_BEGIN(phase) tclens_warp_tracer_.begin(TCLENS_TRACE_PHASE_##phase)
#define TCLENS_TRACE_END_TILE(phase, k_tile) \
    tclens_warp_tracer_.end(TCLENS_TRACE_PHASE_##phase, static_cast<int>(k_tile))
#define TCLENS_TRACE_END(phase) tclens_warp_tracer_.end(TCLENS_TRACE_PHASE_##phase, -1)

#else

#define TCLENS_TRACE_WARP() static_cast<void>(0)
#define TCLENS_TRACE_BEGIN(phase) static_cast<void>(TCLENS_TRACE_PHASE_##phase)
#define TCLENS_TRACE_END_TILE(phase, k_tile) \
    static_cast<void>(TCLENS_TRACE_PHASE_##phase), static_cast<void>(sizeof(k_tile))
#define TCLENS_TRACE_END(phase) static_cast<void>(TCLENS_TRACE_PHASE_##phase)

#endif
