// Rung 14's short-K GEMM (kernels/short_k_gemm.h): one CTA per 128 x 128 tile of C, in rung 9's
// order (16-row column bands), two warpgroups. Per K tile of 64: wgmma reads only the k16 steps
// that reach K (k_steps), so every thread reads its share of those columns of A and rows of B
// as 16-bit bit patterns (kLoadBatch reads in flight at a time, A's batches then B's, not
// unrolled into each other, so that 128 registers hold it), zeros past M, N and K, and writes them
// where TMA's 128-byte swizzle would have put them (rung 9's stage: A rows of 128 bytes, 16-byte
// chunk c of row r at chunk c ^ (r % 8); B in two boxes of 64 columns, the same swizzle on its K
// rows), fences the generic-proxy writes for wgmma's async-proxy reads, and after a CTA barrier
// warpgroup w multiplies rows 64 w .. 64 w + 63 with up to four wgmma m64n128k16. A second K
// tile waits for the first one's wgmma before its writes. C leaves through the stage, 64 columns
// at a time (stage_c_half, store_c_half), so that each warp writes whole row segments of 128
// bytes, for any ldc (an odd one included), guarded per element. Addresses advance by constant
// strides, the swizzle folded into one XOR per element (Nsight Compute, session 23: the
// kernel's integer address arithmetic had taken 64 % of its issue slots).
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
// A thread's i-th read lands kARowsPerRead (4) rows further on, its chunk bit 2 flipped for odd
// i; the i-th read of B kBRowsPerRead (2) rows on, chunk bits 1-2 flipped by i % 4 (rows r0 < 4
// and r0 < 2 add no carry into r % 8): a_offset(4 i + r0, c) = 512 i + (a_offset(r0, c) ^ 64 (i
// % 2)), b_offset(2 i + r0, c) = 256 i + (b_offset(r0, c) ^ 32 (i % 4)).
constexpr int kAReadBytes = C::kARowsPerRead * hopper::kSwizzleRowBytes;
constexpr int kBReadBytes = C::kBRowsPerRead * hopper::kSwizzleRowBytes;
__host__ __device__ constexpr int a_flip(int i) { return (i & 1) << 6; }
__host__ __device__ constexpr int b_flip(int i) { return (i & 3) << 5; }
// Every read of A and of B, by those strides and flips, lands where the swizzle puts it; and a
// batch starts at a read i0 that is a multiple of 4, so read i0 + j flips as read j does.
constexpr bool reads_follow_the_swizzle() {
    for (int i = 0; i < C::kLoadsPerThread; ++i) {
        for (int r0 = 0; r0 < C::kARowsPerRead; ++r0) {
            for (int col = 0; col < C::kBlockK; ++col) {
                if (a_offset(C::kARowsPerRead * i + r0, col) !=
                    i * kAReadBytes + (a_offset(r0, col) ^ a_flip(i))) {
                    return false;
                }
            }
        }
        for (int r0 = 0; r0 < C::kBRowsPerRead; ++r0) {
            for (int col = 0; col < C::kBlockN; ++col) {
                if (b_offset(C::kBRowsPerRead * i + r0, col) !=
                    i * kBReadBytes + (b_offset(r0, col) ^ b_flip(i))) {
                    return false;
                }
            }
        }
    }
    return true;
}
static_assert(reads_follow_the_swizzle(), "a read's stage offset");
static_assert(C::kLoadBatch % 4 == 0, "read i0 + j of a batch flips as read j");

