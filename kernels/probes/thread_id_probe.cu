#include <cuda_runtime.h>

#include "kernels/cuda_util.h"
#include "kernels/probes/thread_id_probe.h"

namespace tclens::kernels {
namespace {

__global__ void thread_id_kernel(ThreadIdRecord* out) {
    unsigned lane, warp, sm;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(warp));
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    const int index = blockIdx.x * blockDim.x + threadIdx.x;
    out[index] =
        ThreadIdRecord{static_cast<int>(blockIdx.x), static_cast<int>(threadIdx.x),
                       static_cast<int>(lane), static_cast<int>(warp), static_cast<int>(sm)};
}

}  // namespace

ThreadIdProbeResult run_thread_id_probe(int blocks, int threads_per_block) {
    ThreadIdProbeResult result;
    if (blocks < 1 || threads_per_block < 1 || threads_per_block > 1024) {
        result.error = "thread id probe: need blocks >= 1 and 1 <= threads_per_block <= 1024";
        return result;
    }
    const size_t count = static_cast<size_t>(blocks) * threads_per_block;
    ThreadIdRecord* device_records = nullptr;
    cudaError_t status = cudaMalloc(&device_records, count * sizeof(ThreadIdRecord));
    if (status == cudaSuccess) {
        // Poison the output so a thread that never wrote is visible as lane -1.
        status = cudaMemset(device_records, 0xff, count * sizeof(ThreadIdRecord));
    }
    if (status == cudaSuccess) {
        thread_id_kernel<<<blocks, threads_per_block>>>(device_records);
        status = cudaGetLastError();
    }
    if (status == cudaSuccess) {
        result.records.resize(count);
        status = cudaMemcpy(result.records.data(), device_records, count * sizeof(ThreadIdRecord),
                            cudaMemcpyDeviceToHost);
    }
    cudaFree(device_records);
    if (status != cudaSuccess) {
        result.records.clear();
        result.error = "thread id probe: " + cuda_text(status);
    }
    return result;
}

}  // namespace tclens::kernels
