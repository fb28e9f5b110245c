#include <atomic>

#include "kernels/cuda_util.h"
#include "kernels/stream_gate.h"

namespace tclens::kernels {
namespace {

__device__ std::uint64_t global_timer_ns() {
    std::uint64_t now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    return now;
}

// Spins (sleeping 1 us between reads) until the host sets *flag, or timeout_ns have passed.
__global__ void wait_until_open(const volatile int* flag, std::uint64_t timeout_ns) {
    const std::uint64_t start = global_timer_ns();
    while (*flag == 0 && global_timer_ns() - start < timeout_ns) {
        __nanosleep(1000);
    }
}

}  // namespace

StreamGate::~StreamGate() {
    open();  // a waiting kernel, if any, ends; cudaFreeHost below waits for it
    if (host_flag_ != nullptr) cudaFreeHost(const_cast<int*>(host_flag_));
}

std::string StreamGate::close(cudaStream_t stream) { return close(stream, kGateTimeoutNs); }

std::string StreamGate::close(cudaStream_t stream, std::uint64_t timeout_ns) {
    cudaError_t e = cudaSuccess;
    if (host_flag_ == nullptr) {
        void* flag = nullptr;
        e = cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped);
        if (e == cudaSuccess) {
            e = cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_flag_), flag, 0);
            if (e == cudaSuccess) {
                host_flag_ = static_cast<volatile int*>(flag);
            } else {
                cudaFreeHost(flag);
                device_flag_ = nullptr;
            }
        }
    }
    if (e == cudaSuccess) {
        *host_flag_ = 0;
        std::atomic_thread_fence(std::memory_order_seq_cst);
        wait_until_open<<<1, 1, 0, stream>>>(device_flag_, timeout_ns);
        e = cudaGetLastError();
    }
    return e == cudaSuccess ? "" : "closing the stream gate: " + cuda_text(e);
}

void StreamGate::open() {
    if (host_flag_ == nullptr) return;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    *host_flag_ = 1;
}

}  // namespace tclens::kernels
