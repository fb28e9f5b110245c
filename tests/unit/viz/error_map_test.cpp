// The error map and the patterns the issue names: a broken fragment mapping, a missed K tail
// and a wrong block offset, each made by a small CPU GEMM with that bug.
#include "viz/error_map.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

namespace tclens::viz {
namespace {

struct Gemm {
    std::int64_t m, n, k;
    std::vector<float> a, b;
    std::vector<double> exact;
};

Gemm random_gemm(std::int64_t m, std::int64_t n, std::int64_t k) {
    Gemm g{m, n, k, std::vector<float>(m * k), std::vector<float>(k * n), {}};
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (float& x : g.a) x = u(rng);
    for (float& x : g.b) x = u(rng);
    g.exact.assign(m * n, 0.0);
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j)
            for (std::int64_t kk = 0; kk < k; ++kk)
                g.exact[i * n + j] += double(g.a[i * k + kk]) * g.b[kk * n + j];
    return g;
}

// C from a kernel whose element (i, j) sums a[row(i, j)][kk] * b[kk][col(i, j)] for kk < depth.
std::vector<float> kernel_output(
    const Gemm& g, std::int64_t depth,
    const std::function<std::int64_t(std::int64_t, std::int64_t)>& row,
    const std::function<std::int64_t(std::int64_t, std::int64_t)>& col) {
    std::vector<float> c(g.m * g.n);
    for (std::int64_t i = 0; i < g.m; ++i) {
        for (std::int64_t j = 0; j < g.n; ++j) {
            float sum = 0;
            for (std::int64_t kk = 0; kk < depth; ++kk)
                sum += g.a[row(i, j) * g.k + kk] * g.b[kk * g.n + col(i, j)];
            c[i * g.n + j] = sum;
        }
    }
    return c;
}

double rms(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x * x;
    return std::sqrt(s / v.size());
}

ErrorMap map_of(const Gemm& g, const std::vector<float>& c, int block = 0) {
    const double tolerance = kErrorMapSlack * 1e-2 * rms(g.exact);  // the bf16 bound
    return build_error_map(c.data(), g.exact.data(), g.m, g.n, tolerance,
                           error_cell_shape(g.m, g.n, block, block));
}

auto same = [](std::int64_t i, std::int64_t) { return i; };
auto same_col = [](std::int64_t, std::int64_t j) { return j; };

// The tolerance is 4 x the bound of RMS(reference), never below 1e-3 of it: a 16-bit bound
// (1e-2) keeps its slack, FP32's (2e-6) gets the floor, where sequential FP32 sums of a correct
// kernel had tails past 8e-6 (error_map.h).
TEST(ErrorMap, ElementToleranceHasAFloor) {
    EXPECT_DOUBLE_EQ(element_tolerance(1e-2, 3.0), 0.04 * 3.0);
    EXPECT_DOUBLE_EQ(element_tolerance(2e-6, 3.0), 1e-3 * 3.0);
    EXPECT_DOUBLE_EQ(element_tolerance(2.5e-4, 1.0), 1e-3);  // where the two meet
}

TEST(ErrorMap, CellShapes) {
    EXPECT_EQ(error_cell_shape(64, 64, 0, 0).granularity, "element");
    EXPECT_EQ(error_cell_shape(128, 128, 0, 0).rows, 1);
    const ErrorCellShape tile = error_cell_shape(1024, 512, 128, 128);
    EXPECT_EQ(tile.rows, 16);
    EXPECT_EQ(tile.cols, 8);
    EXPECT_EQ(tile.granularity, "16x8 tile");
    const ErrorCellShape block = error_cell_shape(4096, 4096, 128, 128);
    EXPECT_EQ(block.rows, 128);
    EXPECT_EQ(block.granularity, "block tile 128x128");
    const ErrorCellShape big = error_cell_shape(65536, 65536, 128, 128);
    EXPECT_EQ(big.rows, 512);
    EXPECT_EQ(big.granularity, "block tile 128x128 x4");
    EXPECT_EQ(error_cell_shape(4096, 4096, 0, 0).granularity, "16x8 tile x4");
}

TEST(ErrorMap, CountsCellsNanAndTheFirstWrongElement) {
    const std::vector<double> expected(4 * 6, 1.0);
    std::vector<float> got(4 * 6, 1.0f);
    got[1 * 6 + 2] = 2.0f;
    got[3 * 6 + 5] = std::nanf("");
    got[0 * 6 + 0] = 1.0001f;  // within tolerance
    const ErrorMap map = build_error_map(got.data(), expected.data(), 4, 6, 0.01, {2, 3, "2x3"});
    EXPECT_EQ(map.grid_rows, 2);
    EXPECT_EQ(map.grid_cols, 2);
    EXPECT_EQ(map.wrong, 2);
    EXPECT_EQ(map.nan, 1);
    EXPECT_EQ(map.cell(0, 0).wrong, 1);
    EXPECT_EQ(map.cell(0, 0).elements, 6);
    EXPECT_EQ(map.cell(1, 1).nan, 1);
    EXPECT_EQ(map.cell(0, 1).wrong, 0);
    ASSERT_TRUE(map.first_wrong);
    EXPECT_EQ(map.first_wrong->row, 1);
    EXPECT_EQ(map.first_wrong->col, 2);
    EXPECT_EQ(error_map_summary(map),
              "2 of 24 elements wrong (1 NaN), per 2x3; first C[1][2]: expected 1, got 2");
    // Edge cells are smaller.
    const ErrorMap edge = build_error_map(got.data(), expected.data(), 4, 6, 0.01, {3, 4, "3x4"});
    EXPECT_EQ(edge.cell(1, 1).elements, 1 * 2);
}

TEST(ErrorMap, BrokenFragmentMappingRepeatsInEveryTile) {
    const Gemm g = random_gemm(64, 64, 32);
    // Inside every 16x8 tile, rows 3 and 11 swap their column pairs (2q, 2q+1): what a store
    // with c1 and c3 exchanged does at lanes with q = 1.
    auto row = [](std::int64_t i, std::int64_t j) {
        const std::int64_t r = i % 16, q = (j % 8) / 2;
        return q == 1 && (r == 3 || r == 11) ? i - r + (r == 3 ? 11 : 3) : i;
    };
    const ErrorMap map = map_of(g, kernel_output(g, g.k, row, same_col));
    EXPECT_EQ(map.granularity, "element");
    for (std::int64_t i = 0; i < 64; ++i) {
        for (std::int64_t j = 0; j < 64; ++j) {
            const bool bad = (j % 8) / 2 == 1 && (i % 16 == 3 || i % 16 == 11);
            EXPECT_EQ(map.cell(i, j).wrong > 0, bad) << i << "," << j;
        }
    }
    EXPECT_EQ(error_pattern_hint(map),
              "the same 4 of 128 places in every 16x8 tile are wrong: a fragment index mapping");
    // The notes: the hint alone, then with the bug the values name (viz/fragment_bug.h).
    EXPECT_EQ(error_map_notes(map), std::vector<std::string>{error_pattern_hint(map)});
    ErrorMap named = map;
    named.bug = "C: every lane's c1 and c3 are exchanged";
    EXPECT_EQ(error_map_notes(named),
              (std::vector<std::string>{error_pattern_hint(map), named.bug}));
}

TEST(ErrorMap, MissedKTailIsWrongEverywhere) {
    const Gemm g = random_gemm(48, 40, 100);
    const ErrorMap map = map_of(g, kernel_output(g, 96, same, same_col));  // K % 32 dropped
    EXPECT_GT(map.wrong, map.rows * map.cols / 2);
    EXPECT_EQ(error_pattern_hint(map).rfind("wrong everywhere", 0), 0u) << error_pattern_hint(map);
}

TEST(ErrorMap, WrongBlockOffsetLeavesWholeTiles) {
    const Gemm g = random_gemm(128, 128, 64);
    // Blocks of 32 x 32 store at the transposed block position: diagonal blocks right.
    auto row = [](std::int64_t i, std::int64_t j) { return (j / 32) * 32 + i % 32; };
    auto col = [](std::int64_t i, std::int64_t j) { return (i / 32) * 32 + j % 32; };
    const ErrorMap map = map_of(g, kernel_output(g, g.k, row, col));
    for (std::int64_t i = 0; i < 128; i += 8) {
        for (std::int64_t j = 0; j < 128; j += 8) {
            if (i / 32 == j / 32) {
                EXPECT_EQ(map.cell(i, j).wrong, 0) << i << "," << j;
            }
        }
    }
    EXPECT_EQ(error_pattern_hint(map),
              "96 of 128 tiles (16x8 tile) wrong, the others all right: a block's offset or its "
              "tile bounds");
    // At block-tile granularity (a larger C) the same bug reads per block tile.
    const std::vector<double> expected(512 * 512, 1.0);
    std::vector<float> got(512 * 512, 1.0f);
    for (int i = 0; i < 128; ++i)
        for (int j = 128; j < 256; ++j) got[i * 512 + j] = -1.0f;
    const ErrorMap blocks = build_error_map(got.data(), expected.data(), 512, 512, 0.1,
                                            error_cell_shape(512, 512, 128, 128));
    EXPECT_EQ(blocks.granularity, "16x8 tile");
    const ErrorMap by_block = build_error_map(got.data(), expected.data(), 512, 512, 0.1,
                                              {128, 128, "block tile 128x128"});
    EXPECT_EQ(error_pattern_hint(by_block),
              "1 of 16 tiles (block tile 128x128) wrong, the others all right: a block's offset "
              "or its tile bounds");
}

TEST(ErrorMap, EdgesAndUnwrittenElements) {
    const Gemm g = random_gemm(40, 24, 16);
    // The last 8 rows computed from row 0: an M tail handled wrong.
    auto row = [](std::int64_t i, std::int64_t) { return i >= 32 ? i - 32 : i; };
    EXPECT_EQ(error_pattern_hint(map_of(g, kernel_output(g, g.k, row, same_col))),
              "only the last 8 rows are wrong: the M edge (rows beyond the last full tile)");
    auto col = [](std::int64_t, std::int64_t j) { return j >= 16 ? j - 16 : j; };
    EXPECT_EQ(error_pattern_hint(map_of(g, kernel_output(g, g.k, same, col))),
              "only the last 8 columns are wrong: the N edge (columns beyond the last full tile)");
    std::vector<float> c = kernel_output(g, g.k, same, same_col);
    EXPECT_EQ(error_pattern_hint(map_of(g, c)), "");
    c[5] = std::nanf("");
    c[7] = std::nanf("");
    EXPECT_EQ(error_pattern_hint(map_of(g, c)), "2 elements never written (NaN)");
}

}  // namespace
}  // namespace tclens::viz
