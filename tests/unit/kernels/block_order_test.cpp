// Tests for kernels/block_order.h, through every rung's descriptor: the block -> C tile mapping
// the kernel computes (block_tile_of calls the same __host__ __device__ function the kernel
// calls, with the kernel's own constants) is the launch order the rung's tile map draws
// (viz::block_tiles of kernels::tile_map_spec), block for block and round for round, for sizes
// with whole, partial and single bands and for several persistent grids.
#include "kernels/block_order.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/registry.h"
#include "kernels/tile_map_spec.h"

namespace tclens::kernels {
namespace {

TEST(BlockOrder, RowMajorAndColumnBandsMatchTheirWorkedExamples) {
    int row = 0;
    int col = 0;
    rasterise_row_major(9, 4, row, col);
    EXPECT_EQ(row, 2);
    EXPECT_EQ(col, 1);
    rasterise_column_bands(37, 32, 16, 16, row, col);  // band 0: row 37 % 16, column 37 / 16
    EXPECT_EQ(row, 5);
    EXPECT_EQ(col, 2);
    // 20 tile rows in bands of 16: the second band has 4 rows; id 16 * 16 + 5 -> row 16 + 5 % 4,
    // column 5 / 4.
    rasterise_column_bands(261, 20, 16, 16, row, col);
    EXPECT_EQ(row, 17);
    EXPECT_EQ(col, 1);
}

struct Grid {
    GemmProblem problem;
    int sms = kDefaultPersistentSms;
};

std::string text(const Grid& grid) {
    return std::to_string(grid.problem.m) + "x" + std::to_string(grid.problem.n) + "x" +
           std::to_string(grid.problem.k) + ", " + std::to_string(grid.sms) + " SMs";
}

// Whole bands, a narrow last band, one tile, a single band, more clusters than tiles, and
// persistent grids that take several rounds.
const std::vector<Grid>& grids() {
    static const std::vector<Grid> all = {
        {{4096, 4096, 4096}},      {{4096, 4096, 4096}, 114},
        {{1000, 777, 304}},        {{16, 16, 16}},
        {{2048, 4096, 64}, 7},     {{8192, 1024, 128}, 3},
        {{3 * 128, 256, 64}, 132}, {{129, 4104, 8}, 2},
        {{3072, 3072, 3072}},  // rung 11's 128 x 192 tile (kernels/wave_choice.h)
        {{64, 3072, 3072}},    // rung 14: split-K, and in e4m3 (kernels/fp8_dispatch_rules.h)
    };
    return all;
}

TEST(BlockOrder, EveryRungsKernelComputesTheTilesItsTileMapDraws) {
    int rungs = 0;
    for (const KernelDescriptor& kernel : all_kernels()) {
        if (kernel.rung == 0) continue;
        ++rungs;
        ASSERT_NE(kernel.block_tile_of, nullptr) << kernel.id;
        for (const Grid& grid : grids()) {
            SCOPED_TRACE(kernel.id + " at " + text(grid));
            const auto spec = tile_map_spec(kernel, grid.problem, grid.sms);
            ASSERT_TRUE(spec.ok()) << spec.error();
            // The tile that runs this problem, where the rung picks one per problem.
            const KernelDescriptor ran =
                kernel.for_problem ? kernel.for_problem(grid.problem, grid.sms) : kernel;
            const int tiles_m = static_cast<int>(viz::tiles_m(*spec));
            const int tiles_n = static_cast<int>(viz::tiles_n(*spec));
            const int blocks = spec->raster == viz::RasterOrder::kPersistent
                                   ? spec->clusters * spec->cluster_m
                                   : tiles_m * tiles_n;
            int mismatches = 0;
            for (const viz::BlockTile& drawn : viz::block_tiles(*spec)) {
                const TileIndex computed =
                    ran.block_tile_of(drawn.block, drawn.round, blocks, tiles_m, tiles_n);
                if (computed.row != drawn.tile_row || computed.col != drawn.tile_col) {
                    ADD_FAILURE() << "block " << drawn.block << " round " << drawn.round
                                  << ": the kernel computes tile (" << computed.row << ", "
                                  << computed.col << "), the tile map draws (" << drawn.tile_row
                                  << ", " << drawn.tile_col << ")";
                    if (++mismatches == 5) break;
                }
            }
            // No block computes more tiles than the map gives it.
            for (int block = 0; block < blocks; ++block) {
                const int rounds = viz::rounds_of_block(*spec, block);
                EXPECT_EQ(ran.block_tile_of(block, rounds, blocks, tiles_m, tiles_n).row, -1)
                    << "block " << block << " computes a tile in round " << rounds;
            }
        }
    }
    EXPECT_EQ(rungs, 23);  // rungs 1-12 and 14 (16-bit ones twice), 13 and 14's e4m3
}

}  // namespace
}  // namespace tclens::kernels
