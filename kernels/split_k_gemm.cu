// Split-K GEMM (kernels/split_k_gemm.h): rung 8's parts (mma.sync m16n8k16 fed by ldmatrix from
// a cp.async ring) on small 64 x 64 tiles, with blockIdx.z choosing a range of K. For shapes with
// few C tiles over a long K (432x16x7696: 4 tiles of rung 11 on 132 SMs), the ranges put
// tiles x splits CTAs to work instead of a few long K loops.
//
// Tiling: 128 threads = 4 warps, 2 along M x 2 along N; block tile 64 x 64, K step 32.
//   warp w -> C rows 32 (w / 2) .. +31, cols 32 (w % 2) .. +31 of the tile: 2 x 4 m16n8 tiles,
//   32 f32 accumulators per thread. Per k16 step a warp issues 2 ldmatrix.x4 (A),
//   2 ldmatrix.x4.trans (B) and 8 mma.
//
// Shared memory (static, 3 stages x 9.5 KiB): rows padded by 16 bytes instead of swizzled, so
// that the 8 rows one ldmatrix phase reads start 80 (A) or 144 (B) bytes apart and cover all
// 32 banks once.
//   A tile: 64 rows (m) x 32 elements (k), row stride 40 elements (80 bytes);
//   B tile: 32 rows (k) x 64 elements (n), row stride 72 elements (144 bytes).
// Copies, 16-byte chunks (8 elements), chunk c = tid + 128 i, i = 0, 1:
//   A chunk c -> row c / 4, chunk c % 4;  B chunk c -> row c / 8, chunk c % 8.
// Edges: N and K multiples of 8 (split_k_can_run) and ranges of whole K steps, so a chunk is
// wholly inside or outside the matrix and its range; outside ones are zero-filled (cp.async
// src_bytes 0, source A(0, 0)), so they add nothing. Rows past M and columns past N are not
// stored.
//
// Pipeline, K step t of the CTA's range in stage t % 3: prologue copies steps 0, 1; step t:
// wait until step t has landed, barrier (every warp is done with step t - 1's stage), copy step
// t + 2 into that stage, 2 k16 steps of mma.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "kernels/ptx.cuh"
#include "kernels/split_k_gemm.cuh"
#include "kernels/split_k_gemm.h"