// Float offset in the stage of C element (row r, column cc) of a 64-column half of the tile: row
// r's 64 floats, 8-float chunk cc / 8 swizzled with r % 8, so that each half-warp's float2 writes
// of four rows (stage_c_half: two wavefronts a warp, the least 256 bytes take) and a warp's reads
// along one row (store_c_half) fall in distinct banks.
__host__ __device__ constexpr int c_offset(int r, int cc) {
    return r * C::kCHalfCols + ((((cc >> 3) ^ (r & 7))) << 3) + (cc & 7);
}
// C (9, 17) is row 9, chunk 2 ^ 1 = 3, element 1: 9 x 64 + 24 + 1. Along a row r, column cc < 64
// is at r x 64 + (cc ^ 8 (r % 8)).
static_assert(c_offset(9, 17) == 9 * 64 + 3 * 8 + 1, "C swizzle");
static_assert(c_offset(9, 17) == 9 * 64 + (17 ^ 8), "C along a row");
constexpr bool c_rows_follow_the_swizzle() {
    for (int r = 0; r < C::kBlockM; ++r) {
        for (int cc = 0; cc < C::kCHalfCols; ++cc) {
            if (c_offset(r, cc) != r * C::kCHalfCols + (cc ^ (8 * (r % 8)))) return false;
        }
    }
    return true;
}
static_assert(c_rows_follow_the_swizzle(), "C's stage offset along a row");

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
    static_assert(kRowsPerWarp % 8 == 0, "a warp's first row is one of the swizzle's row 0s");
    const int first = kRowsPerWarp * (tid / 32);
    const int lane = tid % 32;
    const int rows = m - row0 - first;  // this warp's rows inside M
    const bool left_in = col0 + lane < n;
    const bool right_in = col0 + lane + 32 < n;
    float* out = c + static_cast<std::int64_t>(row0 + first) * ldc + col0 + lane;
    const float* row = stage_c + first * C::kCHalfCols;
#pragma unroll
    for (int i = 0; i < kRowsPerWarp; ++i) {
        if (i >= rows) break;
        if (left_in) out[0] = row[lane ^ (8 * (i % 8))];
        if (right_in) out[32] = row[(lane + 32) ^ (8 * (i % 8))];
        out += ldc;
        row += C::kCHalfCols;
    }
}

// Warpgroup `warpgroup`'s rows of the stage's A times its B, the first kSteps k16 steps, into
// acc (added to it where `accumulate`, else the first step overwrites it).
template <typename Element, int kSteps>
__device__ __forceinline__ void multiply(float (&acc)[C::kWgmmaN / 2], std::uint64_t a_desc,
                                         std::uint64_t b_desc, int warpgroup, bool accumulate) {
    namespace hp = hopper;
    hp::wgmma_fence();
#pragma unroll
    for (int step = 0; step < kSteps; ++step) {
        hp::wgmma_ss<Element, C::kWgmmaN>(
            acc,
            hp::advance_descriptor(
                a_desc, warpgroup * hp::kWgmmaM * hp::kSwizzleRowBytes + step * hp::kAStepBytes),
            hp::advance_descriptor(b_desc, step * hp::kBStepBytes), accumulate || step != 0);
    }
}

