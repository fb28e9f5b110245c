#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include "kernels/gemm_data.h"

namespace tclens::kernels {
namespace {

constexpr int kThreads = 256;

// splitmix64 finaliser: a bijective mix, so distinct (seed, index) pairs give unrelated values.
__device__ __forceinline__ std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// Top 24 bits -> [-1, 1) in steps of 2^-23, exact in f32.
__device__ __forceinline__ float uniform(std::uint64_t seed, std::int64_t i) {
    const auto bits =
        static_cast<std::uint32_t>(mix(seed ^ mix(static_cast<std::uint64_t>(i))) >> 40);
    return static_cast<float>(bits) * (1.0f / 8388608.0f) - 1.0f;
}

__device__ __forceinline__ void store(float* p, float v) { *p = v; }
__device__ __forceinline__ void store(__half* p, float v) { *p = __float2half_rn(v); }
__device__ __forceinline__ void store(__nv_bfloat16* p, float v) { *p = __float2bfloat16_rn(v); }

// Round to nearest e4m3 (saturating; |v| < 1 never saturates); a would-be zero becomes the
// smallest subnormal of v's sign (gemm_data.h: e4m3 inputs are never zero).
__device__ __forceinline__ void store(__nv_fp8_e4m3* p, float v) {
    constexpr unsigned char kSmallestSubnormal = 0x01;  // 2^-9
    constexpr unsigned char kSign = 0x80;
    __nv_fp8_storage_t bits = __nv_cvt_float_to_fp8(v, __NV_SATFINITE, __NV_E4M3);
    if ((bits & 0x7f) == 0) bits = kSmallestSubnormal | (v < 0 ? kSign : 0);
    p->__x = bits;
}

__device__ __forceinline__ float load(const __half* p) { return __half2float(*p); }
__device__ __forceinline__ float load(const __nv_bfloat16* p) { return __bfloat162float(*p); }
__device__ __forceinline__ float load(const __nv_fp8_e4m3* p) { return static_cast<float>(*p); }

template <typename T>
__global__ void fill_random_kernel(T* dst, std::int64_t count, std::uint64_t seed) {
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
         i < count; i += stride) {
        store(dst + i, uniform(seed, i));
    }
}

__global__ void poison_kernel(float* dst, std::int64_t count) {
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
         i < count; i += stride) {
        dst[i] = __int_as_float(0x7fc00000);
    }
}

template <typename T>
__global__ void to_f32_kernel(float* dst, const T* src, std::int64_t count) {
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
         i < count; i += stride) {
        dst[i] = load(src + i);
    }
}

// (row, col) of the k x n result: dst[row * n + col] = float(src[col * k + row]), B^T stored
// n x k back to row-major K x N.
template <typename T>
__global__ void transpose_to_f32_kernel(float* dst, const T* src, std::int64_t n, std::int64_t k) {
    const std::int64_t count = n * k;
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
         i < count; i += stride) {
        const std::int64_t row = i / n;  // k
        const std::int64_t col = i % n;  // n
        dst[i] = load(src + col * k + row);
    }
}

// tally[0] += bytes != expected; tally[1] = min(offset + 1); tally[2] = max(offset + 1).
__global__ void zone_changes_kernel(const unsigned char* zone, std::int64_t bytes,
                                    unsigned char expected, unsigned long long* tally) {
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    unsigned long long changed = 0;
    unsigned long long lowest = ~0ull;
    unsigned long long highest = 0;
    for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
         i < bytes; i += stride) {
        if (zone[i] == expected) continue;
        ++changed;
        const auto at = static_cast<unsigned long long>(i) + 1;
        lowest = at < lowest ? at : lowest;
        highest = at > highest ? at : highest;
    }
    if (changed == 0) return;
    atomicAdd(&tally[0], changed);
    atomicMin(&tally[1], lowest);
    atomicMax(&tally[2], highest);
}

// tally += the NaN floats among src[0 .. count): one atomic add per warp that saw any.
__global__ void count_nans_kernel(const float* src, std::int64_t count, unsigned long long* tally) {
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    unsigned long long nans = 0;
    for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
         i < count; i += stride) {
        nans += isnan(src[i]) ? 1 : 0;
    }
    for (int offset = 16; offset > 0; offset /= 2)
        nans += __shfl_down_sync(0xffffffffu, nans, offset);
    if ((threadIdx.x & 31) == 0 && nans > 0) atomicAdd(tally, nans);
}

