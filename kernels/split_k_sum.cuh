#pragma once
// Split-K's sum of ranges inside rung 9's kernel (kernels/09_wgmma_tma.cu, KRanges in
// kernels/split_k_gemm.h): every CTA of a C tile has stored its range's partial tile into its
// slice; they count their arrivals, and the last to arrive sums the tile's slices into C, each
// element from zero in range order z = 0, 1, ... (as sum_split_ranges, kernels/split_k_gemm.cu,
// sums the same slices: the same floats whichever CTA is last).
//
// Ordering (the last-block pattern of CUDA's threadFenceReduction sample): each thread fences its
// partial stores at GPU scope, the CTA barrier gathers them, then one atomic add per CTA; the CTA
// that counts last fences again before it reads the slices through L2 (ld.global.cg: L1 is not
// coherent with the other SMs' stores), and sets the count back to zero for the next launch (no
// CTA of this launch counts after it).
//
// The sum runs from memory to memory, after the accumulators are stored and dead, so it adds
// no registers to the K loop's: 64-row bands of the tile, each thread 16 groups of 4 floats (a
// 64 x 128 band) or of 1 (an odd N), all of a slice's loads in flight before they are added.
// Included only by .cu files; sm_90a device pass alone.

#include <cstdint>

#include "kernels/block_order.h"
#include "kernels/split_k_gemm.h"

namespace tclens::kernels {

#if defined(TCLENS_HOPPER_DEVICE)

// Adds groups first .. first + Groups - 1 of a thread's (below) over the ranges of `slices` (m x
// n each, dense: rows n floats apart) and stores the sums into C, Vec floats at a time. Thread t,
// group i of the 64-row band at (row0, col0) -> element q = t + 128 i of its Cols / Vec groups a
// row: row q / (Cols / Vec), column (q % (Cols / Vec)) Vec; a warp reads 32 consecutive groups
// of one row. Each element from zero in range order; all of a slice's loads in flight at once.
template <int Cols, int Vec, int Groups>
__device__ __forceinline__ void sum_groups(const KRanges& ranges, const float* __restrict__ slices,
                                           int m, int n, int row0, int col0, int first) {
    constexpr int kThreads = 128;
    constexpr int kGroupsPerRow = Cols / Vec;
    const int tid = static_cast<int>(threadIdx.x);
    float sum[Groups][Vec] = {};
    for (int z = 0; z < ranges.count; ++z) {
        const float* slice = slices + z * ranges.slice_floats;
#pragma unroll
        for (int i = 0; i < Groups; ++i) {
            const int q = tid + kThreads * (first + i);
            const int row = row0 + q / kGroupsPerRow;
            const int col = col0 + q % kGroupsPerRow * Vec;
            if (row >= m || col >= n) continue;
            const float* in = slice + static_cast<std::int64_t>(row) * n + col;
            if constexpr (Vec == 4) {
                const float4 v = __ldcg(reinterpret_cast<const float4*>(in));
                sum[i][0] += v.x;
                sum[i][1] += v.y;
                sum[i][2] += v.z;
                sum[i][3] += v.w;
            } else {
                sum[i][0] += __ldcg(in);
            }
        }
    }
#pragma unroll
    for (int i = 0; i < Groups; ++i) {
        const int q = tid + kThreads * (first + i);
        const int row = row0 + q / kGroupsPerRow;
        const int col = col0 + q % kGroupsPerRow * Vec;
        if (row >= m || col >= n) continue;
        float* out = ranges.sum_c + row * ranges.sum_ldc + col;
        if constexpr (Vec == 4) {
            *reinterpret_cast<float4*>(out) =
                make_float4(sum[i][0], sum[i][1], sum[i][2], sum[i][3]);
        } else {
            *out = sum[i][0];
        }
    }
}

// C rows row0 .. row0 + 63, columns col0 .. col0 + Cols - 1 (inside m x n) = the sum over the
// ranges, Vec floats at a time (4 where n, C's row stride and C's address allow 16-byte
// accesses, else 1), 16 groups a thread at once: a 64 x 128 band in one pass of float4s.
template <int Cols, int Vec>
__device__ __forceinline__ void sum_band(const KRanges& ranges, const float* __restrict__ slices,
                                         int m, int n, int row0, int col0) {
    constexpr int kGroups = 64 * (Cols / Vec) / 128;  // a thread's
    constexpr int kPass = kGroups < 16 ? kGroups : 16;
    static_assert(kGroups % kPass == 0, "the band splits evenly over 128 threads");
#pragma unroll 1
    for (int first = 0; first < kGroups; first += kPass) {
        sum_groups<Cols, Vec, kPass>(ranges, slices, m, n, row0, col0, first);
    }
}

// After this CTA (128 threads, as rung 9's) stored its partial tile (rows block.row .. + Rows,
// columns block.col .. + Cols) into slice blockIdx.y of `slices` (slice z at slices + z *
// ranges.slice_floats): the last CTA of the tile to arrive stores the tile's sum into
// ranges.sum_c; the others return at once. Every thread of the CTA calls it (it holds barriers).
template <int Rows, int Cols>
__device__ __forceinline__ void sum_ranges_if_last(const KRanges& ranges,
                                                   const float* __restrict__ slices, int m, int n,
                                                   BlockOrigin block) {
    static_assert(Rows % 64 == 0, "64-row bands");
    __threadfence();
    __syncthreads();
    int last = 0;
    if (threadIdx.x == 0) {
        unsigned* const count = ranges.arrivals + blockIdx.x;
        last = atomicAdd(count, 1u) == static_cast<unsigned>(ranges.count - 1);
        if (last) *count = 0;
    }
    if (!__syncthreads_or(last)) return;
    __threadfence();
    const bool vectors = n % 4 == 0 && ranges.sum_ldc % 4 == 0 &&
                         reinterpret_cast<std::uintptr_t>(ranges.sum_c) % 16 == 0;
#pragma unroll 1
    for (int band = 0; band < Rows; band += 64) {
        if (vectors) {
            sum_band<Cols, 4>(ranges, slices, m, n, block.row + band, block.col);
        } else {
            sum_band<Cols, 1>(ranges, slices, m, n, block.row + band, block.col);
        }
    }
}

#endif  // TCLENS_HOPPER_DEVICE

}  // namespace tclens::kernels
