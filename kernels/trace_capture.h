#pragma once
// `tclens trace`'s work: run a kernel's traced variant (gemm.h, TracedLaunch) through the runner
// (verified against the reference first, then timed, like every run), read back the records of
// its last timed launch and decode them (kernels/trace_decode.h); run the untraced kernel the
// same way for the overhead.
#include <cstdint>
#include <string>

#include "kernels/gemm.h"
#include "kernels/runner.h"
#include "viz/warp_trace.h"

namespace tclens::kernels {

// The cap on traced blocks: the first kMaxTracedBlocks of the grid at most, and buffers of at
// most kMaxTraceBufferBytes (records_per_warp x warps x blocks x 32 bytes + counters).
inline constexpr int kMaxTracedBlocks = 1024;
inline constexpr std::int64_t kMaxTraceBufferBytes = std::int64_t{256} << 20;

// Records one warp of `kernel` keeps on `problem`: its traced.shape's records_per_warp, at most
// 2^30.
int trace_records_per_warp(const KernelDescriptor& kernel, const GemmProblem& problem);

// Bytes of device memory tracing `blocks` blocks takes.
std::int64_t trace_buffer_bytes(const KernelDescriptor& kernel, const GemmProblem& problem,
                                int blocks);

// "" when the first `blocks` blocks of `kernel` on `problem` can be traced, else one line: the
// kernel has no trace points; blocks < 1; more than the grid's blocks or kMaxTracedBlocks; or
// buffers over kMaxTraceBufferBytes. The grid comes from traced.shape (for the persistent
// rungs, the current device's; kernels/gemm.h).
std::string trace_blocks_error(const KernelDescriptor& kernel, const GemmProblem& problem,
                               int blocks);

struct TraceCapture {
    RunResult traced;    // the traced variant's run: verified, then timed
    RunResult untraced;  // the kernel as the ladder times it
    viz::WarpTrace trace;
    std::string error;  // "" or why there is no trace (the runs' errors, a failed read-back)
};

// Precondition: trace_blocks_error(kernel, problem, blocks) == "".
TraceCapture capture_trace(GemmRunner& runner, const KernelDescriptor& kernel,
                           const GemmProblem& problem, int blocks, const RunOptions& options);

}  // namespace tclens::kernels
