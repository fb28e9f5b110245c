// Tests for viz/tile_map.*.
//
// The specs (tile_map_specs.h) are written out by hand from the kernel files, and every
// expected position is worked out from those files' comments and loops (their worked examples
// where they give one), never taken from the code under test.
#include "viz/tile_map.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "tests/unit/viz/tile_map_specs.h"

namespace tclens::viz {
namespace {

using namespace test_specs;

TEST(TileMap, HandWrittenSpecsValidate) {
    for (const TileMapSpec& spec : every_spec(4096, 4096, 4096)) {
        EXPECT_EQ(validate_tile_map_spec(spec), "") << spec.kernel;
    }
}

TEST(TileMap, BlocksCoverCExactlyOnceIncludingEdges) {
    // Sizes with partial tiles on both edges, one smaller than a tile, and exact multiples.
    for (const auto& [m, n] : std::vector<std::pair<int, int>>{
             {1000, 777}, {100, 50}, {1, 1}, {768, 1024}, {129, 257}}) {
        for (const TileMapSpec& spec : every_spec(m, n, 64)) {
            SCOPED_TRACE(spec.kernel + " " + std::to_string(m) + "x" + std::to_string(n));
            ASSERT_EQ(validate_tile_map_spec(spec), "");
            std::vector<int> covered(static_cast<size_t>(m) * n, 0);
            const std::vector<BlockTile> tiles = block_tiles(spec);
            std::set<std::pair<int, int>> positions;
            for (size_t i = 0; i < tiles.size(); ++i) {
                const BlockTile& t = tiles[i];
                EXPECT_EQ(t.order, static_cast<int>(i));
                EXPECT_TRUE(positions.insert({t.tile_row, t.tile_col}).second);
                EXPECT_EQ(t.row, std::int64_t{t.tile_row} * spec.block_m);
                EXPECT_EQ(t.col, std::int64_t{t.tile_col} * spec.block_n);
                if (!t.inside) {
                    EXPECT_GE(t.row, m);  // only a persistent cluster's CTA past M
                    EXPECT_EQ(spec.raster, RasterOrder::kPersistent);
                    continue;
                }
                for (std::int64_t r = t.row; r < t.row + t.rows; ++r) {
                    for (std::int64_t c = t.col; c < t.col + t.cols; ++c) {
                        ++covered[static_cast<size_t>(r * n + c)];
                    }
                }
            }
            EXPECT_EQ(std::count(covered.begin(), covered.end(), 1),
                      static_cast<std::ptrdiff_t>(covered.size()));
        }
    }
}

TEST(TileMap, RowMajorOrderIsLinearBlockId) {
    // 3 x 4 tiles of 128 x 64: order 5 -> blockIdx (x 1, y 1) -> tile row 1, col 1.
    const std::vector<BlockTile> tiles = block_tiles(rung5(300, 256, 32));
    ASSERT_EQ(tiles.size(), 12u);
    EXPECT_EQ(tiles[5].tile_row, 1);
    EXPECT_EQ(tiles[5].tile_col, 1);
    EXPECT_EQ(tiles[5].block, 5);
    EXPECT_EQ(tiles[11].tile_row, 2);
    EXPECT_EQ(tiles[11].tile_col, 3);
    EXPECT_EQ(tiles[11].rows, 300 - 256);
}

TEST(TileMap, ColumnBandsMatchTheKernelsWorkedExample) {
    // kernels/block_order.h's worked example: "32 x 16 tiles, group 16: id 37 -> band 0, row
    // 37 % 16 = 5, column 37 / 16 = 2".
    const std::vector<BlockTile> tiles = block_tiles(rung8(32 * 128, 16 * 256, 64));
    EXPECT_EQ(tiles[37].tile_row, 5);
    EXPECT_EQ(tiles[37].tile_col, 2);
    // Band 1 starts at id 16 * 16 = 256 with row 16.
    EXPECT_EQ(tiles[256].tile_row, 16);
    EXPECT_EQ(tiles[256].tile_col, 0);
    // 20 tile rows: the last band has 4 rows; id 256 + 5 -> row 16 + 5 % 4 = 17, col 5 / 4 = 1.
    const std::vector<BlockTile> short_band = block_tiles(rung8(20 * 128, 16 * 256, 64));
    EXPECT_EQ(short_band[261].tile_row, 17);
    EXPECT_EQ(short_band[261].tile_col, 1);
    // Rung 6 (bands of 8): 22 x 32 tiles at 4096^2; id 8 * 32 + 3 -> row 8 + 3, col 0.
    const std::vector<BlockTile> six = block_tiles(rung6());
    EXPECT_EQ(six[259].tile_row, 11);
    EXPECT_EQ(six[259].tile_col, 0);
}

// The kernels' own block orders are held to these maps by tests/unit/kernels/block_order_test.cpp
// (through their descriptors); here the model alone: every CTA's tiles in round order.
TEST(TileMap, PersistentScheduleGivesEachCtaItsRoundsInOrder) {
    for (const auto& [tm, tn, clusters] : std::vector<std::tuple<int, int, int>>{
             {32, 16, 66}, {31, 16, 66}, {33, 7, 66}, {4, 3, 66}, {64, 32, 57}}) {
        SCOPED_TRACE(std::to_string(tm) + " x " + std::to_string(tn) + " tiles, " +
                     std::to_string(clusters) + " clusters");
        const TileMapSpec spec = rung11(tm * 128 - 5, tn * 256, 256, clusters);
        std::map<int, std::vector<int>> rounds;
        for (const BlockTile& t : block_tiles(spec)) rounds[t.block].push_back(t.round);
        const int grid = 2 * std::min(clusters, (tm + 1) / 2 * tn);
        EXPECT_EQ(static_cast<int>(rounds.size()), grid);
        for (int b = 0; b < grid; ++b) {
            for (size_t r = 0; r < rounds[b].size(); ++r) {
                EXPECT_EQ(rounds[b][r], static_cast<int>(r));
            }
            EXPECT_EQ(rounds_of_block(spec, b), static_cast<int>(rounds[b].size()));
        }
    }
    // By hand, 32 x 16 tiles (16 cluster rows), 66 clusters: cluster tile 37 -> band 0, cluster
    // row 37 % 8 = 5, col 37 / 8 = 4: tile rows 10 and 11, CTAs 74 and 75, round 0. Cluster
    // tile 200 -> band 1, in band 72: cluster row 8, col 9; cluster 200 % 66 = 2, round 3.
    const std::vector<BlockTile> tiles = block_tiles(rung11(4096, 4096, 256, 66));
    EXPECT_EQ(tiles[74].tile_row, 10);
    EXPECT_EQ(tiles[74].tile_col, 4);
    EXPECT_EQ(tiles[74].block, 74);
    EXPECT_EQ(tiles[75].tile_row, 11);
    EXPECT_EQ(tiles[75].block, 75);
    EXPECT_EQ(tiles[400].tile_row, 16);
    EXPECT_EQ(tiles[401].tile_row, 17);
    EXPECT_EQ(tiles[401].tile_col, 9);
    EXPECT_EQ(tiles[401].block, 5);
    EXPECT_EQ(tiles[401].round, 3);
    EXPECT_EQ(tiles[401].cluster_rank, 1);
}

TEST(TileMap, OddTileRowsLeaveAPersistentCtaPastM) {
    // 3 tile rows -> 2 cluster rows; the second cluster row's rank 1 sits at tile row 3.
    const std::vector<BlockTile> tiles = block_tiles(rung11(3 * 128, 256, 64, 66));
    ASSERT_EQ(tiles.size(), 4u);
    EXPECT_TRUE(tiles[2].inside);
    EXPECT_EQ(tiles[2].tile_row, 2);
    EXPECT_FALSE(tiles[3].inside);
    EXPECT_EQ(tiles[3].tile_row, 3);
    EXPECT_EQ(tiles[3].rows, 0);
}

// Every element of the block tile covered by exactly one work tile, each inside one of its
// warp's regions (or its warpgroup's rows).
void expect_work_tiles_cover_block(const TileMapSpec& spec) {
    std::vector<int> covered(static_cast<size_t>(spec.block_m) * spec.block_n, 0);
    const std::vector<WarpRegion> regions = warp_regions(spec);
    for (const WorkTile& tile : work_tiles(spec)) {
        for (int r = tile.row; r < tile.row + tile.rows; ++r) {
            for (int c = 0; c < tile.cols; ++c) {
                const int col = tile.col + c * tile.col_stride;
                ASSERT_LT(col, spec.block_n);
                ++covered[static_cast<size_t>(r) * spec.block_n + col];
                if (tile.warp < 0) continue;
                bool in_warp = false;
                for (const WarpRegion& w : regions) {
                    in_warp |= w.warp == tile.warp && r >= w.row && r < w.row + w.rows &&
                               col >= w.col && col < w.col + w.cols;
                }
                EXPECT_TRUE(in_warp) << "warp " << tile.warp << " (" << r << ", " << col << ")";
            }
        }
    }
    EXPECT_EQ(std::count(covered.begin(), covered.end(), 1),
              static_cast<std::ptrdiff_t>(covered.size()));
    std::vector<int> by_regions(covered.size(), 0);
    for (const WarpRegion& w : regions) {
        for (int r = w.row; r < w.row + w.rows; ++r) {
            for (int c = w.col; c < w.col + w.cols; ++c) {
                ++by_regions[static_cast<size_t>(r) * spec.block_n + c];
            }
        }
    }
    EXPECT_EQ(std::count(by_regions.begin(), by_regions.end(), 1),
              static_cast<std::ptrdiff_t>(by_regions.size()));
}

TEST(TileMap, WarpsTimesWorkTilesCoverTheBlock) {
    for (const TileMapSpec& spec : every_spec(4096, 4096, 4096)) {
        SCOPED_TRACE(spec.kernel);
        expect_work_tiles_cover_block(spec);
    }
    EXPECT_EQ(work_tiles(rung8()).size(), 8u * 4 * 8);
    EXPECT_EQ(work_tiles(rung3()).size(), 8u * 32 * 4);
    EXPECT_EQ(work_tiles(rung10()).size(), 2u);
}

TEST(TileMap, Rung3LanesOwnFourStridedSubTiles) {
    // 03_register_tiled.cu: "warp 3, lane 9, acc[5][6] -> row 32+16+4+1 = 53, col 64+32+4+2".
    // acc[5][6] is sub-tile (i 1, j 1), element (1, 2): the sub-tile starts at (52, 100).
    bool found = false;
    for (const WorkTile& t : work_tiles(rung3())) {
        if (t.warp == 3 && t.lane == 9 && t.index == 3) {
            found = true;
            EXPECT_EQ(t.row, 52);
            EXPECT_EQ(t.col, 100);
            EXPECT_EQ(t.rows, 4);
            EXPECT_EQ(t.cols, 4);
        }
    }
    EXPECT_TRUE(found);
}

TEST(TileMap, Rung6TilesTakeEveryFourthColumnOfTheirGroup) {
    // Warp 1 is warp tile (0, 1): rows 0-47, cols 64-127. Index 9 = (i 1, group 0, j 1): rows
    // 16-31, columns 64 + 1 + 4q.
    for (const WorkTile& t : work_tiles(rung6())) {
        if (t.warp != 1 || t.index != 9) continue;
        EXPECT_EQ(t.row, 16);
        EXPECT_EQ(t.col, 65);
        EXPECT_EQ(t.col_stride, 4);
        EXPECT_EQ(t.cols, 8);
        return;
    }
    FAIL() << "warp 1, index 9 not found";
}

TEST(TileMap, Rung8IssuesOddRowsBackwards) {
    // mma_row: nt = mt % 2 == 0 ? j : 7 - j. Index 8 = (mt 1, j 0) -> nt 7, col 56.
    std::map<int, WorkTile> warp0;
    for (const WorkTile& t : work_tiles(rung8())) {
        if (t.warp == 0) warp0[t.index] = t;
    }
    EXPECT_EQ(warp0[0].col, 0);
    EXPECT_EQ(warp0[7].col, 56);
    EXPECT_EQ(warp0[8].row, 16);
    EXPECT_EQ(warp0[8].col, 56);
    EXPECT_EQ(warp0[15].col, 0);
    EXPECT_EQ(warp0[16].col, 0);
}

TEST(TileMap, WgmmaWarpsHoldSixteenRowBands) {
    // Rung 9: warp w holds rows 16w.. of both m64 tiles.
    std::vector<WarpRegion> nine = warp_regions(rung9());
    ASSERT_EQ(nine.size(), 8u);
    EXPECT_EQ(nine[2].warp, 1);
    EXPECT_EQ(nine[2].row, 16);
    EXPECT_EQ(nine[3].warp, 1);
    EXPECT_EQ(nine[3].row, 80);
    // Rung 10: warpgroup 0 only loads; warp 9 = consumer 1, warp 1 of it: rows 64 + 16.
    std::vector<WarpRegion> ten = warp_regions(rung10());
    ASSERT_EQ(ten.size(), 8u);
    EXPECT_EQ(ten.front().warp, 4);
    EXPECT_EQ(ten[5].warp, 9);
    EXPECT_EQ(ten[5].row, 80);
    EXPECT_EQ(ten[5].cols, 256);
}

TEST(TileMap, InstructionsPerKStep) {
    EXPECT_EQ(instructions_per_k_step(rung3()), 8 * 8 * 8);  // FFMA per warp
    EXPECT_EQ(instructions_per_k_step(rung5()), 32);         // 4 k8 x 2 x 4
    EXPECT_EQ(instructions_per_k_step(rung6()), 96);         // 4 k8 x 3 x 8
    EXPECT_EQ(instructions_per_k_step(rung8()), 128);        // 4 k16 x 4 x 8
    EXPECT_EQ(instructions_per_k_step(rung9()), 8);          // 4 k16 x 2 wgmma per warpgroup
    EXPECT_EQ(instructions_per_k_step(rung10()), 4);         // 4 k16 x 1 per consumer
    EXPECT_EQ(k_substeps(rung8()), 4);
    EXPECT_EQ(work_owners(rung8()), 8);
    EXPECT_EQ(work_owners(rung10()), 2);
}

// Every unit of the A and B tiles exactly once, all in `stage`; returns copies per thread.
std::map<int, int> expect_load_covers(const TileMapSpec& spec, const std::vector<ChunkCopy>& map,
                                      int stage) {
    std::map<std::tuple<char, int, int>, int> seen;
    std::map<int, int> per_thread;
    for (const ChunkCopy& c : map) {
        ++seen[{c.operand, c.row, c.unit}];
        ++per_thread[c.thread];
        EXPECT_EQ(c.stage, stage);
    }
    const int unit = load_unit_bytes(spec);
    const int a_units = spec.block_k * spec.elem_bytes / unit;
    const int b_units = spec.block_n * spec.elem_bytes / unit;
    EXPECT_EQ(seen.size(), static_cast<size_t>(spec.block_m * a_units + spec.block_k * b_units));
    for (const auto& [key, count] : seen) {
        const auto& [operand, row, u] = key;
        EXPECT_EQ(count, 1);
        EXPECT_LT(row, operand == 'A' ? spec.block_m : spec.block_k);
        EXPECT_LT(u, operand == 'A' ? a_units : b_units);
    }
    return per_thread;
}

TEST(TileMap, LoadMapCoversEveryChunkOncePerStage) {
    for (const TileMapSpec& spec : {rung3(), rung5(), rung6(), rung8()}) {
        SCOPED_TRACE(spec.kernel);
        const BlockTile tile = block_tiles(spec)[7];
        for (int k_tile : {0, 1, 5}) {
            const std::map<int, int> per_thread =
                expect_load_covers(spec, load_map(spec, tile, k_tile), k_tile % spec.stages);
            EXPECT_EQ(static_cast<int>(per_thread.size()), spec.copy_threads);
            for (const auto& [thread, count] : per_thread) {
                EXPECT_EQ(count, per_thread.begin()->second) << "thread " << thread;
            }
        }
    }
}

ChunkCopy find_copy(const std::vector<ChunkCopy>& map, char operand, int row, int unit) {
    for (const ChunkCopy& c : map) {
        if (c.operand == operand && c.row == row && c.unit == unit) return c;
    }
    ADD_FAILURE() << operand << " row " << row << " unit " << unit << " missing";
    return {};
}

TEST(TileMap, LoadMapFollowsEachKernelsCopyLoop) {
    // Rung 8 TileCopier: A chunk i of thread t at row t / 8 + 32 i, chunk t % 8; B chunk i at
    // row t / 32 + 8 i, chunk t % 32.
    const TileMapSpec eight = rung8();
    const std::vector<ChunkCopy> map8 = load_map(eight, block_tiles(eight)[0], 0);
    EXPECT_EQ(find_copy(map8, 'A', 33, 1).thread, 9);
    EXPECT_EQ(find_copy(map8, 'A', 33, 1).copy, 1);
    EXPECT_EQ(find_copy(map8, 'B', 17, 5).thread, 37);
    EXPECT_EQ(find_copy(map8, 'B', 17, 5).copy, 2);
    // Rung 5, warp 0 as row_major(4, 8): thread (r, c) copies B chunks (4i + r, c + 8j), j
    // inner. Thread 11 = (1, 3): copy 5 = (i 2, j 1) -> row 9, chunk 11.
    const TileMapSpec five = rung5();
    const std::vector<ChunkCopy> map5 = load_map(five, block_tiles(five)[0], 0);
    EXPECT_EQ(find_copy(map5, 'B', 9, 11).thread, 11);
    EXPECT_EQ(find_copy(map5, 'B', 9, 11).copy, 5);
    EXPECT_EQ(find_copy(map5, 'A', 127, 7).thread, 31);
    // Rung 3: thread t loads A (row t / 2, chunk t % 2) and B (row t / 32, chunk t % 32).
    const TileMapSpec three = rung3();
    const std::vector<ChunkCopy> map3 = load_map(three, block_tiles(three)[0], 3);
    EXPECT_EQ(find_copy(map3, 'A', 100, 1).thread, 201);
    EXPECT_EQ(find_copy(map3, 'B', 7, 31).thread, 255);
    EXPECT_EQ(find_copy(map3, 'B', 7, 31).stage, 1);
}

TEST(TileMap, TmaLoadMapIsBoxesFromOneThread) {
    // Rung 11, CTA rank 1: its own A box; B boxes 0-1 from rank 0, 2-3 from rank 1 (each CTA
    // issues 4 / 2 boxes and multicasts them).
    const TileMapSpec spec = rung11();
    const std::vector<BlockTile> tiles = block_tiles(spec);
    const BlockTile& rank1 = tiles[1];
    ASSERT_EQ(rank1.cluster_rank, 1);
    const std::vector<ChunkCopy> map = load_map(spec, rank1, 2);
    const std::map<int, int> per_thread = expect_load_covers(spec, map, 2 % 4);
    EXPECT_EQ(per_thread.size(), 1u);  // thread 0 only
    EXPECT_EQ(find_copy(map, 'A', 127, 7).cta, 1);
    EXPECT_EQ(find_copy(map, 'B', 0, 0).cta, 0);    // box 0: bytes 0-127 of the row
    EXPECT_EQ(find_copy(map, 'B', 63, 15).cta, 0);  // box 1
    EXPECT_EQ(find_copy(map, 'B', 63, 16).copy, 2);
    EXPECT_EQ(find_copy(map, 'B', 63, 16).cta, 1);
    EXPECT_EQ(find_copy(map, 'B', 5, 31).cta, 1);
    // Rung 11's 128 x 192 tile: 3 B boxes, 2 from rank 0 and 1 from rank 1.
    TileMapSpec narrow = rung11(3072, 3072, 3072, 66);
    narrow.block_n = 192;
    narrow.mma_n = 192;
    ASSERT_EQ(validate_tile_map_spec(narrow), "");
    EXPECT_EQ(tma_b_boxes(narrow), 3);
    EXPECT_EQ(tma_b_boxes_per_cta(narrow), 2);
    const std::vector<ChunkCopy> map192 = load_map(narrow, block_tiles(narrow)[0], 5);
    expect_load_covers(narrow, map192, 5 % 4);
    EXPECT_EQ(find_copy(map192, 'B', 0, 0).cta, 0);
    EXPECT_EQ(find_copy(map192, 'B', 63, 15).cta, 0);  // box 1
    EXPECT_EQ(find_copy(map192, 'B', 63, 16).copy, 2);
    EXPECT_EQ(find_copy(map192, 'B', 63, 16).cta, 1);
    EXPECT_EQ(find_copy(map192, 'B', 5, 23).cta, 1);
    // Rung 9 (no cluster): everything from its own thread 0, B in 2 boxes.
    const TileMapSpec nine = rung9();
    const std::vector<ChunkCopy> map9 = load_map(nine, block_tiles(nine)[3], 0);
    expect_load_covers(nine, map9, 0);
    EXPECT_EQ(find_copy(map9, 'B', 10, 9).copy, 1);
    EXPECT_EQ(find_copy(map9, 'B', 10, 9).cta, 0);
}

TEST(TileMap, StageRingRunsStagesMinusOneAhead) {
    const TileMapSpec spec = rung8(4096, 4096, 4096);  // 64 K tiles, 4 stages
    const BlockTile tile = block_tiles(spec)[0];
    std::vector<StageSlot> ring = stage_ring(spec, tile, 10);
    ASSERT_EQ(ring.size(), 4u);
    EXPECT_EQ(ring[2].k_tile, 10);
    EXPECT_EQ(ring[2].state, StageState::kComputing);
    EXPECT_EQ(ring[3].k_tile, 11);
    EXPECT_EQ(ring[3].state, StageState::kInFlight);
    EXPECT_EQ(ring[0].k_tile, 12);
    EXPECT_EQ(ring[0].state, StageState::kInFlight);
    EXPECT_EQ(ring[1].k_tile, 13);
    EXPECT_EQ(ring[1].state, StageState::kIssuing);
    for (int s = 0; s < 4; ++s) EXPECT_EQ(ring[s].stage, s);
    // The last steps drain the ring.
    ring = stage_ring(spec, tile, 62);
    EXPECT_EQ(ring[2].k_tile, 62);
    EXPECT_EQ(ring[3].k_tile, 63);
    EXPECT_EQ(ring[0].state, StageState::kEmpty);
    EXPECT_EQ(ring[1].state, StageState::kEmpty);
    // One stage: it is always the one being computed.
    const TileMapSpec five = rung5(256, 256, 100);
    ring = stage_ring(five, block_tiles(five)[0], 3);
    ASSERT_EQ(ring.size(), 1u);
    EXPECT_EQ(ring[0].k_tile, 3);
    EXPECT_EQ(ring[0].state, StageState::kComputing);
    // Rung 3's two stages: the other one is filled at the end of the step.
    const TileMapSpec three = rung3(256, 256, 64);
    ring = stage_ring(three, block_tiles(three)[0], 4);
    EXPECT_EQ(ring[0].k_tile, 4);
    EXPECT_EQ(ring[1].k_tile, 5);
    EXPECT_EQ(ring[1].state, StageState::kIssuing);
}

TEST(TileMap, PersistentRingContinuesIntoTheNextTile) {
    // 4 x 2 tiles (2 cluster rows x 2 columns = 4 cluster tiles), 2 clusters: CTA 0 computes
    // cluster tiles 0 and 2, 3 K tiles each, so its running counter is 0..5.
    const TileMapSpec spec = rung11(4 * 128, 2 * 256, 3 * 64, 2);
    const std::vector<BlockTile> tiles = block_tiles(spec);
    EXPECT_EQ(rounds_of_block(spec, 0), 2);
    const BlockTile& first = tiles[0];
    const BlockTile& second = tiles[4];  // cluster tile 2, rank 0
    ASSERT_EQ(second.block, 0);
    ASSERT_EQ(second.round, 1);
    // Step 1 of round 0: counters 1..4 -> (round 0, k 1) computing in stage 1, (0, 2) stage 2,
    // (1, 0) stage 3, (1, 1) issuing into stage 0.
    std::vector<StageSlot> ring = stage_ring(spec, first, 1);
    EXPECT_EQ(ring[1].state, StageState::kComputing);
    EXPECT_EQ(ring[1].k_tile, 1);
    EXPECT_EQ(ring[3].round, 1);
    EXPECT_EQ(ring[3].k_tile, 0);
    EXPECT_EQ(ring[0].round, 1);
    EXPECT_EQ(ring[0].k_tile, 1);
    EXPECT_EQ(ring[0].state, StageState::kIssuing);
    // Round 1 starts at counter 3: its K tile 0 is in stage 3; its last step empties the ring.
    EXPECT_EQ(stage_of(spec, second, 0), 3);
    EXPECT_EQ(load_map(spec, second, 0).front().stage, 3);
    ring = stage_ring(spec, second, 2);
    EXPECT_EQ(ring[1].state, StageState::kComputing);
    EXPECT_EQ(ring[1].round, 1);
    EXPECT_EQ(ring[2].state, StageState::kEmpty);
}

TEST(TileMap, InvalidSpecsAreOneLineErrors) {
    EXPECT_EQ(validate_tile_map_spec(rung8(0, 4096, 4096)), "M, N and K must each be at least 1");
    // Rung 3's 128 x 128 tiles: 65536 x 256 of C is 512 x 2 tiles, fine; 65536^2 is not.
    EXPECT_EQ(validate_tile_map_spec(rung3(65536, 256, 8)), "");
    const std::string many = validate_tile_map_spec(rung3(65536, 65536, 8));
    EXPECT_NE(many.find("262144 block tiles"), std::string::npos) << many;
    EXPECT_NE(many.find("65536"), std::string::npos) << many;
    TileMapSpec wrong_threads = rung8();
    wrong_threads.threads = 128;
    EXPECT_NE(validate_tile_map_spec(wrong_threads).find("need 256 threads"), std::string::npos);
    TileMapSpec bad_load = rung8();
    bad_load.a_load = {16, 8};
    EXPECT_NE(validate_tile_map_spec(bad_load).find("A load layout 16 x 8"), std::string::npos);
    for (const TileMapSpec& spec : {rung8(0, 1, 1), wrong_threads, bad_load}) {
        EXPECT_EQ(validate_tile_map_spec(spec).find('\n'), std::string::npos);
    }
}

}  // namespace
}  // namespace tclens::viz
