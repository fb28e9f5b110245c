#pragma once
// Rung 11's tile per problem (kernels/11_wgmma_persistent.cu), pure: the launcher calls it with
// the co-resident cluster count it looks up on the GPU, the descriptor's plan text and tile map
// with an H100's, and tests/unit/kernels/wave_choice_test.cpp holds it to its examples.
//
// Wave quantisation: the persistent grid is `clusters` clusters of 2 CTAs, one CTA per SM, and
// cluster q computes cluster tiles q, q + clusters, ... (2 C tiles stacked along M each), so the
// launch takes rounds = ceil(cluster tiles / clusters) tile times, and in the last round only
// the leftover clusters work. On 132 SMs (66 clusters) 3072^3 in 128 x 256 tiles is 288 tiles =
// 144 cluster tiles = 2.18 waves: 3 rounds, of which the CTAs fill 288 / (3 x 132) = 73 %.
// 128 x 192 tiles make it 384 tiles = 2.91 waves: still 3 rounds, 97 % filled.
//
// The choice: a round of 128 x 192 tiles does 3/4 of the multiply-adds of a 128 x 256 round but
// loads 5/6 of its operand bytes (128 + 192 = 320 rows of A and B per K step, against 384), so it
// costs between 3/4 and 5/6 of a 256 round, depending on whether the tensor cores or the loads
// set the pace. 128 x 192 is chosen only where it wins even at 5/6: rounds_192 x 320 <
// rounds_256 x 384. Everywhere else, ties included, 128 x 256 (the tile rung 11 was tuned with).
// Examples on 66 clusters: 3072^3 3 vs 3 rounds -> 192; 4096^3 6 vs 4 -> 256; 8192^3 21 vs 16
// -> 256 (192 fills 99 % of its rounds against 97 %, but 21 x 320 > 16 x 384); lab 6's
// M = 1024 and 2048 (N = K = 3072) 1 vs 1 and 2 vs 2 -> 192.

#include <cstdint>
#include <string>

#include "kernels/gemm.h"

namespace tclens::kernels {

// One of rung 11's two tiles: C block_m x block_n per CTA, clusters of cluster_m CTAs along M
// (kernels/11_wgmma_persistent.cu's configs must match these).
struct PersistentTile {
    int block_m = 0;
    int block_n = 0;
    int cluster_m = 0;
};
constexpr PersistentTile kPersistentWideTile{128, 256, 2};
constexpr PersistentTile kPersistentNarrowTile{128, 192, 2};

// Whether Config (a PersistentShape or a kernel Config) has `tile`'s block and cluster.
template <typename Config>
constexpr bool has_tile(PersistentTile tile) {
    return Config::kBlockM == tile.block_m && Config::kBlockN == tile.block_n &&
           Config::kClusterM == tile.cluster_m;
}

// How `tile` fills the persistent grid of `clusters` (>= 1) clusters for `problem`.
struct PersistentWaves {
    PersistentTile tile;
    std::int64_t tiles = 0;          // C tiles: ceil(M / block_m) x ceil(N / block_n)
    std::int64_t cluster_tiles = 0;  // the loop's units: ceil(tiles_m / cluster_m) x tiles_n
    std::int64_t rounds = 0;         // ceil(cluster_tiles / clusters): the busiest CTA's tiles
    int ctas = 0;                    // clusters x cluster_m
    // tiles / ctas, e.g. 2.18.
    double waves() const;
    // tiles / (rounds x ctas): the share of the rounds' CTA slots that compute a C tile.
    double filled() const;
    // rounds x (block_m + block_n): the operand rows all rounds load per K step, the cost the
    // choice compares (see the header).
    std::int64_t load_cost() const;
};

// 3072^3, 128 x 256, 66 clusters -> 288 tiles, 144 cluster tiles, 3 rounds, 132 CTAs.
PersistentWaves persistent_waves(const GemmProblem& problem, PersistentTile tile, int clusters);

// kPersistentNarrowTile where its load cost is lower than kPersistentWideTile's, else
// kPersistentWideTile (the header's rule). `clusters` >= 1: the co-resident clusters of 2.
PersistentTile persistent_tile_for(const GemmProblem& problem, int clusters);

// One line for `tclens kernels --mnk`: the tile rung 11 picks for `problem` on `clusters`
// clusters and why, e.g. for 3072^3 on 66: "128 x 192 tiles on 132 SMs: 384 tiles = 2.91 waves,
// 3 rounds 97 % filled (128 x 256: 288 tiles = 2.18 waves, 3 rounds 73 % filled)".
std::string persistent_plan_text(const GemmProblem& problem, int clusters);

}  // namespace tclens::kernels
