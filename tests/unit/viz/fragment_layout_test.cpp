// Tests for viz/fragment_layout.* and viz/layouts/*.
//
// Expected shapes, register counts and spot values are written by hand from the PTX ISA
// ("Matrix Fragments for mma.*", the ldmatrix description and Figure "ldmatrix fragment layout
// for one 8x8 Matrix with 16-bit elements", "Matrix Fragments for wgmma.mma_async.m64nNk16 /
// m64nNk8 / m64nNk32 / m64nNk256", the sparse mma.sp fragment and metadata sections, the stmatrix
// and movmatrix descriptions, "Shared Memory Matrix Layout" and, for the tcgen05 models, the
// Tensor Memory "Matrix fragments for shape ..." and "Data Path Layout Organization" sections),
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
    std::vector<ExpectedOperand> operands;  // in A, B, C, D, E order
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
        {"mma.m16n8k8.bf16", 32, mma_operands(16, 8, 16, 32, 2, 1, 4)},
        {"mma.m16n8k16.f16.f16acc", 32, mma_operands(16, 16, 16, 16, 4, 2, 2)},
        {"mma.m16n8k32.e5m2", 32, mma_operands(16, 32, 8, 32, 4, 2, 4)},
        {"mma.m16n8k32.e4m3.f16acc", 32, mma_operands(16, 32, 8, 16, 4, 2, 2)},
        {"mma.m16n8k32.e5m2.f16acc", 32, mma_operands(16, 32, 8, 16, 4, 2, 2)},
        {"mma.m16n8k64.s4", 32, mma_operands(16, 64, 4, 32, 4, 2, 4)},
        {"mma.m16n8k64.u4", 32, mma_operands(16, 64, 4, 32, 4, 2, 4)},
        {"mma.m16n8k256.b1.and", 32, mma_operands(16, 256, 1, 32, 4, 2, 4)},
        {"mma.m16n8k256.b1.xor", 32, mma_operands(16, 256, 1, 32, 4, 2, 4)},
        {"mma.m8n8k16.s8", 32, mma_operands(8, 16, 8, 32, 1, 1, 2)},
        {"mma.m8n8k32.s4", 32, mma_operands(8, 32, 4, 32, 1, 1, 2)},
    };
    // mma.sp: A is the compressed M x K/2 matrix, E the 2-bit metadata in one register.
    const auto sparse = [](int k, int in_bits, int acc_bits, int a_regs, int b_regs) {
        std::vector<ExpectedOperand> operands =
            mma_operands(16, k / 2, in_bits, acc_bits, a_regs, b_regs, 4);
        operands[1].rows = k;  // B keeps the full K
        operands.push_back({Operand::E, 16, k / 2, 2, 1});
        return operands;
    };
    for (const char* type : {"f16", "bf16"}) {
        for (int sel = 0; sel < 4; ++sel) {
            layouts.push_back(
                {std::string("mma.sp.m16n8k16.") + type + ".sel" + std::to_string(sel), 32,
                 sparse(16, 16, 32, 2, 2)});
        }
    }
    for (const char* type : {"f16", "bf16"}) {
        for (int sel = 0; sel < 2; ++sel) {
            layouts.push_back(
                {std::string("mma.sp.m16n8k32.") + type + ".sel" + std::to_string(sel), 32,
                 sparse(32, 16, 32, 4, 4)});
        }
    }
    layouts.push_back({"mma.sp.m16n8k32.s8.sel0", 32, sparse(32, 8, 32, 2, 2)});
    layouts.push_back({"mma.sp.m16n8k32.s8.sel1", 32, sparse(32, 8, 32, 2, 2)});
    layouts.push_back({"mma.sp.m16n8k64.s8.sel0", 32, sparse(64, 8, 32, 4, 4)});
    layouts.push_back({"mma.sp.m16n8k64.e4m3.sel0", 32, sparse(64, 8, 32, 4, 4)});
    for (int x : {1, 2, 4}) {
        layouts.push_back({"ldmatrix.x" + std::to_string(x), 32, {{Operand::D, 8 * x, 8, 16, x}}});
    }
    for (int x : {1, 2, 4}) {
        layouts.push_back(
            {"ldmatrix.x" + std::to_string(x) + ".trans", 32, {{Operand::D, 8 * x, 8, 16, x}}});
    }
    for (int x : {1, 2, 4}) {
        layouts.push_back({"stmatrix.x" + std::to_string(x), 32, {{Operand::A, 8 * x, 8, 16, x}}});
    }
    for (int x : {1, 2, 4}) {
        layouts.push_back(
            {"stmatrix.x" + std::to_string(x) + ".trans", 32, {{Operand::A, 8 * x, 8, 16, x}}});
    }
    layouts.push_back(
        {"movmatrix.trans", 32, {{Operand::A, 8, 8, 16, 1}, {Operand::D, 8, 8, 16, 1}}});
    // wgmma: A 64 x K in four registers, D 64 x N in N/2 32-bit accumulators.
    const auto wgmma = [&](const std::string& type, int k, int in_bits, bool integer_ns) {
        for (int n = 8; n <= 256; n += 8) {
            if (integer_ns && n > 32 && n % 16 != 0) continue;
            layouts.push_back(
                {"wgmma.m64n" + std::to_string(n) + "k" + std::to_string(k) + "." + type,
                 128,
                 {{Operand::A, 64, k, in_bits, 4}, {Operand::D, 64, n, 32, n / 2}}});
        }
    };
    wgmma("f16", 16, 16, false);
    wgmma("tf32", 8, 32, false);
    wgmma("e4m3", 32, 8, false);
    wgmma("e5m2", 32, 8, false);
    wgmma("s8", 32, 8, true);
    wgmma("u8", 32, 8, true);
    wgmma("b1", 256, 1, true);
    // Shared-memory views have no register operands (their tiles are checked below).
    for (const char* type : {"tf32", "f16", "e4m3", "b1"}) {
        for (const char* swizzle : {"none", "sw32", "sw64", "sw128"}) {
            layouts.push_back({std::string("wgmma.smem.") + type + ".k." + swizzle, 128, {}});
        }
    }
    for (const char* swizzle : {"none", "sw32", "sw64", "sw128"}) {
        layouts.push_back({std::string("wgmma.smem.f16.mn.") + swizzle, 128, {}});
    }
    // tcgen05.ld: .x1 and .x2 of each shape; rows are TMEM lanes, columns 32-bit TMEM columns.
    const struct {
        const char* shape;
        int lanes, regs, cols;  // per .x1
    } kShapes[] = {{"32x32b", 32, 1, 1},
                   {"16x64b", 16, 1, 2},
                   {"16x128b", 16, 2, 4},
                   {"16x256b", 16, 4, 8},
                   {"16x32bx2", 16, 1, 2}};
    for (const auto& shape : kShapes) {
        for (int x : {1, 2}) {
            layouts.push_back({std::string("tcgen05.ld.") + shape.shape + ".x" + std::to_string(x),
                               32,
                               {{Operand::D, shape.lanes, shape.cols * x, 32, shape.regs * x}}});
        }
    }
    // Accumulators (N = 64): regs = TMEM columns taken by the CTA's part of D.
    layouts.push_back({"tcgen05.mma.m64n64.cta1", 128, {{Operand::D, 64, 64, 32, 64}}});
    layouts.push_back({"tcgen05.mma.m128n64.cta1", 128, {{Operand::D, 128, 64, 32, 64}}});
    layouts.push_back({"tcgen05.mma.m128n64.cta2", 128, {{Operand::D, 64, 64, 32, 32}}});
    layouts.push_back({"tcgen05.mma.m256n64.cta2", 128, {{Operand::D, 128, 64, 32, 64}}});
    // Scale factors (M = N = 128) in 4 TMEM columns of 4 bytes.
    for (const auto& [id, factors] :
         std::vector<std::pair<std::string, int>>{{"tcgen05.sf.mxf8f6f4.1x", 1},
                                                  {"tcgen05.sf.mxf4.2x", 2},
                                                  {"tcgen05.sf.mxf4nvf4.4x", 4}}) {
        layouts.push_back(
            {id, 32, {{Operand::A, 128, factors, 8, 4}, {Operand::B, factors, 128, 8, 4}}});
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
        case 4:
            return 8;
        case 2:
            return 16;
        case 1:
            return 32;
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
    for (const char* id : {"",
                           "mma",
                           "mma.m16n8k8.f32",
                           "mma.m16n8k8.tf32 ",
                           "ldmatrix.x3",
                           "ldmatrix.trans",
                           "wgmma.m64n0k16.f16",
                           "wgmma.m64n12k16.f16",
                           "wgmma.m64n264k16.f16",
                           "wgmma.m64n64k16.bf16",
                           "wgmma.m64n40k32.s8",
                           "wgmma.m64n40k256.b1",
                           "mma.sp.m16n8k32.f16.sel2",
                           "mma.sp.m16n8k32.e4m3.sel0",
                           "stmatrix.x3",
                           "movmatrix",
                           "mma.m16n8k256.b1",
                           "wgmma.smem.f16",
                           "wgmma.smem.tf32.mn.sw128",
                           "tcgen05.ld.16x64b.x4",
                           "tcgen05.mma.m64n64.cta2"}) {
        EXPECT_FALSE(fragment_layout(id).has_value()) << "'" << id << "'";
    }
}

