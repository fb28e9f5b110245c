#pragma once
// The CUDA runtime helpers every host file of kernels/ and profiling/ shares: one way to put a
// CUDA error into words and one owner of a device allocation. Header-only, host code only.

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

namespace tclens::kernels {

// cudaErrorLaunchFailure -> "cudaErrorLaunchFailure: unspecified launch failure": the error's
// name (what to search for) and the runtime's sentence (what it means), one line.
inline std::string cuda_text(cudaError_t error) {
    return std::string(cudaGetErrorName(error)) + ": " + cudaGetErrorString(error);
}

// Whether `p` is 16-byte aligned: what a float4 or uint4 access through it needs.
inline bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// A launch's GpuStatus (kernels/gemm.h: a cudaError_t's value as an int) as the cudaError_t it is.
inline cudaError_t as_cuda_error(int status) { return static_cast<cudaError_t>(status); }

// One device allocation, freed with the buffer; a move hands it on. Empty (get() == nullptr)
// until allocate() succeeds.
class DeviceBuffer {
  public:
    DeviceBuffer() = default;
    ~DeviceBuffer() { release(); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& other) noexcept : ptr_(other.ptr_) { other.ptr_ = nullptr; }

    // cudaMalloc of `bytes`; an allocation held before is freed first. Returns cudaMalloc's
    // status (the buffer stays empty on failure).
    cudaError_t allocate(std::int64_t bytes) {
        release();
        return cudaMalloc(&ptr_, static_cast<std::size_t>(bytes));
    }
    void* get() const { return ptr_; }
    float* as_float() const { return static_cast<float*>(ptr_); }

  private:
    void release() {
        if (ptr_ != nullptr) cudaFree(ptr_);
        ptr_ = nullptr;
    }
    void* ptr_ = nullptr;
};

}  // namespace tclens::kernels