namespace tclens::kernels {
namespace {

constexpr int kThreads = kSplitKThreads;
constexpr int kWarpM = kSplitKBlockM / kSplitKWarpsM;  // 32
constexpr int kWarpN = kSplitKBlockN / kSplitKWarpsN;  // 32
constexpr int kTilesM = kWarpM / 16;                   // m16 tiles per warp
constexpr int kTilesN = kWarpN / 8;                    // n8 tiles per warp
constexpr int kChunkElems = 8;                         // 16 bytes of 16-bit elements
constexpr int kAStride = kSplitKBlockK + 8;            // elements per A row in shared memory
constexpr int kBStride = kSplitKBlockN + 8;
constexpr int kAChunksPerRow = kSplitKAChunksPerRow;                 // 4
constexpr int kBChunksPerRow = kSplitKBChunksPerRow;                 // 8
constexpr int kAChunks = kSplitKBlockM * kAChunksPerRow / kThreads;  // per thread per K step
constexpr int kBChunks = kSplitKBlockK * kBChunksPerRow / kThreads;
static_assert(kAChunks * kThreads == kSplitKBlockM * kAChunksPerRow, "whole A chunks per thread");
static_assert(kBChunks * kThreads == kSplitKBlockK * kBChunksPerRow, "whole B chunks per thread");
static_assert(kSplitKBlockK % 16 == 0 && kTilesN % 2 == 0, "whole k16 steps and n16 pairs");

template <typename Element>
struct Stage {
    Element a[kSplitKBlockM * kAStride];
    Element b[kSplitKBlockK * kBStride];
};

// Copies K step [k0, k0 + 32) of the tile at (row0, col0) into `stage`; zero-fills chunks past
// M, N or k_end.
template <typename Element>
__device__ __forceinline__ void copy_step(Stage<Element>& stage, const Element* __restrict__ a,
                                          std::int64_t lda, const Element* __restrict__ b,
                                          std::int64_t ldb, int m, int n, int row0, int col0,
                                          int k0, int k_end, int tid) {
#pragma unroll
    for (int i = 0; i < kAChunks; ++i) {
        const int c = tid + kThreads * i;
        const int row = c / kAChunksPerRow;
        const int col = (c % kAChunksPerRow) * kChunkElems;
        const bool inside = row0 + row < m && k0 + col < k_end;
        const Element* src = a + (row0 + row) * lda + k0 + col;
        ptx::cp_async_16(&stage.a[row * kAStride + col], inside ? src : a, inside ? 16 : 0);
    }
#pragma unroll
    for (int i = 0; i < kBChunks; ++i) {
        const int c = tid + kThreads * i;
        const int row = c / kBChunksPerRow;
        const int col = (c % kBChunksPerRow) * kChunkElems;
        const bool inside = k0 + row < k_end && col0 + col < n;
        const Element* src = b + (k0 + row) * ldb + col0 + col;
        ptx::cp_async_16(&stage.b[row * kBStride + col], inside ? src : b, inside ? 16 : 0);
    }
}

// The mma of one k16 step (`kk` = 0 or 16 within the stage) for the warp tile at (wm, wn).
// ldmatrix lanes: l -> row l % 16 and k (A) / n (B) columns 8 (l / 16) of the 16 x 16 block,
// so registers 0..3 of A are a0..a3 of m16n8k16 and of B (.trans) b0, b1 of two n8 tiles.
template <typename Element>
__device__ __forceinline__ void mma_step(float (&acc)[kTilesM][kTilesN][4],
                                         const Stage<Element>& stage, int wm, int wn, int kk,
                                         int lane) {
    const int r = lane % 16;
    const int c = 8 * (lane / 16);
    std::uint32_t fa[kTilesM][4];
    std::uint32_t fb[kTilesN / 2][4];
#pragma unroll
    for (int mt = 0; mt < kTilesM; ++mt) {
        ptx::ldmatrix_x4(fa[mt], &stage.a[(wm * kWarpM + 16 * mt + r) * kAStride + kk + c]);
    }
#pragma unroll
    for (int pair = 0; pair < kTilesN / 2; ++pair) {
        ptx::ldmatrix_x4_trans(fb[pair],
                               &stage.b[(kk + r) * kBStride + wn * kWarpN + 16 * pair + c]);
    }
#pragma unroll
    for (int mt = 0; mt < kTilesM; ++mt) {
#pragma unroll
        for (int nt = 0; nt < kTilesN; ++nt) {
            const std::uint32_t bb[2] = {fb[nt / 2][2 * (nt % 2)], fb[nt / 2][2 * (nt % 2) + 1]};
            ptx::mma_m16n8k16<Element>(acc[mt][nt], fa[mt], bb);
        }
    }
}

// CTA (blockIdx.x = tile, blockIdx.z = range): C tile blockIdx.x (row-major over the
// ceil(N / 64) tile columns) summed over K [z depth, (z + 1) depth), stored into out + z M N.
template <typename Element>
__global__ void __launch_bounds__(kThreads)
    split_k_gemm(const Element* __restrict__ a, std::int64_t lda, const Element* __restrict__ b,
                 std::int64_t ldb, float* __restrict__ out, std::int64_t ldo, int m, int n, int k,
                 int tiles_n, int depth) {
    __shared__ __align__(128) Stage<Element> stages[kSplitKStages];
    const int tid = threadIdx.x;
    const int lane = tid % 32;
    const int warp = tid / 32;
    const int wm = warp / kSplitKWarpsN;
    const int wn = warp % kSplitKWarpsN;
    const int row0 = static_cast<int>(blockIdx.x / tiles_n) * kSplitKBlockM;
    const int col0 = static_cast<int>(blockIdx.x % tiles_n) * kSplitKBlockN;
    const int k_begin = static_cast<int>(blockIdx.z) * depth;
    const int k_end = min(k, k_begin + depth);
    const int steps = (k_end - k_begin + kSplitKBlockK - 1) / kSplitKBlockK;

#pragma unroll
    for (int s = 0; s < kSplitKStages - 1; ++s) {
        if (s < steps) {
            copy_step(stages[s], a, lda, b, ldb, m, n, row0, col0, k_begin + s * kSplitKBlockK,
                      k_end, tid);
        }
        ptx::cp_async_commit();
    }
    float acc[kTilesM][kTilesN][4] = {};
    for (int t = 0; t < steps; ++t) {
        ptx::cp_async_wait<kSplitKStages - 2>();
        __syncthreads();
        const int next = t + kSplitKStages - 1;
        if (next < steps) {
            copy_step(stages[next % kSplitKStages], a, lda, b, ldb, m, n, row0, col0,
                      k_begin + next * kSplitKBlockK, k_end, tid);
        }
        ptx::cp_async_commit();
#pragma unroll
        for (int kk = 0; kk < kSplitKBlockK; kk += 16) {
            mma_step(acc, stages[t % kSplitKStages], wm, wn, kk, lane);
        }
    }

    // Accumulators: (lane, reg) -> row g + 8 (reg / 2), col 2t + reg % 2 of each m16n8 tile,
    // g = lane / 4, t = lane % 4; one float2 per (tile, half) where rows are an even number of
    // floats apart (8-byte aligned), else one float each. Slice z: rows ldo floats apart.
    float* slice = out + static_cast<std::int64_t>(blockIdx.z) * m * ldo;
    const int g = lane / 4;
    const int t4 = lane % 4;
#pragma unroll
    for (int mt = 0; mt < kTilesM; ++mt) {
#pragma unroll
        for (int nt = 0; nt < kTilesN; ++nt) {
            const int col = col0 + wn * kWarpN + 8 * nt + 2 * t4;
#pragma unroll
            for (int half = 0; half < 2; ++half) {
                const int row = row0 + wm * kWarpM + 16 * mt + g + 8 * half;
                if (row >= m || col >= n) continue;
                float* dst = slice + row * ldo + col;
                if (ldo % 2 == 0) {
                    *reinterpret_cast<float2*>(dst) =
                        make_float2(acc[mt][nt][2 * half], acc[mt][nt][2 * half + 1]);
                } else {
                    dst[0] = acc[mt][nt][2 * half];
                    if (col + 1 < n) dst[1] = acc[mt][nt][2 * half + 1];
                }
            }
        }
    }
}

// C[r][col] (rows ldc floats apart) = sum over z = 0 .. ranges - 1 of partials[z slice_floats +
// r ldp + col], in that order; grid-stride, thread -> element i = r cols + col (no division
// where both strides are cols).
__global__ void sum_ranges(const float* __restrict__ partials, std::int64_t slice_floats,
                           std::int64_t ldp, float* __restrict__ c, std::int64_t rows,
                           std::int64_t cols, std::int64_t ldc, int ranges) {
    const std::int64_t count = rows * cols;
    const bool dense = ldp == cols && ldc == cols;
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         i < count; i += stride) {
        const std::int64_t row = dense ? 0 : i / cols;
        const std::int64_t col = dense ? i : i % cols;
        float sum = 0;
        for (int z = 0; z < ranges; ++z) sum += partials[z * slice_floats + row * ldp + col];
        c[row * ldc + col] = sum;
    }
}

template <typename Element>
cudaError_t launch_ranges(const GemmOperands& operands, int splits, float* workspace,
                          cudaStream_t stream) {
    const GemmProblem& p = operands.problem;
    const auto depth = static_cast<int>(split_k_depth(p.k, splits));
    const int ranges = split_k_ranges(p.k, splits);
    const auto tiles_n = static_cast<int>((p.n + kSplitKBlockN - 1) / kSplitKBlockN);
    const std::int64_t tiles = (p.m + kSplitKBlockM - 1) / kSplitKBlockM * tiles_n;
    float* out = ranges == 1 ? operands.c : workspace;
    const std::int64_t ldo = ranges == 1 ? c_stride(operands) : p.n;
    const dim3 grid(static_cast<unsigned>(tiles), 1, static_cast<unsigned>(ranges));
    split_k_gemm<Element><<<grid, kThreads, 0, stream>>>(
        static_cast<const Element*>(operands.a), a_stride(operands),
        static_cast<const Element*>(operands.b), b_stride(Precision::kBF16, operands), out, ldo,
        static_cast<int>(p.m), static_cast<int>(p.n), static_cast<int>(p.k), tiles_n, depth);
    if (ranges == 1) return cudaGetLastError();
    const cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess) return status;
    return sum_split_ranges(workspace, p.m * p.n, p.n, ranges, operands.c, {p.m, p.n},
                            c_stride(operands), stream);
}

}  // namespace