unsigned grid_for(std::int64_t count) {
    const std::int64_t blocks = (count + kThreads - 1) / kThreads;
    return static_cast<unsigned>(blocks < 4096 ? (blocks > 0 ? blocks : 1) : 4096);
}

}  // namespace

cudaError_t fill_random(void* dst, std::int64_t count, Precision precision, std::uint64_t seed,
                        cudaStream_t stream) {
    const unsigned grid = grid_for(count);
    switch (precision) {
        case Precision::kF16:
            fill_random_kernel<<<grid, kThreads, 0, stream>>>(static_cast<__half*>(dst), count,
                                                              seed);
            break;
        case Precision::kBF16:
            fill_random_kernel<<<grid, kThreads, 0, stream>>>(static_cast<__nv_bfloat16*>(dst),
                                                              count, seed);
            break;
        case Precision::kE4M3:
            fill_random_kernel<<<grid, kThreads, 0, stream>>>(static_cast<__nv_fp8_e4m3*>(dst),
                                                              count, seed);
            break;
        case Precision::kF32:
        case Precision::kTF32:
            fill_random_kernel<<<grid, kThreads, 0, stream>>>(static_cast<float*>(dst), count,
                                                              seed);
            break;
    }
    return cudaGetLastError();
}

cudaError_t poison(float* dst, std::int64_t count, cudaStream_t stream) {
    poison_kernel<<<grid_for(count), kThreads, 0, stream>>>(dst, count);
    return cudaGetLastError();
}

cudaError_t add_nan_count(const float* src, std::int64_t count, unsigned long long* tally,
                          cudaStream_t stream) {
    count_nans_kernel<<<grid_for(count), kThreads, 0, stream>>>(src, count, tally);
    return cudaGetLastError();
}

cudaError_t zone_changes(const void* zone, std::int64_t bytes, unsigned char expected,
                         ZoneChanges* out, cudaStream_t stream) {
    unsigned long long* tally = nullptr;
    const unsigned long long initial[3] = {0, ~0ull, 0};
    unsigned long long result[3] = {0, 0, 0};
    cudaError_t e = cudaMalloc(&tally, sizeof initial);
    if (e == cudaSuccess) {
        e = cudaMemcpyAsync(tally, initial, sizeof initial, cudaMemcpyHostToDevice, stream);
    }
    if (e == cudaSuccess) {
        zone_changes_kernel<<<grid_for(bytes), kThreads, 0, stream>>>(
            static_cast<const unsigned char*>(zone), bytes, expected, tally);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess) {
        e = cudaMemcpyAsync(result, tally, sizeof result, cudaMemcpyDeviceToHost, stream);
    }
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
    if (tally != nullptr) cudaFree(tally);
    if (e != cudaSuccess) return e;
    out->changed = static_cast<std::int64_t>(result[0]);
    out->lowest = result[0] > 0 ? static_cast<std::int64_t>(result[1]) - 1 : -1;
    out->highest = result[0] > 0 ? static_cast<std::int64_t>(result[2]) - 1 : -1;
    return cudaSuccess;
}

cudaError_t to_f32(float* dst, const void* src, std::int64_t count, Precision precision,
                   cudaStream_t stream) {
    const unsigned grid = grid_for(count);
    switch (precision) {
        case Precision::kF16:
            to_f32_kernel<<<grid, kThreads, 0, stream>>>(dst, static_cast<const __half*>(src),
                                                         count);
            break;
        case Precision::kBF16:
            to_f32_kernel<<<grid, kThreads, 0, stream>>>(
                dst, static_cast<const __nv_bfloat16*>(src), count);
            break;
        case Precision::kE4M3:
            to_f32_kernel<<<grid, kThreads, 0, stream>>>(
                dst, static_cast<const __nv_fp8_e4m3*>(src), count);
            break;
        case Precision::kF32:
        case Precision::kTF32:
            return cudaMemcpyAsync(dst, src, count * sizeof(float), cudaMemcpyDeviceToDevice,
                                   stream);
    }
    return cudaGetLastError();
}

cudaError_t b_to_f32_k_by_n(float* dst, const void* src, const GemmProblem& problem,
                            Precision precision, cudaStream_t stream) {
    if (!b_is_k_major(precision)) return to_f32(dst, src, problem.k * problem.n, precision, stream);
    // Only e4m3 is stored K-major (gemm.h).
    transpose_to_f32_kernel<<<grid_for(problem.k * problem.n), kThreads, 0, stream>>>(
        dst, static_cast<const __nv_fp8_e4m3*>(src), problem.n, problem.k);
    return cudaGetLastError();
}

}  // namespace tclens::kernels
