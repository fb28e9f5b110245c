#pragma once
// The split-K GEMM's shape (kernels/split_k_gemm.cu), plain C++: the dispatch rules
// (kernels/dispatch_rules.h) size their split from it and rung 14's descriptor describes it.
//
// Split-K: the K loop of each 64 x 64 C tile is cut into `splits` contiguous ranges of whole
// 32-deep K steps; CTA (tile, z) multiplies range z and writes its f32 partial tile into slice z
// of a workspace (splits x M x N), and a second kernel sums the slices into C in order
// z = 0, 1, ... (deterministic: no atomics). With one range the GEMM writes C directly.

#include <cstdint>
#include <string>

#include "kernels/gemm.h"
#include "kernels/row_copy_limits.h"

namespace tclens::kernels {

constexpr int kSplitKBlockM = 64;  // C tile of one CTA
constexpr int kSplitKBlockN = 64;
constexpr int kSplitKBlockK = 32;  // K step: one cp.async stage
constexpr int kSplitKWarpsM = 2;   // 4 warps of 32 x 32 C each
constexpr int kSplitKWarpsN = 2;
constexpr int kSplitKStages = 3;      // cp.async ring
constexpr int kSplitKMaxSplits = 16;  // ranges per tile; gridDim.z
constexpr int kSplitKThreads = 32 * kSplitKWarpsM * kSplitKWarpsN;
// 16-byte cp.async chunks (8 elements) per tile row; thread tid copies chunk c = tid + 128 i of
// a tile, row c / chunks per row, so its rows are kSplitKThreads / chunks per row apart.
constexpr int kSplitKAChunksPerRow = kSplitKBlockK / 8;  // A: 64 rows of 32 elements
constexpr int kSplitKBChunksPerRow = kSplitKBlockN / 8;  // B: 32 rows of 64 elements

// K elements per range when `splits` ranges share `k`: whole K steps, the ranges as equal as
// that allows. Example: (7696, 16) -> 241 K steps / 16 = 16 steps -> 512.
inline std::int64_t split_k_depth(std::int64_t k, int splits) {
    const std::int64_t steps = (k + kSplitKBlockK - 1) / kSplitKBlockK;
    return (steps + splits - 1) / splits * kSplitKBlockK;
}

// The non-empty ranges `splits` ranges of split_k_depth leave: (7696, 16) -> 16; (96, 16) -> 3.
inline int split_k_ranges(std::int64_t k, int splits) {
    const std::int64_t depth = split_k_depth(k, splits);
    return static_cast<int>((k + depth - 1) / depth);
}

// "" when the split-K GEMM computes `problem`: rows copied in 16-byte cp.async pieces (N and K
// multiples of 8, sides at most 2^30: row_copy_can_run). Tiles and ranges need no more:
// 2^30 / 64 squared tiles exceed gridDim.x, so a last check keeps the tile count an int.
inline std::string split_k_can_run(const GemmProblem& problem) {
    if (std::string why = row_copy_can_run(problem, 8, "16-byte cp.async pieces"); !why.empty()) {
        return why;
    }
    const std::int64_t tiles = (problem.m + kSplitKBlockM - 1) / kSplitKBlockM *
                               ((problem.n + kSplitKBlockN - 1) / kSplitKBlockN);
    if (tiles > 2147483647) {
        return "C has more than 2147483647 tiles of 64 x 64: one CTA each, gridDim.x limit";
    }
    return "";
}

}  // namespace tclens::kernels