// Writes this thread's reads of the K tile at k0 into the stage, for wgmma's first k_steps k16
// steps (k_extent = 16 k_steps columns of A, rows of B; the rest of the stage is not read):
// A column a_col of rows 4 i + a_row, B row 2 i + b_row of column b_col, i < kLoadsPerThread,
// zeros past M, N and K. a_read / b_read: A (block_row + a_row, a_col) and B (b_row,
// block_col + b_col); a_stage / b_stage: a_offset(a_row, a_col) and b_offset(b_row, b_col).
__device__ __forceinline__ void load_k_tile(
    unsigned char* stage, const std::uint16_t* __restrict__ a_read, std::int64_t lda,
    const std::uint16_t* __restrict__ b_read, std::int64_t ldb, int k0, int k_left, int k_extent,
    int a_rows_left, int a_col, int a_stage, bool b_col_in, int b_row, int b_stage) {
    using R = std::uint16_t;
    if (a_col < k_extent) {  // warp-uniform where k_extent is a multiple of 32
        const bool a_col_in = a_col < k_left;
        const std::int64_t step = C::kARowsPerRead * lda;
#pragma unroll 1
        for (int i0 = 0; i0 < C::kLoadsPerThread && C::kARowsPerRead * i0 < a_rows_left;
             i0 += C::kLoadBatch) {
            const R* from = a_read + k0 + i0 * step;
            R bits[C::kLoadBatch];
#pragma unroll
            for (int j = 0; j < C::kLoadBatch; ++j) {
                bits[j] = a_col_in && C::kARowsPerRead * (i0 + j) < a_rows_left ? *from : R{0};
                from += step;
            }
            unsigned char* const to = stage + i0 * kAReadBytes;
#pragma unroll
            for (int j = 0; j < C::kLoadBatch; ++j) {  // i0 is even: (i0 + j) % 2 == j % 2
                *reinterpret_cast<R*>(to + j * kAReadBytes + (a_stage ^ a_flip(j))) = bits[j];
            }
        }
    }
    const std::int64_t step = C::kBRowsPerRead * ldb;
#pragma unroll 1
    for (int i0 = 0; i0 < C::kLoadsPerThread && C::kBRowsPerRead * i0 < k_extent;
         i0 += C::kLoadBatch) {
        const R* from = b_read + static_cast<std::int64_t>(k0) * ldb + i0 * step;
        R bits[C::kLoadBatch];
#pragma unroll
        for (int j = 0; j < C::kLoadBatch; ++j) {
            bits[j] = b_col_in && C::kBRowsPerRead * (i0 + j) + b_row < k_left ? *from : R{0};
            from += step;
        }
        unsigned char* const to = stage + i0 * kBReadBytes;
#pragma unroll
        for (int j = 0; j < C::kLoadBatch; ++j) {  // i0 % 4 == 0: (i0 + j) % 4 == j % 4
            *reinterpret_cast<R*>(to + j * kBReadBytes + (b_stage ^ b_flip(j))) = bits[j];
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
    // This thread's reads (load_k_tile): A column a_col of rows 4 i + a_row, B row 2 i + b_row of
    // column b_col.
    const int a_row = tid / C::kBlockK;
    const int a_col = tid % C::kBlockK;
    const int b_row = tid / C::kBlockN;
    const int b_col = tid % C::kBlockN;
    const std::uint16_t* const a_read =
        a + static_cast<std::int64_t>(block_row + a_row) * lda + a_col;
    const std::uint16_t* const b_read =
        b + static_cast<std::int64_t>(b_row) * ldb + block_col + b_col;
    const int a_stage = a_offset(a_row, a_col);
    const int b_stage = b_offset(b_row, b_col);
    const int a_rows_left = m - block_row - a_row;
    const bool b_col_in = block_col + b_col < n;

    for (int k0 = 0; k0 < k; k0 += C::kBlockK) {
        // Every warpgroup's wgmma of the last K tile are done before its stage is written.
        if (k0 > 0) __syncthreads();
        const int k_left = k - k0;
        const int k_steps = min(C::kBlockK, k_left + hp::kWgmmaK - 1) / hp::kWgmmaK;
        load_k_tile(stage, a_read, lda, b_read, ldb, k0, k_left, k_steps * hp::kWgmmaK, a_rows_left,
                    a_col, a_stage, b_col_in, b_row, b_stage);
        hp::fence_proxy_async_shared();  // these writes before wgmma reads them
        __syncthreads();
        switch (k_steps) {  // straight-line wgmma in each case: no fence between them
            case 1:
                multiply<Element, 1>(acc, a_desc, b_desc, warpgroup, k0 != 0);
                break;
            case 2:
                multiply<Element, 2>(acc, a_desc, b_desc, warpgroup, k0 != 0);
                break;
            case 3:
                multiply<Element, 3>(acc, a_desc, b_desc, warpgroup, k0 != 0);
                break;
            default:
                multiply<Element, C::kBlockK / hopper::kWgmmaK>(acc, a_desc, b_desc, warpgroup,
                                                                k0 != 0);
                break;
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
