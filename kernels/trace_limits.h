#pragma once
// How much of a kernel's traced variant (gemm.h, TracedLaunch) tclens traces on one problem:
// the records and buffer bytes of the traced blocks and the refusals of a --blocks. Pure: reads
// the descriptor's traced.shape only, so a client without CUDA checks a trace request before a
// worker runs it (kernels/trace_capture.h runs it).
#include <cstdint>
#include <string>

#include "kernels/gemm.h"

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

}  // namespace tclens::kernels
