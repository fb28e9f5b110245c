#pragma once
// Leaves the GPU's L2 cache holding nothing, and nothing dirty, the state Nsight Compute's
// --cache-control all gives each pass: a kernel profiled after flush() reads its inputs from DRAM
// and writes back no other kernel's data.
//
// How: one write of a buffer three times the L2's size (dirty lines of the last kernel are
// written back to make room; the L2 then holds only this buffer's lines), then
// discard.global.L2 of every line of that buffer, which drops them without writing them back.
// Reading the buffer instead (the first version) left the L2 full of clean lines for the
// profiled kernel to evict as it missed, unlike ncu's invalidated L2. The L2 hit rate of a
// kernel such as mma_cp_async.bf16 4096^3 varies by 3-4 percentage points from run to run in
// both tools, so the comparison could not tell the two flushes apart
// (tests/gpu/results/2026-11-22_h100_session4/README.md).

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

namespace tclens::profiling {

class L2Flusher {
  public:
    L2Flusher() = default;
    ~L2Flusher();
    L2Flusher(const L2Flusher&) = delete;
    L2Flusher& operator=(const L2Flusher&) = delete;

    // Enqueues the flush on `stream` of the current device; allocates the buffer on first use.
    // Returns "" or the CUDA error.
    std::string flush(cudaStream_t stream);

    std::size_t buffer_bytes() const { return bytes_; }

  private:
    void* buffer_ = nullptr;
    std::size_t bytes_ = 0;
};

}  // namespace tclens::profiling
