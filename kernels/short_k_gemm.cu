// Rung 14's short-K GEMM (kernels/short_k_gemm.h): one CTA per 128 x 128 tile of C, in rung 9's
// order (16-row column bands), two warpgroups. Per K tile of 64: every thread reads its
// kLoadsPerThread elements of A and of B as 16-bit bit patterns (kLoadBatch of each in flight at
// a time, the batches not unrolled into each other, so that 128 registers hold it), writes them
// where TMA's 128-byte swizzle would have put them (rung 9's stage: A rows of 128 bytes, 16-byte
// chunk c of row r at chunk c ^ (r % 8); B in two boxes of 64 columns, the same swizzle on its K
// rows), fences the generic-proxy writes for wgmma's async-proxy reads, and after a CTA barrier
// warpgroup w multiplies rows 64 w .. 64 w + 63 with four wgmma m64n128k16. A second K tile waits
// for the first one's wgmma before its writes. C leaves through the stage, 64 columns at a time
// (stage_c_half, store_c_half), so that each warp writes whole row segments of 128 bytes, for any
// ldc (an odd one included), guarded per element.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/hopper.cuh"
#include "kernels/short_k_gemm.cuh"
#include "kernels/tma_tile_limits.h"

namespace tclens::kernels {
namespace {

using C = ShortKConfig;

// Byte offset in the stage of A element (row r, k kk) of the tile: row r's 128 bytes, chunk kk / 8
// swizzled with r % 8.
__host__ __device__ constexpr int a_offset(int r, int kk) {
    return r * hopper::kSwizzleRowBytes + ((((kk >> 3) ^ (r & 7))) << 4) + ((kk & 7) << 1);
}
// Byte offset of B element (k kb, col nn): box nn / 64 after A, its row kb, chunk (nn % 64) / 8
// swizzled with kb % 8.
__host__ __device__ constexpr int b_offset(int kb, int nn) {
    return C::kABytes + (nn >> 6) * C::kBBoxBytes + kb * hopper::kSwizzleRowBytes +
           (((((nn & 63) >> 3) ^ (kb & 7))) << 4) + ((nn & 7) << 1);
}
// Worked example: A (9, 17) is row 9, chunk 2 ^ 1 = 3, element 1: 9 x 128 + 48 + 2.
static_assert(a_offset(9, 17) == 9 * 128 + 3 * 16 + 2, "A swizzle");
// B (3, 70) is box 1, row 3, chunk 0 ^ 3 = 3, element 6: 16384 + 8192 + 384 + 48 + 12.
static_assert(b_offset(3, 70) == 16384 + 8192 + 3 * 128 + 3 * 16 + 12, "B swizzle");

// Float offset in the stage of C element (row r, column cc) of a 64-column half of the tile: row
// r's 64 floats, 8-float chunk cc / 8 swizzled with r % 8, so that each half-warp's float2 writes
// of four rows (stage_c_half: two wavefronts a warp, the least 256 bytes take) and a warp's reads
// along one row (store_c_half) fall in distinct banks.
__host__ __device__ constexpr int c_offset(int r, int cc) {
    return r * C::kCHalfCols + ((((cc >> 3) ^ (r & 7))) << 3) + (cc & 7);
}
// C (9, 17) is row 9, chunk 2 ^ 1 = 3, element 1: 9 x 64 + 24 + 1.
static_assert(c_offset(9, 17) == 9 * 64 + 3 * 8 + 1, "C swizzle");

#if defined(TCLENS_HOPPER_DEVICE)
// Writes this thread's accumulators of tile columns 64 half .. 64 half + 63 into the stage.
// (warpgroup wg, warp w, lane 4 g + t, acc[4 j + 2 h + e]) -> (row 64 wg + 16 w + g + 8 h,
// column 8 j + 2 t + e): wgmma's m64nNk16 accumulator layout.
__device__ __forceinline__ void stage_c_half(float* stage_c, const float (&acc)[C::kWgmmaN / 2],
                                             int half, int tid) {
    const int row0 = hopper::kWgmmaM * (tid / hopper::kWarpgroupThreads) +
                     16 * ((tid / 32) % hopper::kWarpgroupWarps) + (tid % 32) / 4;
    const int t = tid % 4;
#pragma unroll
    for (int jl = 0; jl < C::kCHalfCols / 8; ++jl) {
        const int j = jl + half * C::kCHalfCols / 8;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            *reinterpret_cast<float2*>(stage_c + c_offset(row0 + 8 * h, 8 * jl + 2 * t)) =
                make_float2(acc[4 * j + 2 * h], acc[4 * j + 2 * h + 1]);
        }
    }
}

// Stores the staged half to C: warp w writes rows 16 w .. 16 w + 15, each as two runs of 32
// consecutive floats (128 contiguous bytes a store, in four 32-byte sectors where ldc is a
// multiple of 8, five where it is not), guarded against M and N.
__device__ __forceinline__ void store_c_half(float* __restrict__ c, std::int64_t ldc, int m, int n,
                                             const float* stage_c, int row0, int col0, int tid) {
    constexpr int kRowsPerWarp = C::kBlockM / (C::kThreads / 32);
    const int warp = tid / 32;
    const int lane = tid % 32;
#pragma unroll 4
    for (int i = 0; i < kRowsPerWarp; ++i) {
        const int r = kRowsPerWarp * warp + i;
        if (row0 + r >= m) break;
        float* out = c + static_cast<std::int64_t>(row0 + r) * ldc + col0;
#pragma unroll
        for (int cc = lane; cc < C::kCHalfCols; cc += 32) {
            if (col0 + cc < n) out[cc] = stage_c[c_offset(r, cc)];
        }
    }
}
#endif

template <typename Element>
__global__ void __launch_bounds__(C::kThreads, C::kBlocksPerSm)
    short_k_gemm(const std::uint16_t* __restrict__ a, std::int64_t lda,
                 const std::uint16_t* __restrict__ b, std::int64_t ldb, float* __restrict__ c,
                 std::int64_t ldc, int m, int n, int k, int tiles_m, int tiles_n) {
#if defined(TCLENS_HOPPER_DEVICE)
    namespace hp = hopper;
    extern __shared__ unsigned char smem_raw[];
    unsigned char* const stage = hp::align_1024(smem_raw);
    const int tid = static_cast<int>(threadIdx.x);
    const int warpgroup = tid / hp::kWarpgroupThreads;
    int tile_m = 0;
    int tile_n = 0;
    C::block_tile(static_cast<int>(blockIdx.x), tiles_m, tiles_n, tile_m, tile_n);
    const int block_row = tile_m * C::kBlockM;
    const int block_col = tile_n * C::kBlockN;
    const std::uint64_t a_desc = hp::k_major_descriptor(stage);
    const std::uint64_t b_desc = hp::mn_major_descriptor(stage + C::kABytes, C::kBBoxBytes);
    float acc[C::kWgmmaN / 2] = {};

    for (int k0 = 0; k0 < k; k0 += C::kBlockK) {
        // Every warpgroup's wgmma of the last K tile are done before its stage is written.
        if (k0 > 0) __syncthreads();
#pragma unroll 1
        for (int i0 = 0; i0 < C::kLoadsPerThread; i0 += C::kLoadBatch) {
            // kLoadBatch reads of A and of B, all in flight before their writes.
            std::uint16_t a_bits[C::kLoadBatch];
            std::uint16_t b_bits[C::kLoadBatch];
#pragma unroll
            for (int j = 0; j < C::kLoadBatch; ++j) {
                const int row = block_row + C::kARowsPerRead * (i0 + j) + tid / C::kBlockK;
                const int ka = k0 + tid % C::kBlockK;
                a_bits[j] = row < m && ka < k ? a[row * lda + ka] : std::uint16_t{0};
                const int kb = k0 + C::kBRowsPerRead * (i0 + j) + tid / C::kBlockN;
                const int col = block_col + tid % C::kBlockN;
                b_bits[j] = kb < k && col < n ? b[kb * ldb + col] : std::uint16_t{0};
            }
#pragma unroll
            for (int j = 0; j < C::kLoadBatch; ++j) {
                *reinterpret_cast<std::uint16_t*>(
                    stage + a_offset(C::kARowsPerRead * (i0 + j) + tid / C::kBlockK,
                                     tid % C::kBlockK)) = a_bits[j];
                *reinterpret_cast<std::uint16_t*>(
                    stage + b_offset(C::kBRowsPerRead * (i0 + j) + tid / C::kBlockN,
                                     tid % C::kBlockN)) = b_bits[j];
            }
        }
        hp::fence_proxy_async_shared();  // these writes before wgmma reads them
        __syncthreads();
        hp::wgmma_fence();
#pragma unroll
        for (int step = 0; step < C::kBlockK / hp::kWgmmaK; ++step) {
            hp::wgmma_ss<Element, C::kWgmmaN>(
                acc,
                hp::advance_descriptor(a_desc, warpgroup * hp::kWgmmaM * hp::kSwizzleRowBytes +
                                                   step * hp::kAStepBytes),
                hp::advance_descriptor(b_desc, step * hp::kBStepBytes), (k0 | step) != 0);
        }
        hp::wgmma_commit_group();
        hp::wgmma_wait_group<0>();
        hp::fence_accumulators(acc);
    }
    float* const stage_c = reinterpret_cast<float*>(stage);
#pragma unroll
    for (int half = 0; half < C::kBlockN / C::kCHalfCols; ++half) {
        // (Unrolled, so that acc is indexed by constants and stays in registers.) Both warpgroups'
        // wgmma (or the last half's reads) are done with the stage.
        __syncthreads();
        stage_c_half(stage_c, acc, half, tid);
        __syncthreads();
        store_c_half(c, ldc, m, n, stage_c, block_row, block_col + half * C::kCHalfCols, tid);
    }
#else
    (void)a, (void)lda, (void)b, (void)ldb, (void)c, (void)ldc, (void)m, (void)n, (void)k,
        (void)tiles_m, (void)tiles_n;
#endif
}

template <typename Element>
cudaError_t launch(Precision precision, const GemmOperands& operands, cudaStream_t stream) {
    const GemmProblem& p = operands.problem;
    const auto tiles_m = static_cast<int>(tiles_covering(p.m, C::kBlockM));
    const auto tiles_n = static_cast<int>(tiles_covering(p.n, C::kBlockN));
    const std::int64_t tiles = std::int64_t{tiles_m} * tiles_n;
    short_k_gemm<Element><<<static_cast<unsigned>(tiles), C::kThreads, C::kSmemBytes, stream>>>(
        static_cast<const std::uint16_t*>(operands.a), a_stride(operands),
        static_cast<const std::uint16_t*>(operands.b), b_stride(precision, operands), operands.c,
        c_stride(operands), static_cast<int>(p.m), static_cast<int>(p.n), static_cast<int>(p.k),
        tiles_m, tiles_n);
    return cudaGetLastError();
}

}  // namespace

cudaError_t short_k_launch(Precision precision, const GemmOperands& operands, cudaStream_t stream) {
    if (precision == Precision::kF16) return launch<__half>(precision, operands, stream);
    if (precision == Precision::kBF16) return launch<__nv_bfloat16>(precision, operands, stream);
    return cudaErrorInvalidValue;
}

}  // namespace tclens::kernels
