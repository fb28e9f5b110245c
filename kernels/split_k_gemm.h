#pragma once
// Rung 14's split-K GEMM, plain C++: rung 9's kernel (kernels/09_wgmma_tma.cu: TMA, mbarriers,
// wgmma over 64-deep K tiles) in one of its block tiles (Rung9Tile), with K cut into ranges. The
// dispatch rules (kernels/dispatch_rules.h) pick the tile and size the split from it, and rung
// 14's descriptor describes it; kernels/split_k_gemm.cu launches it. With one range and rung 9's
// 128 x 128 tile it is rung 9 itself.
//
// Split-K: the K loop of each C tile is cut into `splits` contiguous ranges of whole K tiles;
// CTA (tile, z) multiplies range z (blockIdx.y) and writes its f32 partial tile into slice z of
// a workspace (ranges x M x N), and a second kernel sums the slices into C in order z = 0, 1,
// ... (deterministic: no atomics). With one range the kernel writes C directly.
// Measured and left: summing inside the kernel instead, by the last CTA of each tile to finish
// (an arrival count per tile), took longer than the two launches: 19.8 us against 12.2 + 5.2 at
// 128 x 3072 x 3072 in 64 x 128 tiles and 5 ranges (Nsight Compute on an H200), and the 1000-shape
// sweep fell from 0.91x to 0.83x of cuBLAS. One CTA reading every slice of its tile waits on its
// loads' latency, where the sum kernel spreads the reads over every SM
// (tests/gpu/results/2026-11-30_h200_session24/README.md). Nor in a cluster: the ranges of a tile
// (at most 8) as one cluster, each CTA sending the 8-column blocks of its partial tile that other
// ranks own to their shared memory (st.shared::cluster) and summing its own, lost to the second
// kernel on nearly every split timed and in every shape's best configuration (session 29,
// tests/gpu/results/2026-12-01_h200_session29: lab 6's M = 16 ... 256 at 90, 91, 81, 78, 69 % of
// cuBLAS against 101, 100, 84, 80, 78 the same day; under Nsight Compute the GEMM alone took
// 15.0 us at 128 x 3072 x 3072 in 64 x 64 tiles, split 2, against 13.2 unclustered).

#include <cstdint>
#include <string>

#include "kernels/09_wgmma_tma.h"
#include "kernels/gemm.h"
#include "kernels/tma_tile_limits.h"

namespace tclens::kernels {

constexpr int kSplitKBlockK = 64;     // K tile: one TMA box row of 128 bytes
constexpr int kSplitKMaxSplits = 32;  // ranges per tile; gridDim.y

// The K tile of rung 9's kernel with `precision`'s inputs: kSplitKBlockK 16-bit elements, or 128
// e4m3 ones (kE4M3), one 128-byte row either way (kernels/wgmma_inputs.h).
constexpr int split_k_block_k(Precision precision) {
    return precision == Precision::kE4M3 ? static_cast<int>(kTmaFp8BoxElems) : kSplitKBlockK;
}

// K elements per range when `splits` ranges share `k`: whole K tiles of `block_k`, the ranges as
// equal as that allows. Example: (7696, 16) -> 121 K tiles / 16 = 8 tiles -> 512; e4m3's
// (7696, 16, 128) -> 61 K tiles / 16 = 4 tiles -> 512.
inline std::int64_t split_k_depth(std::int64_t k, int splits, int block_k = kSplitKBlockK) {
    const std::int64_t tiles = (k + block_k - 1) / block_k;
    return (tiles + splits - 1) / splits * block_k;
}

// The non-empty ranges `splits` ranges of split_k_depth leave: (7696, 16) -> 16; (96, 16) -> 2.
inline int split_k_ranges(std::int64_t k, int splits, int block_k = kSplitKBlockK) {
    const std::int64_t depth = split_k_depth(k, splits, block_k);
    return static_cast<int>((k + depth - 1) / depth);
}

// K ranges of rung 9's kernel (a parameter of it): `count` ranges (gridDim.y) of `k_tiles` K
// tiles each, the last one shorter where K ends (0: the one range is all of K), range z storing
// its C tiles at c + z * slice_floats. The default is rung 9's GEMM itself.
struct KRanges {
    int count = 1;
    int k_tiles = 0;
    std::int64_t slice_floats = 0;
};

// "" when the split-K GEMM in `tile` computes `problem` with `precision`'s inputs: rung 9's
// limits (tma_gemm_can_run: N and K multiples of 8, sides at most 2^30, tiles an int; e4m3:
// tma_fp8_gemm_can_run, K a multiple of 16, N of 4).
inline std::string split_k_can_run(const GemmProblem& problem, Rung9Tile tile,
                                   Precision precision) {
    const Rung9TileShape shape = rung9_tile_shape(tile);
    return precision == Precision::kE4M3
               ? tma_fp8_gemm_can_run(problem, shape.block_m, shape.block_n)
               : tma_gemm_can_run(problem, shape.block_m, shape.block_n);
}

}  // namespace tclens::kernels
