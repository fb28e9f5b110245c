#pragma once
// Leaves the GPU's L2 cache holding nothing a profiled kernel uses, and nothing dirty, the state
// Nsight Compute's --cache-control all gives each pass: a kernel profiled after flush() reads its
// inputs from DRAM and writes back no other kernel's data.
//
// How: one read of a buffer three times the L2's size. Dirty lines (the last kernel's output) are
// written back now, before the profiled range, and the L2 is left full of clean lines of this
// buffer, which the kernel never touches.

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
    unsigned* sink_ = nullptr;
    std::size_t bytes_ = 0;
};

}  // namespace tclens::profiling
