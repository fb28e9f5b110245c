// Tests for viz/fragment_bug.*: the bugs a fragment or block index makes, planted in a C whose
// every element has its own value, named from the values (the mma.m16n8k16 C fragment: lane l
// holds c0, c1 at row l / 4, columns 2 (l % 4) + {0, 1}, and c2, c3 eight rows below).

#include "viz/fragment_bug.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <vector>

namespace tclens::viz {
namespace {

constexpr std::int64_t kSide = 64;
constexpr double kTolerance = 1e-3;

struct Planted {
    std::vector<double> expected;
    std::vector<float> got;
};

// expected: distinct values; got(r, c) = expected(source(r, c)).
Planted plant(const std::function<std::pair<std::int64_t, std::int64_t>(std::int64_t,
                                                                        std::int64_t)>& source) {
    Planted planted;
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    planted.expected.resize(kSide * kSide);
    for (double& x : planted.expected) x = value(rng);
    planted.got.resize(kSide * kSide);
    for (std::int64_t r = 0; r < kSide; ++r) {
        for (std::int64_t c = 0; c < kSide; ++c) {
            const auto [sr, sc] = source(r, c);
            planted.got[r * kSide + c] = static_cast<float>(planted.expected[sr * kSide + sc]);
        }
    }
    return planted;
}

std::string name(const Planted& planted, int block = 0) {
    const auto layout = fragment_layout("mma.m16n8k16.f16");
    EXPECT_TRUE(layout.has_value());
    return name_fragment_bug(planted.got.data(), planted.expected.data(), kSide, kSide, kTolerance,
                             *layout, block, block);
}

TEST(FragmentBug, ACorrectCNamesNothing) {
    EXPECT_EQ(name(plant([](auto r, auto c) { return std::pair{r, c}; }), 16), "");
}

TEST(FragmentBug, ExchangedAccumulatorRegistersAreNamed) {
    // Every lane stores c1 where c2 belongs and back: (g, 2t + 1) <-> (g + 8, 2t).
    const Planted planted = plant([](std::int64_t r, std::int64_t c) {
        const std::int64_t tr = r % 16, tc = c % 8;
        if (tr < 8 && tc % 2 == 1) return std::pair{r + 8, c - 1};
        if (tr >= 8 && tc % 2 == 0) return std::pair{r - 8, c + 1};
        return std::pair{r, c};
    });
    EXPECT_EQ(name(planted),
              "C: every lane's c1 and c2 are exchanged (c1: rows 0-7, odd columns; c2: rows 8-15, "
              "even columns of each 16x8 tile)");
    // Folded onto one tile: those 64 places are wrong in each of the 32 tiles, no other is.
    const auto layout = fragment_layout("mma.m16n8k16.f16");
    const FoldedErrors folded =
        fold_errors(planted.got.data(), planted.expected.data(), kSide, kSide, kTolerance, *layout);
    EXPECT_EQ(folded.rows, 16);
    EXPECT_EQ(folded.cols, 8);
    EXPECT_EQ(folded.tiles, 32);
    EXPECT_EQ(folded.wrong_tiles, 32);
    EXPECT_EQ(folded.wrong[0 * 8 + 1], 32);  // c1 of lane 0
    EXPECT_EQ(folded.wrong[8 * 8 + 0], 32);  // c2 of lane 0
    EXPECT_EQ(folded.wrong[0 * 8 + 0], 0);   // c0 of lane 0
    // Naming the bug leaves the same fold where the caller asks for it.
    FoldedErrors named_fold;
    name_fragment_bug(planted.got.data(), planted.expected.data(), kSide, kSide, kTolerance,
                      *layout, 0, 0, nullptr, &named_fold);
    EXPECT_EQ(named_fold.wrong, folded.wrong);
    EXPECT_EQ(named_fold.wrong_tiles, folded.wrong_tiles);
}

TEST(FragmentBug, WrongLowerHalvesNameTheirRegisters) {
    // Rows 8-15 of every 16-row tile read from the row above the tile: c2 and c3 of every lane.
    const Planted planted = plant([](std::int64_t r, std::int64_t c) {
        return r % 16 >= 8 ? std::pair{(r + 17) % kSide, c} : std::pair{r, c};
    });
    EXPECT_EQ(name(planted),
              "C: registers c2, c3 of every lane are wrong (rows 8-15, every column of each 16x8 "
              "tile)");
}

TEST(FragmentBug, WrongLanesAreNamed) {
    // Lanes 0-3 (row 0 and row 8 of each tile) hold values from elsewhere.
    const Planted planted = plant([](std::int64_t r, std::int64_t c) {
        return r % 8 == 0 ? std::pair{(r + 3) % kSide, (c + 5) % kSide} : std::pair{r, c};
    });
    EXPECT_EQ(name(planted),
              "C: lanes 0-3 are wrong in every register (rows 0, 8, every column of each 16x8 "
              "tile)");
}

TEST(FragmentBug, SwappedBlockIndicesAreNamed) {
    // Block (x, y) stores its tile where block (y, x) belongs (examples/wrong_block_offset.cu).
    const Planted planted = plant([](std::int64_t r, std::int64_t c) {
        return std::pair{(c / 16) * 16 + r % 16, (r / 16) * 16 + c % 16};
    });
    EXPECT_EQ(name(planted, 16),
              "each wrong block tile 16x16 holds the values of the block with x and y exchanged: "
              "blockIdx.x and blockIdx.y are swapped where C is stored");
    // Without the kernel's block tile (a kernel of yours), the smallest square that explains it.
    EXPECT_EQ(name(planted, 0), name(planted, 16));
    const Planted by_32 = plant([](std::int64_t r, std::int64_t c) {
        return std::pair{(c / 32) * 32 + r % 32, (r / 32) * 32 + c % 32};
    });
    EXPECT_NE(name(by_32, 0).find("block tile 32x32"), std::string::npos) << name(by_32, 0);
}

TEST(FragmentBug, ABlockOffsetByOneIsNamed) {
    // Each block stores one block row too high: the tile at block row y holds row y + 1's.
    const Planted planted = plant([](std::int64_t r, std::int64_t c) {
        return std::pair{r + 16 < kSide ? r + 16 : r, c};
    });
    EXPECT_EQ(name(planted, 16),
              "each wrong block tile 16x16 holds the values of the block 1 down: a wrong blockIdx "
              "offset");
}

// A GEMM whose kernel read A (or B) with two registers exchanged in every lane: C = A' B (or
// A B'), the exchange applied to every 16x16 tile of A (16x8 of B) through the real layout.
struct GemmCase {
    std::vector<float> a, b;
    std::vector<double> expected;
    std::vector<float> got;
};

GemmCase gemm_with_exchange(Operand which, int i, int j) {
    constexpr std::int64_t m = 32, n = 16, k = 32;
    GemmCase g;
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    g.a.resize(m * k);
    g.b.resize(k * n);
    for (float& x : g.a) x = value(rng);
    for (float& x : g.b) x = value(rng);
    const auto layout = fragment_layout("mma.m16n8k16.f16");
    const OperandLayout& op = *layout->find(which);
    std::vector<float> a = g.a, b = g.b;
    std::vector<float>& read = which == Operand::A ? a : b;
    const std::vector<float>& given = which == Operand::A ? g.a : g.b;
    const std::int64_t cols = which == Operand::A ? k : n;
    for (const LayoutElement& e : op.elements) {
        if (e.reg != i && e.reg != j) continue;
        for (const LayoutElement& o : op.elements) {
            if (o.lane != e.lane || o.sub != e.sub || o.reg != (e.reg == i ? j : i)) continue;
            for (std::int64_t tr = 0; tr < (which == Operand::A ? m : k); tr += op.rows)
                for (std::int64_t tc = 0; tc < cols; tc += op.cols)
                    read[(tr + e.row) * cols + tc + e.col] =
                        given[(tr + o.row) * cols + tc + o.col];
        }
    }
    g.expected.assign(m * n, 0.0);
    g.got.assign(m * n, 0.0f);
    for (std::int64_t r = 0; r < m; ++r) {
        for (std::int64_t c = 0; c < n; ++c) {
            double want = 0, wrong = 0;
            for (std::int64_t kk = 0; kk < k; ++kk) {
                want += double(g.a[r * k + kk]) * g.b[kk * n + c];
                wrong += double(a[r * k + kk]) * b[kk * n + c];
            }
            g.expected[r * n + c] = want;
            g.got[r * n + c] = static_cast<float>(wrong);
        }
    }
    return g;
}

std::string name_gemm(const GemmCase& g) {
    const auto layout = fragment_layout("mma.m16n8k16.f16");
    const GemmInputs inputs{g.a.data(), g.b.data(), 32};
    return name_fragment_bug(g.got.data(), g.expected.data(), 32, 16, kTolerance, *layout, 0, 0,
                             &inputs);
}

TEST(FragmentBug, ExchangedARegistersAreFoundFromTheInputs) {
    EXPECT_EQ(name_gemm(gemm_with_exchange(Operand::A, 1, 2)),
              "A: every lane's a1 and a2 are exchanged (a1: rows 8-15, columns 0-7; a2: rows 0-7, "
              "columns 8-15 of each 16x16 tile)");
    // a0 and a2 share rows 0-7: without A and B only the places of C are named.
    const GemmCase rows_0_7 = gemm_with_exchange(Operand::A, 0, 2);
    EXPECT_EQ(name_gemm(rows_0_7).rfind("A: every lane's a0 and a2 are exchanged", 0), 0u);
    const auto layout = fragment_layout("mma.m16n8k16.f16");
    EXPECT_EQ(name_fragment_bug(rows_0_7.got.data(), rows_0_7.expected.data(), 32, 16, kTolerance,
                                *layout, 0, 0),
              "C: registers c0, c1 of every lane are wrong (rows 0-7, every column of each 16x8 "
              "tile)");
}

TEST(FragmentBug, ExchangedBRegistersAreFoundFromTheInputs) {
    EXPECT_EQ(name_gemm(gemm_with_exchange(Operand::B, 0, 1)),
              "B: every lane's b0 and b1 are exchanged (b0: rows 0-7, every column; b1: rows "
              "8-15, every column of each 16x8 tile)");
}

TEST(FragmentBug, AScatteredPatternNamesNothing) {
    // Wrong places that fit no rule: no claim is made.
    const Planted planted = plant([](std::int64_t r, std::int64_t c) {
        return (r * 7 + c * 3) % 11 == 0 ? std::pair{(r + 5) % kSide, (c + 9) % kSide}
                                         : std::pair{r, c};
    });
    EXPECT_EQ(name(planted, 16), "");
}

}  // namespace
}  // namespace tclens::viz
