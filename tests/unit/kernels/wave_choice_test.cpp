// Rung 11's tile per problem (kernels/wave_choice.h): the wave arithmetic of the header's
// examples, the sizes the ladder's targets name (an H100: 132 SMs, 66 clusters of 2), and the rule
// itself.

#include "kernels/wave_choice.h"

#include <gtest/gtest.h>

#include "kernels/bench_result.h"

namespace tclens::kernels {
namespace {

constexpr int kH100Clusters = 66;

int block_n_for(const GemmProblem& problem, int clusters = kH100Clusters) {
    return persistent_tile_for(problem, clusters).block_n;
}

TEST(WaveChoice, CountsTilesClusterTilesAndRounds) {
    const PersistentWaves wide = persistent_waves({3072, 3072, 3072}, kPersistentWideTile, 66);
    EXPECT_EQ(wide.tiles, 288);
    EXPECT_EQ(wide.cluster_tiles, 144);
    EXPECT_EQ(wide.rounds, 3);
    EXPECT_EQ(wide.ctas, 132);
    EXPECT_NEAR(wide.waves(), 2.18, 0.005);
    EXPECT_NEAR(wide.filled(), 288.0 / 396, 1e-12);
    EXPECT_EQ(wide.load_cost(), 3 * 384);
    const PersistentWaves narrow = persistent_waves({3072, 3072, 3072}, kPersistentNarrowTile, 66);
    EXPECT_EQ(narrow.tiles, 384);
    EXPECT_EQ(narrow.rounds, 3);
    EXPECT_NEAR(narrow.filled(), 384.0 / 396, 1e-12);
    // N is covered with ceil-div (4096 / 192 = 21.3 -> 22 columns), M by cluster rows (an odd
    // tile row count leaves the last cluster's second CTA a zero tile past M).
    const PersistentWaves edge =
        persistent_waves({4096 + 128, 4096, 64}, kPersistentNarrowTile, 66);
    EXPECT_EQ(edge.tiles, 33 * 22);
    EXPECT_EQ(edge.cluster_tiles, 17 * 22);
    EXPECT_EQ(edge.rounds, 6);  // 374 / 66 = 5.67
}

TEST(WaveChoice, IssueNineteenSizesOnAnH100) {
    EXPECT_EQ(block_n_for({3072, 3072, 3072}), 192);  // 3 rounds each, 97 % vs 73 % filled
    EXPECT_EQ(block_n_for({4096, 4096, 4096}), 256);  // 4 rounds vs 6
    EXPECT_EQ(block_n_for({8192, 8192, 8192}), 256);  // 16 rounds vs 21 (x 320 > x 384)
    EXPECT_EQ(block_n_for({1024, 3072, 3072}), 192);  // lab 6: 96 vs 128 tiles, one round each
    EXPECT_EQ(block_n_for({2048, 3072, 3072}), 192);  // lab 6: 2 rounds each
}

// The sizes tests/gpu/kernels/ladder_test.cpp adds to verify both tiles on an H100.
TEST(WaveChoice, GpuLadderSizesCoverBothTiles) {
    EXPECT_EQ(block_n_for({1000, 3000, 1040}), 192);
    EXPECT_EQ(block_n_for({3000, 3000, 200}), 192);
    EXPECT_EQ(persistent_waves({3000, 3000, 200}, kPersistentNarrowTile, 66).rounds, 3);
    EXPECT_EQ(block_n_for({4096, 4096, 512}), 256);
    EXPECT_EQ(block_n_for({4104, 4104, 264}), 256);
    EXPECT_EQ(persistent_waves({4104, 4104, 264}, kPersistentWideTile, 66).load_cost(),
              persistent_waves({4104, 4104, 264}, kPersistentNarrowTile, 66).load_cost());
    EXPECT_EQ(block_n_for({2048, 3072, 3072}), 192);
}

// The rule as the header states it, against every size of the presets the issue's targets
// name and a few odd ones: 192 exactly where its rounds x 320 is below 256's rounds x 384.
TEST(WaveChoice, NarrowTileOnlyWhereItLoadsLessInAll) {
    std::vector<GemmProblem> problems = preset_problems("square");
    for (const GemmProblem& p : preset_problems("lab6")) problems.push_back(p);
    for (const GemmProblem& p : preset_problems("llm")) problems.push_back(p);
    problems.push_back({1000, 3000, 1040});
    problems.push_back({3000, 3000, 200});
    for (int clusters : {1, 57, kH100Clusters}) {
        for (const GemmProblem& p : problems) {
            SCOPED_TRACE(std::to_string(p.m) + "x" + std::to_string(p.n) + " on " +
                         std::to_string(clusters));
            const auto wide = persistent_waves(p, kPersistentWideTile, clusters);
            const auto narrow = persistent_waves(p, kPersistentNarrowTile, clusters);
            const bool narrow_wins = narrow.rounds * 320 < wide.rounds * 384;
            EXPECT_EQ(block_n_for(p, clusters), narrow_wins ? 192 : 256);
            EXPECT_EQ(persistent_tile_for(p, clusters).block_m, 128);
            EXPECT_EQ(persistent_tile_for(p, clusters).cluster_m, 2);
        }
    }
}

TEST(WaveChoice, TiesGoToTheWideTile) {
    // One cluster, one cluster row: N = 1152 is 6 narrow columns (6 rounds x 320 = 1920) and
    // 4.5 -> 5 wide ones (5 x 384 = 1920).
    const GemmProblem equal{256, 1152, 64};
    EXPECT_EQ(persistent_waves(equal, kPersistentNarrowTile, 1).load_cost(), 1920);
    EXPECT_EQ(persistent_waves(equal, kPersistentWideTile, 1).load_cost(), 1920);
    EXPECT_EQ(block_n_for(equal, 1), 256);
    // Strictly lower: N = 192 is one round either way, 320 < 384.
    EXPECT_EQ(block_n_for({256, 192, 64}, 1), 192);
}

TEST(WaveChoice, PlanTextNamesTheTileAndTheAlternative) {
    EXPECT_EQ(persistent_plan_text({3072, 3072, 3072}, kH100Clusters),
              "128 x 192 tiles on 132 SMs: 384 tiles = 2.91 waves, 3 rounds 97 % filled "
              "(128 x 256: 288 tiles = 2.18 waves, 3 rounds 73 % filled)");
    EXPECT_EQ(persistent_plan_text({4096, 4096, 4096}, kH100Clusters),
              "128 x 256 tiles on 132 SMs: 512 tiles = 3.88 waves, 4 rounds 97 % filled "
              "(128 x 192: 704 tiles = 5.33 waves, 6 rounds 89 % filled)");
}

}  // namespace
}  // namespace tclens::kernels
