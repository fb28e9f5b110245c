#pragma once
// Rung 14's split-K GEMM, plain C++: rung 9's kernel (kernels/09_wgmma_tma.cu: TMA, mbarriers,
// wgmma over 64-deep K tiles) in one of its block tiles (Rung9Tile), with K cut into ranges. The
// dispatch rules (kernels/dispatch_rules.h) pick the tile and size the split from it, and rung
// 14's descriptor describes it; kernels/split_k_gemm.cu launches it. With one range and rung 9's
// 128 x 128 tile it is rung 9 itself.
//
// Split-K: the K loop of each C tile is cut into `splits` contiguous ranges of whole K tiles;
// CTA (tile, z) multiplies range z (blockIdx.y) and writes its f32 partial tile into slice z of
// a workspace (ranges x M x N); the last CTA of the tile to finish (an arrival count per tile)
// sums the tile's slices into C in order z = 0, 1, ... (deterministic: the same sum whichever CTA
// is last; kernels/split_k_sum.cuh). One launch: a second kernel that summed every slice cost
// 5.2 us of 17.4 at 128 x 3072 x 3072 (Nsight Compute on an H200,
// tests/gpu/results/2026-11-30_h200_session24/). With one range the kernel writes C directly.

#include <cstdint>
#include <string>

#include "kernels/09_wgmma_tma.h"
#include "kernels/gemm.h"
#include "kernels/tma_tile_limits.h"

namespace tclens::kernels {

constexpr int kSplitKBlockK = 64;     // K tile: one TMA box row of 128 bytes
constexpr int kSplitKMaxSplits = 32;  // ranges per tile; gridDim.y

// K elements per range when `splits` ranges share `k`: whole K tiles, the ranges as equal as
// that allows. Example: (7696, 16) -> 121 K tiles / 16 = 8 tiles -> 512.
inline std::int64_t split_k_depth(std::int64_t k, int splits) {
    const std::int64_t tiles = (k + kSplitKBlockK - 1) / kSplitKBlockK;
    return (tiles + splits - 1) / splits * kSplitKBlockK;
}

// The non-empty ranges `splits` ranges of split_k_depth leave: (7696, 16) -> 16; (96, 16) -> 2.
inline int split_k_ranges(std::int64_t k, int splits) {
    const std::int64_t depth = split_k_depth(k, splits);
    return static_cast<int>((k + depth - 1) / depth);
}

// K ranges of rung 9's kernel (a parameter of it): `count` ranges (gridDim.y) of `k_tiles` K
// tiles each, the last one shorter where K ends (0: the one range is all of K), range z storing
// its C tiles at c + z * slice_floats. Where `arrivals` is set (count > 1), the CTAs of tile
// blockIdx.x count their arrivals in arrivals[blockIdx.x] (zero before the launch, and again
// after it) and the last sums the tile's slices into sum_c (rows sum_ldc floats apart). The
// default is rung 9's GEMM itself.
struct KRanges {
    int count = 1;
    int k_tiles = 0;
    std::int64_t slice_floats = 0;
    unsigned* arrivals = nullptr;
    float* sum_c = nullptr;
    std::int64_t sum_ldc = 0;
};

// The arrival counts a split-K launch of `problem` in `tile` needs: one per C tile.
inline std::int64_t split_k_arrival_counts(const GemmProblem& problem, Rung9Tile tile) {
    const Rung9TileShape shape = rung9_tile_shape(tile);
    return ((problem.m + shape.block_m - 1) / shape.block_m) *
           ((problem.n + shape.block_n - 1) / shape.block_n);
}

// "" when the split-K GEMM in `tile` computes `problem`: rung 9's limits (tma_gemm_can_run: N
// and K multiples of 8, sides at most 2^30, tiles an int).
inline std::string split_k_can_run(const GemmProblem& problem, Rung9Tile tile) {
    const Rung9TileShape shape = rung9_tile_shape(tile);
    return tma_gemm_can_run(problem, shape.block_m, shape.block_n);
}

}  // namespace tclens::kernels
