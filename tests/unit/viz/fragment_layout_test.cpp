// Tests for viz/fragment_layout.* and viz/layouts/*.
//
// Expected shapes, register counts and spot values are written by hand from the PTX ISA
// ("Matrix Fragments for mma.*", the ldmatrix description and Figure "ldmatrix fragment layout
// for one 8x8 Matrix with 16-bit elements", "Matrix Fragments for wgmma.mma_async.m64nNk16"),
// never computed with the code under test.
#include "viz/fragment_layout.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "viz/layouts/wgmma_layouts.h"

namespace tclens::viz {
namespace {

struct ExpectedOperand {
    Operand operand;
    int rows;
    int cols;
    int elem_bits;
    int regs;  // registers in the PTX operand list
};

struct ExpectedLayout {
    std::string id;
    int threads;
    std::vector<ExpectedOperand> operands;  // in A, B, C, D order
};

std::vector<ExpectedOperand> mma_operands(int m, int k, int in_bits, int acc_bits, int a_regs,
                                          int b_regs, int c_regs) {
    return {{Operand::A, m, k, in_bits, a_regs},
            {Operand::B, k, 8, in_bits, b_regs},
            {Operand::C, m, 8, acc_bits, c_regs},
            {Operand::D, m, 8, acc_bits, c_regs}};
}

std::vector<ExpectedLayout> expected_layouts() {
    std::vector<ExpectedLayout> layouts = {
        {"mma.m16n8k4.tf32", 32, mma_operands(16, 4, 32, 32, 2, 1, 4)},
        {"mma.m16n8k8.tf32", 32, mma_operands(16, 8, 32, 32, 4, 2, 4)},
        {"mma.m16n8k8.f16", 32, mma_operands(16, 8, 16, 32, 2, 1, 4)},
        {"mma.m16n8k16.f16", 32, mma_operands(16, 16, 16, 32, 4, 2, 4)},
        {"mma.m16n8k16.bf16", 32, mma_operands(16, 16, 16, 32, 4, 2, 4)},
        {"mma.m16n8k32.s8", 32, mma_operands(16, 32, 8, 32, 4, 2, 4)},
        {"mma.m16n8k32.e4m3", 32, mma_operands(16, 32, 8, 32, 4, 2, 4)},
        {"mma.m8n8k4.f64", 32, mma_operands(8, 4, 64, 64, 1, 1, 2)},
        {"ldmatrix.x1", 32, {{Operand::D, 8, 8, 16, 1}}},
        {"ldmatrix.x2", 32, {{Operand::D, 16, 8, 16, 2}}},
        {"ldmatrix.x4", 32, {{Operand::D, 32, 8, 16, 4}}},
        {"ldmatrix.x1.trans", 32, {{Operand::D, 8, 8, 16, 1}}},
        {"ldmatrix.x2.trans", 32, {{Operand::D, 16, 8, 16, 2}}},
        {"ldmatrix.x4.trans", 32, {{Operand::D, 32, 8, 16, 4}}},
    };
    for (int n = 8; n <= 256; n += 8) {
        layouts.push_back({"wgmma.m64n" + std::to_string(n) + "k16.f16",
                           128,
                           {{Operand::A, 64, 16, 16, 4}, {Operand::D, 64, n, 32, n / 2}}});
    }
    return layouts;
}

// Elements one register holds: f64 sits alone in a 64-bit register, the rest share 32 bits.
int subs_per_register(int elem_bits) {
    switch (elem_bits) {
        case 64:
            return 1;
        case 32:
            return 1;
        case 16:
            return 2;
        case 8:
            return 4;
    }
    ADD_FAILURE() << "unexpected elem_bits " << elem_bits;
    return 0;
}

FragmentLayout layout_or_fail(const std::string& id) {
    std::optional<FragmentLayout> layout = fragment_layout(id);
    if (!layout) {
        ADD_FAILURE() << "no layout for " << id;
        return {};
    }
    return *layout;
}

// ---- Registry ----

TEST(FragmentLayoutRegistry, ListsEveryIdInStableOrder) {
    std::vector<std::string> expected;
    for (const ExpectedLayout& layout : expected_layouts()) {
        expected.push_back(layout.id);
    }
    EXPECT_EQ(fragment_layout_ids(), expected);
}

TEST(FragmentLayoutRegistry, RejectsUnknownIds) {
    for (const char* id : {"", "mma", "mma.m16n8k8.f32", "mma.m16n8k8.tf32 ", "ldmatrix.x3",
                           "ldmatrix.trans", "wgmma.m64n0k16.f16", "wgmma.m64n12k16.f16",
                           "wgmma.m64n264k16.f16", "wgmma.m64n64k16.bf16"}) {
        EXPECT_FALSE(fragment_layout(id).has_value()) << "'" << id << "'";
    }
}

TEST(FragmentLayoutRegistry, OperandLettersRoundTrip) {
    for (Operand op : {Operand::A, Operand::B, Operand::C, Operand::D}) {
        const char letter = operand_letter(op);
        EXPECT_EQ(parse_operand(std::string(1, letter)), op);
    }
    EXPECT_EQ(operand_letter(Operand::C), 'C');
    for (const char* bad : {"", "a", "E", "AB", " A"}) {
        EXPECT_FALSE(parse_operand(bad).has_value()) << "'" << bad << "'";
    }
}

TEST(FragmentLayoutRegistry, FindReturnsNullForAbsentOperands) {
    const FragmentLayout ldmatrix = layout_or_fail("ldmatrix.x2");
    EXPECT_EQ(ldmatrix.find(Operand::A), nullptr);
    ASSERT_NE(ldmatrix.find(Operand::D), nullptr);
    EXPECT_EQ(ldmatrix.find(Operand::D)->operand, Operand::D);

    const FragmentLayout wgmma = layout_or_fail("wgmma.m64n64k16.f16");
    EXPECT_EQ(wgmma.find(Operand::B), nullptr);
    EXPECT_EQ(wgmma.find(Operand::C), nullptr);
    EXPECT_NE(wgmma.find(Operand::A), nullptr);
    EXPECT_NE(wgmma.find(Operand::D), nullptr);
}

// ---- Invariants, one test instance per ID ----

class EveryLayout : public ::testing::TestWithParam<ExpectedLayout> {};

TEST_P(EveryLayout, IdPtxAndThreads) {
    const ExpectedLayout& expected = GetParam();
    const FragmentLayout layout = layout_or_fail(expected.id);
    EXPECT_EQ(layout.id, expected.id);
    EXPECT_EQ(layout.threads, expected.threads);
    const std::string family = expected.id.substr(0, expected.id.find('.'));
    const std::string ptx_prefix = family == "mma"     ? "mma.sync.aligned."
                                   : family == "wgmma" ? "wgmma.mma_async.sync.aligned."
                                                       : "ldmatrix.sync.aligned.m8n8.";
    EXPECT_EQ(layout.ptx.rfind(ptx_prefix, 0), 0u) << layout.ptx;
}

TEST_P(EveryLayout, OperandShapesAndRegisterCountsMatchPtx) {
    const ExpectedLayout& expected = GetParam();
    const FragmentLayout layout = layout_or_fail(expected.id);
    ASSERT_EQ(layout.operands.size(), expected.operands.size());
    for (size_t i = 0; i < expected.operands.size(); ++i) {
        const ExpectedOperand& want = expected.operands[i];
        const OperandLayout& got = layout.operands[i];
        SCOPED_TRACE(std::string("operand ") + operand_letter(want.operand));
        EXPECT_EQ(got.operand, want.operand);
        EXPECT_EQ(got.rows, want.rows);
        EXPECT_EQ(got.cols, want.cols);
        EXPECT_EQ(got.elem_bits, want.elem_bits);
        EXPECT_EQ(got.regs_per_thread, want.regs);
    }
}

TEST_P(EveryLayout, EveryMatrixElementIsHeldExactlyOnce) {
    const ExpectedLayout& expected = GetParam();
    const FragmentLayout layout = layout_or_fail(expected.id);
    for (const OperandLayout& operand : layout.operands) {
        SCOPED_TRACE(std::string("operand ") + operand_letter(operand.operand));
        ASSERT_EQ(operand.elements.size(), static_cast<size_t>(operand.rows * operand.cols));
        const int subs = subs_per_register(operand.elem_bits);
        std::vector<int> holders(operand.rows * operand.cols, 0);
        std::set<std::tuple<int, int, int>> slots;
        for (const LayoutElement& e : operand.elements) {
            ASSERT_GE(e.lane, 0);
            ASSERT_LT(e.lane, layout.threads);
            ASSERT_GE(e.reg, 0);
            ASSERT_LT(e.reg, operand.regs_per_thread);
            ASSERT_GE(e.sub, 0);
            ASSERT_LT(e.sub, subs);
            ASSERT_GE(e.row, 0);
            ASSERT_LT(e.row, operand.rows);
            ASSERT_GE(e.col, 0);
            ASSERT_LT(e.col, operand.cols);
            EXPECT_TRUE(slots.insert({e.lane, e.reg, e.sub}).second)
                << "slot held twice: lane " << e.lane << " reg " << e.reg << " sub " << e.sub;
            ++holders[e.row * operand.cols + e.col];
        }
        for (int row = 0; row < operand.rows; ++row) {
            for (int col = 0; col < operand.cols; ++col) {
                EXPECT_EQ(holders[row * operand.cols + col], 1) << "(" << row << ", " << col << ")";
            }
        }
    }
}

TEST_P(EveryLayout, AddressLanesOnlyForLdmatrix) {
    const ExpectedLayout& expected = GetParam();
    const FragmentLayout layout = layout_or_fail(expected.id);
    if (expected.id.rfind("ldmatrix.", 0) != 0) {
        EXPECT_TRUE(layout.address_lanes.empty());
        return;
    }
    // PTX: threads 0-7 give addr0-addr7 (rows of matrix 0), threads 8-15 addr8-addr15, ...
    const int rows = expected.operands.front().rows;
    ASSERT_EQ(layout.address_lanes.size(), static_cast<size_t>(rows));
    for (int row = 0; row < rows; ++row) {
        EXPECT_EQ(layout.address_lanes[row], row);
    }
}

std::string param_name(const ::testing::TestParamInfo<ExpectedLayout>& info) {
    std::string name = info.param.id;
    for (char& c : name) {
        if (c == '.') c = '_';
    }
    return name;
}

INSTANTIATE_TEST_SUITE_P(AllIds, EveryLayout, ::testing::ValuesIn(expected_layouts()), param_name);

// ---- Spot checks from the PTX ISA formulas ----

struct Spot {
    int lane;
    int reg;
    int sub;
    int row;
    int col;
};

void expect_spots(const std::string& id, Operand op, const std::vector<Spot>& spots) {
    const FragmentLayout layout = layout_or_fail(id);
    const OperandLayout* operand = layout.find(op);
    ASSERT_NE(operand, nullptr) << id << " " << operand_letter(op);
    for (const Spot& spot : spots) {
        bool found = false;
        for (const LayoutElement& e : operand->elements) {
            if (e.lane == spot.lane && e.reg == spot.reg && e.sub == spot.sub) {
                found = true;
                EXPECT_EQ(e.row, spot.row)
                    << id << " " << operand_letter(op) << " lane " << spot.lane << " reg "
                    << spot.reg << " sub " << spot.sub;
                EXPECT_EQ(e.col, spot.col)
                    << id << " " << operand_letter(op) << " lane " << spot.lane << " reg "
                    << spot.reg << " sub " << spot.sub;
            }
        }
        EXPECT_TRUE(found) << id << " " << operand_letter(op) << " lane " << spot.lane << " reg "
                           << spot.reg << " sub " << spot.sub;
    }
}

// groupID = lane >> 2, threadID_in_group = lane % 4 throughout.

TEST(MmaSpots, M16n8k4Tf32) {
    // lane 13: groupID 3, threadID_in_group 1.
    expect_spots("mma.m16n8k4.tf32", Operand::A, {{13, 0, 0, 3, 1}, {13, 1, 0, 11, 1}});
    expect_spots("mma.m16n8k4.tf32", Operand::B, {{13, 0, 0, 1, 3}, {0, 0, 0, 0, 0}});
    expect_spots("mma.m16n8k4.tf32", Operand::C,
                 {{13, 0, 0, 3, 2}, {13, 1, 0, 3, 3}, {13, 2, 0, 11, 2}, {13, 3, 0, 11, 3}});
}

TEST(MmaSpots, M16n8k8Tf32) {
    // lane 5: groupID 1, threadID_in_group 1; lane 30: groupID 7, threadID_in_group 2.
    expect_spots("mma.m16n8k8.tf32", Operand::A,
                 {{5, 0, 0, 1, 1}, {5, 1, 0, 9, 1}, {5, 2, 0, 1, 5}, {5, 3, 0, 9, 5}});
    expect_spots("mma.m16n8k8.tf32", Operand::B,
                 {{5, 0, 0, 1, 1}, {5, 1, 0, 5, 1}, {30, 0, 0, 2, 7}, {30, 1, 0, 6, 7}});
    for (Operand op : {Operand::C, Operand::D}) {
        expect_spots("mma.m16n8k8.tf32", op,
                     {{30, 0, 0, 7, 4}, {30, 1, 0, 7, 5}, {30, 2, 0, 15, 4}, {30, 3, 0, 15, 5}});
    }
}

TEST(MmaSpots, M16n8k8F16) {
    // lane 7: groupID 1, threadID_in_group 3. a0,a1 in reg 0; a2,a3 in reg 1.
    expect_spots("mma.m16n8k8.f16", Operand::A,
                 {{7, 0, 0, 1, 6}, {7, 0, 1, 1, 7}, {7, 1, 0, 9, 6}, {7, 1, 1, 9, 7}});
    expect_spots("mma.m16n8k8.f16", Operand::B, {{7, 0, 0, 6, 1}, {7, 0, 1, 7, 1}});
    expect_spots("mma.m16n8k8.f16", Operand::C, {{7, 0, 0, 1, 6}, {7, 3, 0, 9, 7}});
}

TEST(MmaSpots, M16n8k16F16AndBf16) {
    // lane 22: groupID 5, threadID_in_group 2. Element ai sits in reg i / 2, sub i % 2.
    for (const char* id : {"mma.m16n8k16.f16", "mma.m16n8k16.bf16"}) {
        expect_spots(id, Operand::A,
                     {{22, 0, 0, 5, 4},
                      {22, 0, 1, 5, 5},
                      {22, 1, 0, 13, 4},
                      {22, 1, 1, 13, 5},
                      {22, 2, 0, 5, 12},
                      {22, 2, 1, 5, 13},
                      {22, 3, 0, 13, 12},
                      {22, 3, 1, 13, 13}});
        expect_spots(id, Operand::B,
                     {{22, 0, 0, 4, 5}, {22, 0, 1, 5, 5}, {22, 1, 0, 12, 5}, {22, 1, 1, 13, 5}});
        expect_spots(id, Operand::C, {{22, 1, 0, 5, 5}, {22, 2, 0, 13, 4}});
    }
}

TEST(MmaSpots, M16n8k32S8AndE4m3) {
    // lane 9: groupID 2, threadID_in_group 1. Element ai sits in reg i / 4, sub i % 4.
    for (const char* id : {"mma.m16n8k32.s8", "mma.m16n8k32.e4m3"}) {
        expect_spots(id, Operand::A,
                     {{9, 0, 0, 2, 4},
                      {9, 0, 3, 2, 7},
                      {9, 1, 0, 10, 4},
                      {9, 2, 0, 2, 20},
                      {9, 3, 3, 10, 23}});
        expect_spots(id, Operand::B,
                     {{9, 0, 0, 4, 2}, {9, 0, 3, 7, 2}, {9, 1, 0, 20, 2}, {9, 1, 3, 23, 2}});
        expect_spots(id, Operand::D, {{9, 0, 0, 2, 2}, {9, 3, 0, 10, 3}});
    }
}

TEST(MmaSpots, M8n8k4F64) {
    // lane 14: row = lane >> 2 = 3, col = lane % 4 = 2 for A; transposed for B.
    expect_spots("mma.m8n8k4.f64", Operand::A, {{14, 0, 0, 3, 2}, {31, 0, 0, 7, 3}});
    expect_spots("mma.m8n8k4.f64", Operand::B, {{14, 0, 0, 2, 3}, {31, 0, 0, 3, 7}});
    expect_spots("mma.m8n8k4.f64", Operand::C, {{14, 0, 0, 3, 4}, {14, 1, 0, 3, 5}});
}

TEST(LdmatrixSpots, WithoutTransEachQuadHoldsARow) {
    // Lane l holds row l / 4, columns 2 (l % 4) and 2 (l % 4) + 1 of matrix j in register j.
    expect_spots("ldmatrix.x1", Operand::D,
                 {{0, 0, 0, 0, 0}, {5, 0, 0, 1, 2}, {5, 0, 1, 1, 3}, {31, 0, 1, 7, 7}});
    expect_spots("ldmatrix.x2", Operand::D, {{5, 1, 1, 9, 3}, {16, 0, 0, 4, 0}});
    expect_spots("ldmatrix.x4", Operand::D, {{9, 2, 0, 18, 2}, {31, 3, 1, 31, 7}});
}

TEST(LdmatrixSpots, WithTransEachQuadHoldsAColumn) {
    // The same source tile in column-major order: lane l holds column l / 4, rows 2 (l % 4) and
    // 2 (l % 4) + 1 of matrix j in register j.
    expect_spots("ldmatrix.x1.trans", Operand::D,
                 {{0, 0, 0, 0, 0}, {0, 0, 1, 1, 0}, {4, 0, 0, 0, 1}, {5, 0, 1, 3, 1}});
    expect_spots("ldmatrix.x2.trans", Operand::D, {{5, 1, 1, 11, 1}, {31, 1, 0, 14, 7}});
    expect_spots("ldmatrix.x4.trans", Operand::D, {{31, 3, 1, 31, 7}, {9, 2, 0, 18, 2}});
}

TEST(WgmmaSpots, AIsFourStackedM16n8k16Fragments) {
    // Warp w = lane / 32 holds rows 16w..16w+15; within the warp, the m16n8k16 A layout.
    // lane 37: warp 1, groupID 1, threadID_in_group 1. lane 127: warp 3, groupID 7, tig 3.
    for (const char* id : {"wgmma.m64n8k16.f16", "wgmma.m64n256k16.f16"}) {
        expect_spots(id, Operand::A,
                     {{0, 0, 0, 0, 0},
                      {37, 0, 0, 17, 2},
                      {37, 1, 1, 25, 3},
                      {37, 3, 1, 25, 11},
                      {127, 3, 1, 63, 15},
                      {64, 2, 0, 32, 8}});
    }
}

TEST(WgmmaSpots, DRepeatsTheM16n8AccumulatorEveryEightColumns) {
    // Registers 4j..4j+3 cover columns 8j..8j+7: d(4j + i) sits at row 16w + groupID + 8 (i / 2),
    // column 8j + 2 threadID_in_group + i % 2.
    expect_spots("wgmma.m64n8k16.f16", Operand::D,
                 {{0, 0, 0, 0, 0}, {37, 1, 0, 17, 3}, {127, 3, 0, 63, 7}});
    expect_spots("wgmma.m64n64k16.f16", Operand::D,
                 {{37, 6, 0, 25, 10}, {64, 4, 0, 32, 8}, {99, 31, 0, 56, 63}});
    expect_spots("wgmma.m64n256k16.f16", Operand::D,
                 {{127, 127, 0, 63, 255}, {37, 6, 0, 25, 10}, {1, 126, 0, 8, 250}});
}

}  // namespace
}  // namespace tclens::viz

namespace tclens::viz {
namespace {

TEST(WgmmaLayoutIds, NAndIdConvertBothWays) {
    EXPECT_EQ(wgmma_layout_n("wgmma.m64n96k16.f16"), 96);
    EXPECT_EQ(wgmma_layout_n("wgmma.m64n97k16.f16"), 0);
    EXPECT_EQ(wgmma_layout_n("wgmma.m64n264k16.f16"), 0);
    EXPECT_EQ(wgmma_layout_n("mma.m16n8k16.f16"), 0);
    EXPECT_EQ(wgmma_layout_id(256), "wgmma.m64n256k16.f16");
}

TEST(FragmentLayoutIdsText, FoldsWgmmaAndKeepsTheRest) {
    const std::string text = fragment_layout_ids_text();
    EXPECT_NE(text.find("mma.m16n8k8.tf32, "), std::string::npos);
    EXPECT_NE(text.find("ldmatrix.x4.trans"), std::string::npos);
    EXPECT_NE(text.find("wgmma.m64nNk16.f16 (N = 8, 16, ..., 256)"), std::string::npos);
    EXPECT_EQ(text.find("wgmma.m64n8k16"), std::string::npos);
    EXPECT_EQ(text.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace tclens::viz