TEST(FragmentLayoutRegistry, OperandLettersRoundTrip) {
    for (Operand op : {Operand::A, Operand::B, Operand::C, Operand::D, Operand::E}) {
        const char letter = operand_letter(op);
        EXPECT_EQ(parse_operand(std::string(1, letter)), op);
    }
    EXPECT_EQ(operand_letter(Operand::C), 'C');
    EXPECT_EQ(parse_operand("E"), Operand::E);
    for (const char* bad : {"", "a", "e", "F", "AB", " A"}) {
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
    const auto starts = [&](const char* prefix) { return expected.id.rfind(prefix, 0) == 0; };
    const std::string ptx_prefix = starts("mma.sp.")      ? "mma.sp::ordered_metadata.sync.aligned."
                                   : starts("mma.")       ? "mma.sync.aligned."
                                   : starts("wgmma.")     ? "wgmma.mma_async.sync.aligned."
                                   : starts("ldmatrix.")  ? "ldmatrix.sync.aligned.m8n8."
                                   : starts("stmatrix.")  ? "stmatrix.sync.aligned.m8n8."
                                   : starts("movmatrix.") ? "movmatrix.sync.aligned.m8n8.trans.b16"
                                   : starts("tcgen05.ld.") ? "tcgen05.ld.sync.aligned."
                                                           : "tcgen05.mma.cta_group::";
    EXPECT_EQ(layout.ptx.rfind(ptx_prefix, 0), 0u) << layout.ptx;
    // Only tcgen05 is a model that no GPU at hand checks; it says where it comes from.
    EXPECT_EQ(layout.verifiable, !starts("tcgen05."));
    EXPECT_EQ(layout.source.rfind("PTX ISA, ", 0) == 0, starts("tcgen05."));
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

// The operands whose slots are not all used (header of viz/fragment_layout.h): mma.sp metadata
// (only the selector's lanes; m16n8k64 uses all four lanes of a group), tcgen05 M = 64 (half the
// TMEM lanes) and the scale factors of the 1X and 2X kinds (bytes of a 32-bit column left over).
bool partial_by_design(const std::string& id, Operand op) {
    const bool sparse_k64 = id.rfind("mma.sp.m16n8k64.", 0) == 0;
    return (op == Operand::E && !sparse_k64) || id == "tcgen05.mma.m64n64.cta1" ||
           id == "tcgen05.sf.mxf8f6f4.1x" || id == "tcgen05.sf.mxf4.2x";
}

TEST_P(EveryLayout, EveryMatrixElementIsHeldExactlyOnce) {
    const ExpectedLayout& expected = GetParam();
    const FragmentLayout layout = layout_or_fail(expected.id);
    for (const OperandLayout& operand : layout.operands) {
        SCOPED_TRACE(std::string("operand ") + operand_letter(operand.operand));
        ASSERT_EQ(operand.elements.size(), static_cast<size_t>(operand.rows * operand.cols));
        const int subs = subs_per_register(operand.elem_bits);
        EXPECT_EQ(is_dense(operand, layout.threads),
                  !partial_by_design(expected.id, operand.operand));
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

TEST_P(EveryLayout, AddressLanesOnlyForLdmatrixAndStmatrix) {
    const ExpectedLayout& expected = GetParam();
    const FragmentLayout layout = layout_or_fail(expected.id);
    if (expected.id.rfind("ldmatrix.", 0) != 0 && expected.id.rfind("stmatrix.", 0) != 0) {
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

// ---- The new families (each spot from the formula or figure the comment names) ----

TEST(MmaSpots, M16n8k64S4AndU4) {
    // "Matrix Fragments for mma.m16n8k64": a_i row groupID (+8 for 8 <= i < 16 and i >= 24),
    // col threadID_in_group * 8 + (i & 7) (+32 for i >= 16); reg r holds a_{8r}..a_{8r+7}.
    // lane 9: groupID 2, threadID_in_group 1.
    for (const char* id : {"mma.m16n8k64.s4", "mma.m16n8k64.u4"}) {
        expect_spots(id, Operand::A, {{9, 0, 0, 2, 8}, {9, 1, 7, 10, 15}, {9, 2, 0, 2, 40}});
        // b_i row threadID_in_group * 8 + (i & 7) (+32 for i >= 8), col groupID.
        expect_spots(id, Operand::B, {{9, 0, 3, 11, 2}, {9, 1, 0, 40, 2}});
        expect_spots(id, Operand::D, {{9, 3, 0, 10, 3}});
    }
}

TEST(MmaSpots, M16n8k256B1AndOrXorPopc) {
    // "Matrix Fragments for mma.m16n8k256": a_i row groupID (+8 for 32 <= i < 64 and i >= 96),
    // col threadID_in_group * 32 + (i & 31) (+128 for i >= 64). lane 6: groupID 1, tig 2.
    for (const char* id : {"mma.m16n8k256.b1.and", "mma.m16n8k256.b1.xor"}) {
        expect_spots(id, Operand::A, {{6, 0, 0, 1, 64}, {6, 2, 31, 1, 223}, {6, 3, 5, 9, 197}});
        // b_i row threadID_in_group * 32 + (i & 31) (+128 for i >= 32), col groupID.
        expect_spots(id, Operand::B, {{6, 1, 7, 199, 1}, {0, 0, 0, 0, 0}});
    }
    EXPECT_EQ(fragment_layout("mma.m16n8k256.b1.xor")->ptx,
              "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc");
}

TEST(MmaSpots, M8n8k16S8AndM8n8k32S4) {
    // "Matrix Fragments for mma.m8n8k16": a_i (groupID, tig * 4 + i), b_i (tig * 4 + i, groupID),
    // c_i (groupID, tig * 2 + i). lane 13: groupID 3, tig 1.
    expect_spots("mma.m8n8k16.s8", Operand::A, {{13, 0, 2, 3, 6}});
    expect_spots("mma.m8n8k16.s8", Operand::B, {{13, 0, 3, 7, 3}});
    expect_spots("mma.m8n8k16.s8", Operand::C, {{13, 1, 0, 3, 3}});
    // m8n8k32 .s4: a_i (groupID, tig * 8 + i), b_i (tig * 8 + i, groupID).
    expect_spots("mma.m8n8k32.s4", Operand::A, {{13, 0, 7, 3, 15}});
    expect_spots("mma.m8n8k32.s4", Operand::B, {{13, 0, 0, 8, 3}});
}

TEST(MmaSpots, F16AccumulatorsPackTwoPerRegister) {
    // "Matrix Fragments for mma.m16n8k16" C/D .f16: c0, c1 in the first .f16x2 register at row
    // groupID, c2, c3 in the second at groupID + 8; col tig * 2 + (i & 1). lane 6: groupID 1,
    // tig 2.
    for (const char* id :
         {"mma.m16n8k16.f16.f16acc", "mma.m16n8k32.e4m3.f16acc", "mma.m16n8k32.e5m2.f16acc"}) {
        expect_spots(id, Operand::C, {{6, 0, 1, 1, 5}, {6, 1, 0, 9, 4}});
        expect_spots(id, Operand::D, {{6, 1, 1, 9, 5}});
    }
    // bf16 m16n8k8 uses the f16 fragments: lane 7 (groupID 1, tig 3).
    expect_spots("mma.m16n8k8.bf16", Operand::A, {{7, 1, 1, 9, 7}});
    expect_spots("mma.m16n8k8.bf16", Operand::B, {{7, 0, 1, 7, 1}});
    expect_spots("mma.m16n8k32.e5m2", Operand::A, {{9, 3, 3, 10, 23}});
}

TEST(MmaSpSpots, CompressedAIsTheDenseFragmentOfHalfK) {
    // Sparse m16n8k32 .f16: A is four .f16x2 registers laid out as dense m16n8k16 A.
    expect_spots("mma.sp.m16n8k32.f16.sel0", Operand::A, {{22, 2, 1, 5, 13}});
    // Sparse m16n8k32 .s8: a_i row groupID (+8 for i >= 4), firstcol tig * 8 of the full A, i.e.
    // compressed columns tig * 4 .. tig * 4 + 3. lane 9: groupID 2, tig 1.
    expect_spots("mma.sp.m16n8k32.s8.sel1", Operand::A, {{9, 0, 3, 2, 7}, {9, 1, 0, 10, 4}});
    // B keeps the full K: sparse m16n8k64 .s8 B is dense m16n8k64 8-bit B (4 registers).
    expect_spots("mma.sp.m16n8k64.s8.sel0", Operand::B, {{9, 3, 1, 53, 2}});
}

TEST(MmaSpSpots, MetadataLanesFollowTheSelector) {
    // m16n8k16 .f16: one thread per group of four (tig == selector): bits 0-15 row groupID, bits
    // 16-31 row groupID + 8, two 2-bit fields per group of four columns. lane 10: groupID 2, tig 2.
    expect_spots("mma.sp.m16n8k16.f16.sel2", Operand::E, {{10, 0, 0, 2, 0}, {10, 0, 9, 10, 1}});
    const FragmentLayout k16 = layout_or_fail("mma.sp.m16n8k16.f16.sel2");
    for (const LayoutElement& e : k16.find(Operand::E)->elements) EXPECT_EQ(e.lane % 4, 2);
    // m16n8k32 .f16 selector 0: threads 4g and 4g+1; thread 4g+p holds columns 16p..16p+15 of
    // the full rows g (bits 0-15) and g + 8 (bits 16-31). lane 5: groupID 1, p 1.
    expect_spots("mma.sp.m16n8k32.f16.sel0", Operand::E, {{5, 0, 3, 1, 11}, {5, 0, 12, 9, 12}});
    // m16n8k32 .s8 selector 1: threads 4g+2 (row g) and 4g+3 (row g + 8), a whole row each.
    expect_spots("mma.sp.m16n8k32.s8.sel1", Operand::E, {{11, 0, 5, 10, 5}, {10, 0, 15, 2, 15}});
    // m16n8k64 .s8 / .e4m3 selector 0: all four threads: 4g+p+2q holds row g + 8p, full columns
    // 32q..32q+31 (compressed 16q..16q+15).
    for (const char* id : {"mma.sp.m16n8k64.s8.sel0", "mma.sp.m16n8k64.e4m3.sel0"}) {
        expect_spots(id, Operand::E, {{14, 0, 0, 3, 16}, {15, 0, 15, 11, 31}});
    }
}

TEST(MatrixMoveSpots, StmatrixMirrorsLdmatrixAndMovmatrixTransposes) {
    expect_spots("stmatrix.x4", Operand::A, {{9, 2, 0, 18, 2}, {31, 3, 1, 31, 7}});
    expect_spots("stmatrix.x2.trans", Operand::A, {{5, 1, 1, 11, 1}});
    // movmatrix: lane 4g+t receives A(2t, g) and A(2t+1, g). lane 5: g 1, t 1.
    expect_spots("movmatrix.trans", Operand::A, {{5, 0, 1, 1, 3}});
    expect_spots("movmatrix.trans", Operand::D, {{5, 0, 1, 3, 1}, {5, 0, 0, 2, 1}});
}

TEST(WgmmaSpots, OtherTypesStackTheirMmaFragmentsPerWarp) {
    // .tf32 (m64nNk8): a0 (g, t), a1 (g + 8, t), a2 (g, t + 4), a3 (g + 8, t + 4) in warp w's 16
    // rows. lane 37: warp 1, groupID 1, tig 1.
    expect_spots("wgmma.m64n8k8.tf32", Operand::A, {{37, 1, 0, 25, 1}, {37, 2, 0, 17, 5}});
    // 8-bit (m64nNk32): register r holds a_{4r}..a_{4r+3}: rows g (+8 for odd r), columns
    // tig * 4 + i (+16 for r >= 2).
    for (const char* id : {"wgmma.m64n16k32.e4m3", "wgmma.m64n16k32.e5m2", "wgmma.m64n256k32.s8",
                           "wgmma.m64n48k32.u8"}) {
        expect_spots(id, Operand::A, {{37, 2, 3, 17, 23}, {37, 1, 0, 25, 4}});
    }
    // .b1 (m64nNk256): 32 one-bit elements per register. lane 127: warp 3, groupID 7, tig 3.
    expect_spots("wgmma.m64n24k256.b1", Operand::A, {{127, 3, 31, 63, 255}, {0, 1, 0, 8, 0}});
    expect_spots("wgmma.m64n24k256.b1", Operand::D, {{127, 11, 0, 63, 23}});
    EXPECT_EQ(fragment_layout("wgmma.m64n24k256.b1")->ptx,
              "wgmma.mma_async.sync.aligned.m64n24k256.s32.b1.b1.and.popc");
    EXPECT_EQ(fragment_layout("wgmma.m64n240k32.s8")->ptx,
              "wgmma.mma_async.sync.aligned.m64n240k32.s32.s8.s8");
}

const SharedMemoryElement* smem_element(const FragmentLayout& layout, Operand op, int row,
                                        int col) {
    for (const SharedMemoryTile& tile : layout.shared_memory) {
        if (tile.operand != op) continue;
        for (const SharedMemoryElement& e : tile.elements) {
            if (e.row == row && e.col == col) return &e;
        }
    }
    return nullptr;
}

TEST(WgmmaSmemSpots, CanonicalLayoutsAndSwizzles) {
    // K-major, no swizzle, f16 (T = 8): ((8,m),(T,2k)):((1T,SBO),(1,LBO)) with LBO = 128 bytes
    // (64 elements) and SBO = 256 bytes (128): A(9, 10) -> 1*8 + 1*128 + 2 + 1*64 = 202 elements.
    const FragmentLayout k_none = layout_or_fail("wgmma.smem.f16.k.none");
    const SharedMemoryElement* e = smem_element(k_none, Operand::A, 9, 10);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->byte, 404);
    EXPECT_EQ(e->core_matrix, 3);  // rows 8..15, second 16-byte chunk of K
    ASSERT_EQ(k_none.shared_memory.size(), 2u);
    EXPECT_EQ(k_none.shared_memory[0].rows, 64);
    EXPECT_EQ(k_none.shared_memory[0].cols, 16);
    EXPECT_EQ(k_none.shared_memory[1].rows, 16);
    EXPECT_EQ(k_none.shared_memory[1].cols, 64);
    // K-major, 128-byte swizzle: rows are 128 bytes apart and chunk c of row r moves to c ^ (r %
    // 8): B(k 0, n 1) -> row 1 at 128 bytes, chunk 0 -> 1: byte 144.
    const FragmentLayout k_128 = layout_or_fail("wgmma.smem.f16.k.sw128");
    EXPECT_EQ(smem_element(k_128, Operand::B, 0, 1)->byte, 144);
    EXPECT_EQ(smem_element(k_128, Operand::A, 3, 9)->byte, 3 * 128 + ((1 ^ 3) * 16) + 2);
    // Descriptor: LBO 16 -> 1, SBO 1024 -> 64, 128-byte swizzle = mode 1 in bits 62-63.
    EXPECT_EQ(k_128.shared_memory[0].descriptor, 1ull << 16 | 64ull << 32 | 1ull << 62);
    // MN-major, no swizzle: ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO)), SBO = 128 bytes (64 elements),
    // LBO = 1024 bytes (512): A(9, 10) -> 1 + 64 + 2*8 + 512 = 593 elements = 1186 bytes.
    const FragmentLayout mn_none = layout_or_fail("wgmma.smem.f16.mn.none");
    e = smem_element(mn_none, Operand::A, 9, 10);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->byte, 1186);
    EXPECT_EQ(e->core_matrix, 9);  // k 8..15 (second row of 8 cores), M bytes 16..31
    // b1: 128 elements per 16 bytes; element k of a row is bit k % 8 of byte k / 8.
    const FragmentLayout b1 = layout_or_fail("wgmma.smem.b1.k.none");
    e = smem_element(b1, Operand::A, 0, 139);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->byte, 128 + 1);  // second K core matrix (LBO 128), byte 11 / 8 = 1 of its row
    EXPECT_EQ(e->bit, 3);
}

TEST(WgmmaSmemSpots, EveryTileHoldsEachByteOnce) {
    for (const std::string& id : fragment_layout_ids()) {
        if (id.rfind("wgmma.smem.", 0) != 0) continue;
        SCOPED_TRACE(id);
        const FragmentLayout layout = layout_or_fail(id);
        for (const SharedMemoryTile& tile : layout.shared_memory) {
            ASSERT_EQ(tile.elements.size(), size_t(tile.rows * tile.cols));
            std::set<std::pair<int, int>> bits;
            for (const SharedMemoryElement& e : tile.elements) {
                EXPECT_TRUE(bits.insert({e.byte, e.bit}).second) << e.row << "," << e.col;
            }
            // 32 bytes of K per row: A and B take 64 * 32 = 2048 bytes each.
            EXPECT_EQ(bits.size() * size_t(tile.elem_bits), 2048u * 8u);
        }
    }
}

TEST(Tcgen05Spots, DataPathAccumulatorAndScaleFactorModels) {
    // Data paths, thread t register r: 16x64b lane 8(t%2) + t/4, column (t/2)%2 + 2r.
    expect_spots("tcgen05.ld.16x64b.x2", Operand::D, {{6, 1, 0, 1, 3}, {1, 0, 0, 8, 0}});
    // 16x128b: lane t/4 + 8(r%2), column t%4 + 4(r/2).
    expect_spots("tcgen05.ld.16x128b.x2", Operand::D, {{7, 3, 0, 9, 7}});
    // 16x256b: the m16n8 accumulator pattern.
    expect_spots("tcgen05.ld.16x256b.x1", Operand::D, {{5, 3, 0, 9, 3}});
    expect_spots("tcgen05.ld.32x32b.x2", Operand::D, {{9, 1, 0, 9, 1}});
    // 16x32bx2: the second half (threads 16-31) after the first.
    expect_spots("tcgen05.ld.16x32bx2.x2", Operand::D, {{17, 0, 0, 1, 2}, {3, 1, 0, 3, 1}});
    // Layout F: rows 16w..16w+15 in TMEM lanes 32w..32w+15.
    expect_spots("tcgen05.mma.m64n64.cta1", Operand::D, {{37, 5, 0, 21, 5}});
    // The layout outlives the loop (a range over a temporary's member would dangle).
    const FragmentLayout m64 = layout_or_fail("tcgen05.mma.m64n64.cta1");
    for (const LayoutElement& e : m64.find(Operand::D)->elements) {
        EXPECT_LT(e.lane % 32, 16);
    }
    // Layout B: columns N/2.. in lanes 64..127.
    expect_spots("tcgen05.mma.m128n64.cta2", Operand::D, {{70, 3, 0, 6, 35}});
    // Scale factors: row m of scale_A in lane m % 32, column m / 32, byte = factor index.
    expect_spots("tcgen05.sf.mxf4.2x", Operand::A, {{5, 2, 1, 69, 1}});
    expect_spots("tcgen05.sf.mxf4.2x", Operand::B, {{5, 2, 1, 1, 69}});
}

TEST(LayoutFamily, GroupsByFamilyAndArchitecture) {
    EXPECT_EQ(layout_family("mma.m16n8k8.tf32").family, "mma.sync");
    EXPECT_EQ(layout_family("mma.m16n8k32.e5m2").arch, "sm_89");
    EXPECT_EQ(layout_family("mma.sp.m16n8k64.e4m3.sel0").family, "mma.sp");
    EXPECT_EQ(layout_family("stmatrix.x4").arch, "sm_90");
    EXPECT_EQ(layout_family("wgmma.m64n8k8.tf32").arch, "sm_90a");
    EXPECT_EQ(layout_family("wgmma.smem.b1.k.sw64").family, "wgmma smem");
    EXPECT_EQ(layout_family("tcgen05.sf.mxf4.2x").arch, "sm_100a");
    EXPECT_EQ(layout_family("nope").family, "");
    for (const std::string& id : fragment_layout_ids()) {
        EXPECT_NE(layout_family(id).family, "") << id;
    }
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
    EXPECT_EQ(wgmma_layout_n("wgmma.m64n240k32.u8"), 240);
    EXPECT_EQ(wgmma_layout_n("wgmma.m64n40k32.u8"), 0);  // integer shapes step by 16 past 32
    EXPECT_EQ(wgmma_layout_type("wgmma.m64n40k32.e5m2"), "e5m2");
    EXPECT_EQ(wgmma_layout_type("wgmma.smem.f16.k.none"), "");
    EXPECT_EQ(wgmma_layout_id("f16", 256), "wgmma.m64n256k16.f16");
    EXPECT_EQ(wgmma_layout_id("b1", 48), "wgmma.m64n48k256.b1");
    EXPECT_EQ(wgmma_layout_ns("s8").size(), 18u);
    EXPECT_EQ(wgmma_layout_ns("tf32").size(), 32u);
    EXPECT_EQ(wgmma_layout_types(),
              (std::vector<std::string>{"f16", "tf32", "e4m3", "e5m2", "s8", "u8", "b1"}));
}

TEST(FragmentLayoutIdsText, FoldsWgmmaAndKeepsTheRest) {
    const std::string text = fragment_layout_ids_text();
    EXPECT_NE(text.find("mma.m16n8k8.tf32, "), std::string::npos);
    EXPECT_NE(text.find("ldmatrix.x4.trans"), std::string::npos);
    EXPECT_NE(text.find("wgmma.m64nNk16.f16 (N = 8, 16, ..., 256)"), std::string::npos);
    EXPECT_NE(text.find("wgmma.m64nNk32.s8 (N = 8, 16, 24, 32, 48, 64, ..., 256)"),
              std::string::npos);
    EXPECT_NE(text.find("wgmma.m64nNk256.b1"), std::string::npos);
    EXPECT_NE(text.find("tcgen05.sf.mxf4.2x"), std::string::npos);
    EXPECT_EQ(text.find("wgmma.m64n8k16"), std::string::npos);
    EXPECT_EQ(text.find("wgmma.m64n48k32.s8"), std::string::npos);
    EXPECT_EQ(text.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace tclens::viz
