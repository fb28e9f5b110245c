// DRAM probe kernel and its timing (what it measures and how: dram_probe.h).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "kernels/cuda_util.h"
#include "kernels/dram_probe.h"

namespace tclens::kernels {
namespace {

constexpr int kThreads = 256;
constexpr int kUnroll = 4;  // int4 loads in flight per thread before its stores
constexpr int kWarmupCopies = 2;
constexpr int kTimedCopies = 11;
constexpr std::size_t kL2Multiple = 16;
constexpr std::size_t kMinBufferBytes = std::size_t(256) << 20;

// dst[i] = src[i] for i < count, grid-stride; each thread issues kUnroll independent 16-byte
// loads before it stores, so enough bytes are in flight to cover the DRAM latency.
__global__ void __launch_bounds__(kThreads)
    copy_kernel(const int4* __restrict__ src, int4* __restrict__ dst, std::size_t count) {
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    for (; i + (kUnroll - 1) * stride < count; i += kUnroll * stride) {
        int4 v[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) v[u] = src[i + u * stride];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) dst[i + u * stride] = v[u];
    }
    for (; i < count; i += stride) dst[i] = src[i];
}

// Stream, events and the two buffers of one measurement; freed when destroyed.
struct DramContext {
    cudaStream_t stream = nullptr;
    cudaEvent_t starts[kTimedCopies] = {};
    cudaEvent_t stops[kTimedCopies] = {};
    int4* src = nullptr;
    int4* dst = nullptr;

    DramContext() = default;
    DramContext(const DramContext&) = delete;
    DramContext& operator=(const DramContext&) = delete;
    ~DramContext() {
        for (int i = 0; i < kTimedCopies; ++i) {
            if (starts[i] != nullptr) cudaEventDestroy(starts[i]);
            if (stops[i] != nullptr) cudaEventDestroy(stops[i]);
        }
        if (stream != nullptr) cudaStreamDestroy(stream);
        cudaFree(src);
        cudaFree(dst);
    }

    cudaError_t create(std::size_t buffer_bytes) {
        cudaError_t status = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
        for (int i = 0; i < kTimedCopies && status == cudaSuccess; ++i) {
            status = cudaEventCreate(&starts[i]);
            if (status == cudaSuccess) status = cudaEventCreate(&stops[i]);
        }
        if (status == cudaSuccess) status = cudaMalloc(&src, buffer_bytes);
        if (status == cudaSuccess) status = cudaMalloc(&dst, buffer_bytes);
        // Non-zero source bytes; both buffers touched before any timing.
        if (status == cudaSuccess) status = cudaMemsetAsync(src, 0x5a, buffer_bytes, stream);
        if (status == cudaSuccess) status = cudaMemsetAsync(dst, 0, buffer_bytes, stream);
        return status;
    }
};

// `copies` copies, each between its own pair of events, their milliseconds to ms[0..copies).
cudaError_t time_copies(DramContext& context, int blocks, std::size_t count, int copies,
                        float* ms) {
    cudaError_t status = cudaSuccess;
    for (int i = 0; i < copies && status == cudaSuccess; ++i) {
        status = cudaEventRecord(context.starts[i], context.stream);
        if (status == cudaSuccess) {
            copy_kernel<<<blocks, kThreads, 0, context.stream>>>(context.src, context.dst, count);
            status = cudaGetLastError();
        }
        if (status == cudaSuccess) status = cudaEventRecord(context.stops[i], context.stream);
    }
    if (status == cudaSuccess) status = cudaStreamSynchronize(context.stream);
    for (int i = 0; i < copies && status == cudaSuccess; ++i) {
        status = cudaEventElapsedTime(&ms[i], context.starts[i], context.stops[i]);
    }
    return status;
}

}  // namespace

std::string measure_dram_bandwidth(DramMeasurement& out) {
    out = {};
    int device = 0;
    int sms = 0;
    int l2_bytes = 0;
    std::size_t free_bytes = 0;
    std::size_t total_bytes = 0;
    cudaError_t status = cudaGetDevice(&device);
    if (status == cudaSuccess) {
        status = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    }
    if (status == cudaSuccess) {
        status = cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device);
    }
    if (status == cudaSuccess) status = cudaMemGetInfo(&free_bytes, &total_bytes);
    if (status != cudaSuccess) return "DRAM probe: cannot query the GPU: " + cuda_text(status);

    // 16 x L2 (at least 256 MiB), at most a quarter of the free memory, whole 1 MiB pieces.
    const std::size_t wanted = std::max(kL2Multiple * std::size_t(l2_bytes), kMinBufferBytes);
    const std::size_t buffer_bytes =
        std::min(wanted, free_bytes / 4) & ~((std::size_t(1) << 20) - 1);
    if (buffer_bytes < 4 * std::size_t(l2_bytes) || buffer_bytes == 0) {
        return "DRAM probe: needs 2 buffers of at least 4 x L2 (" +
               std::to_string(4 * std::size_t(l2_bytes) >> 20) + " MiB each) but only " +
               std::to_string(free_bytes >> 20) + " MiB of GPU memory is free";
    }

    int blocks_per_sm = 0;
    status =
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, copy_kernel, kThreads, 0);
    if (status != cudaSuccess) return "DRAM probe: cannot query occupancy: " + cuda_text(status);
    const int blocks = std::max(1, sms * blocks_per_sm);

    DramContext context;
    status = context.create(buffer_bytes);
    if (status != cudaSuccess) {
        return "DRAM probe: cannot create its stream, events or buffers: " + cuda_text(status);
    }
    const std::size_t count = buffer_bytes / sizeof(int4);
    float ms[kTimedCopies];
    status = time_copies(context, blocks, count, 1, ms);  // loads the module
    if (status == cudaSuccess) status = time_copies(context, blocks, count, kWarmupCopies, ms);
    if (status == cudaSuccess) status = time_copies(context, blocks, count, kTimedCopies, ms);
    if (status != cudaSuccess) return "DRAM probe: " + cuda_text(status);

    std::sort(ms, ms + kTimedCopies);
    const double median_ms = ms[kTimedCopies / 2];
    if (median_ms <= 0) return "DRAM probe: a copy took no measurable time";
    out.buffer_bytes = buffer_bytes;
    out.median_ms = median_ms;
    out.bytes_per_s = 2.0 * double(buffer_bytes) / (median_ms * 1e-3);
    char method[200];
    std::snprintf(method, sizeof method,
                  "int4 copy of 2 x %zu MiB buffers (%.0f x L2), read + write, median of %d "
                  "CUDA-event timed copies",
                  buffer_bytes >> 20, l2_bytes > 0 ? double(buffer_bytes) / l2_bytes : 0.0,
                  kTimedCopies);
    out.method = method;
    return "";
}

}  // namespace tclens::kernels
