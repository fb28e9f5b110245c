#include <cstdint>

#include "kernels/cuda_util.h"
#include "profiling/l2_flush.h"

namespace tclens::profiling {
namespace {

using kernels::cuda_text;

constexpr int kL2Multiple = 3;
constexpr int kThreads = 256;
constexpr int kBlocksPerSm = 8;
constexpr std::size_t kLineBytes = 128;  // discard.global.L2 takes exactly one 128-byte line

// Writes every 16-byte word of `words`: the L2 writes back whatever dirty lines it held (the last
// kernel's output) to make room, and ends up holding only lines of this buffer.
__global__ void overwrite_all(uint4* words, std::size_t count) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        words[i] = make_uint4(0, 0, 0, 0);
    }
}

// Drops every 128-byte line of `bytes` from the L2 without writing it back (PTX discard, sm_80+):
// the L2 is left without valid lines, as after Nsight Compute's cache invalidation.
__global__ void discard_all(char* bytes, std::size_t lines) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < lines;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
        asm volatile("discard.global.L2 [%0], 128;" ::"l"(bytes + i * kLineBytes) : "memory");
    }
}

}  // namespace

L2Flusher::~L2Flusher() {
    if (buffer_ != nullptr) cudaFree(buffer_);
}

std::string L2Flusher::flush(cudaStream_t stream) {
    int device = 0;
    int l2_bytes = 0;
    int sms = 0;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e == cudaSuccess && buffer_ == nullptr) {
        // A whole number of lines (cudaMalloc aligns the start to far more than a line).
        const std::size_t bytes = static_cast<std::size_t>(kL2Multiple) *
                                  static_cast<std::size_t>(l2_bytes) / kLineBytes * kLineBytes;
        e = cudaMalloc(&buffer_, bytes);
        if (e == cudaSuccess) bytes_ = bytes;
    }
    if (e == cudaSuccess) {
        overwrite_all<<<sms * kBlocksPerSm, kThreads, 0, stream>>>(static_cast<uint4*>(buffer_),
                                                                   bytes_ / sizeof(uint4));
        e = cudaGetLastError();
    }
    if (e == cudaSuccess) {
        discard_all<<<sms * kBlocksPerSm, kThreads, 0, stream>>>(static_cast<char*>(buffer_),
                                                                 bytes_ / kLineBytes);
        e = cudaGetLastError();
    }
    return e == cudaSuccess ? "" : "flushing the L2 cache: " + cuda_text(e);
}

}  // namespace tclens::profiling