cudaError_t sum_split_ranges(const float* partials, std::int64_t slice_floats, std::int64_t ldp,
                             int ranges, float* c, MatrixShape shape, std::int64_t ldc,
                             cudaStream_t stream) {
    constexpr int kSumThreads = 256;
    const std::int64_t count = shape.rows * shape.cols;
    const std::int64_t blocks =
        std::min<std::int64_t>((count + kSumThreads - 1) / kSumThreads, std::int64_t{65535});
    sum_ranges<<<static_cast<unsigned>(std::max<std::int64_t>(blocks, 1)), kSumThreads, 0,
                 stream>>>(partials, slice_floats, ldp, c, shape.rows, shape.cols, ldc, ranges);
    return cudaGetLastError();
}

std::int64_t split_k_workspace_floats(const GemmProblem& problem, int splits) {
    const int ranges = split_k_ranges(problem.k, splits);
    return ranges == 1 ? 0 : ranges * problem.m * problem.n;
}

cudaError_t split_k_launch(Precision precision, const GemmOperands& operands, int splits,
                           float* workspace, cudaStream_t stream) {
    if (precision == Precision::kF16) {
        return launch_ranges<__half>(operands, splits, workspace, stream);
    }
    if (precision == Precision::kBF16) {
        return launch_ranges<__nv_bfloat16>(operands, splits, workspace, stream);
    }
    return cudaErrorInvalidValue;
}

}  // namespace tclens::kernels
