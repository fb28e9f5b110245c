#include "kernels/trace_limits.h"

#include <algorithm>

namespace tclens::kernels {

int trace_records_per_warp(const KernelDescriptor& kernel, const GemmProblem& problem) {
    const std::int64_t records = kernel.traced.shape(problem).records_per_warp;
    return static_cast<int>(std::min<std::int64_t>(records, std::int64_t{1} << 30));
}

std::int64_t trace_buffer_bytes(const KernelDescriptor& kernel, const GemmProblem& problem,
                                int blocks) {
    const std::int64_t warps = std::int64_t{blocks} * kernel.traced.shape(problem).warps_per_block;
    return warps * (trace_records_per_warp(kernel, problem) *
                        static_cast<std::int64_t>(sizeof(TraceRecord)) +
                    4);
}

std::string trace_blocks_error(const KernelDescriptor& kernel, const GemmProblem& problem,
                               int blocks) {
    if (!kernel.traced.traceable()) {
        return "kernel '" + kernel.id +
               "' has no trace points (traced kernels: rungs 8-12, mma_cp_async, wgmma_tma, "
               "wgmma_ws, wgmma_persistent and wgmma_streamk)";
    }
    if (blocks < 1) {
        return "--blocks " + std::to_string(blocks) + " must be at least 1";
    }
    const std::int64_t grid = kernel.traced.shape(problem).grid_blocks;
    if (blocks > grid || blocks > kMaxTracedBlocks) {
        return "--blocks " + std::to_string(blocks) + " is more than " +
               (blocks > grid
                    ? "the " + std::to_string(grid) + " blocks " + kernel.id +
                          " launches on this size"
                    : "the " + std::to_string(kMaxTracedBlocks) + " blocks tclens traces at most");
    }
    const std::int64_t bytes = trace_buffer_bytes(kernel, problem, blocks);
    if (bytes > kMaxTraceBufferBytes) {
        return "--blocks " + std::to_string(blocks) + " needs " + std::to_string(bytes) +
               " bytes of trace buffers on this size; at most " +
               std::to_string(kMaxTraceBufferBytes) + " are allowed: trace fewer blocks";
    }
    return "";
}

}  // namespace tclens::kernels
