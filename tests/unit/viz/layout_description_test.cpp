// Tests for viz/layout_description.*: the plain-language descriptions are derived from the
// model (their summary regenerates every layout exactly), and for the shapes of the PTX ISA's
// figures they read as a person would say them ("A is split into 4 quadrants, each mapped to one
// register, top-to-bottom then left-to-right; row-major inside").
#include "viz/layout_description.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

namespace tclens::viz {
namespace {

FragmentLayout layout_of(const std::string& id) {
    std::optional<FragmentLayout> layout = fragment_layout(id);
    EXPECT_TRUE(layout.has_value()) << id;
    return layout.value_or(FragmentLayout{});
}

std::string description(const std::string& id, Operand op) {
    const FragmentLayout layout = layout_of(id);
    const OperandLayout* operand = layout.find(op);
    EXPECT_NE(operand, nullptr) << id;
    return operand ? describe_operand(layout, *operand) : "";
}

bool same_elements(std::vector<LayoutElement> a, std::vector<LayoutElement> b) {
    const auto order = [](const LayoutElement& x, const LayoutElement& y) {
        return std::tie(x.lane, x.reg, x.sub) < std::tie(y.lane, y.reg, y.sub);
    };
    std::sort(a.begin(), a.end(), order);
    std::sort(b.begin(), b.end(), order);
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](const LayoutElement& x, const LayoutElement& y) {
                          return x.lane == y.lane && x.reg == y.reg && x.sub == y.sub &&
                                 x.row == y.row && x.col == y.col;
                      });
}

TEST(LayoutDescription, EverySummaryRegeneratesItsOperandExactly) {
    int blocks = 0, bit_steps = 0;
    for (const std::string& id : fragment_layout_ids()) {
        const FragmentLayout layout = layout_of(id);
        for (const OperandLayout& operand : layout.operands) {
            SCOPED_TRACE(id + " " + operand_letter(operand.operand));
            const OperandSummary summary = summarize_operand(operand, layout.threads);
            ASSERT_TRUE(summary.regular || summary.bit_steps);
            EXPECT_TRUE(
                same_elements(expand_summary(summary, operand, layout.threads), operand.elements));
            blocks += summary.regular;
            bit_steps += summary.bit_steps;
        }
    }
    // The bit-step fallback is the exception: metadata with four holders, a few tcgen05 maps.
    EXPECT_GT(blocks, 10 * bit_steps);
}

TEST(LayoutDescription, ASummaryOfAnotherLayoutDoesNotRegenerateIt) {
    // The check above can fail: the tf32 m16n8k8 summary does not describe its transpose.
    FragmentLayout layout = layout_of("mma.m16n8k8.tf32");
    OperandLayout a = *layout.find(Operand::A);
    const OperandSummary summary = summarize_operand(a, layout.threads);
    std::swap(a.elements[0].row, a.elements[1].row);
    EXPECT_FALSE(same_elements(expand_summary(summary, a, layout.threads), a.elements));
    // And the swapped layout summarises differently (not as the clean quadrants).
    const OperandSummary swapped = summarize_operand(a, layout.threads);
    EXPECT_FALSE(swapped.regular);
}

TEST(LayoutDescription, MmaOperandsReadLikeTheIsaFigures) {
    EXPECT_EQ(description("mma.m16n8k16.f16", Operand::A),
              "A (16x16, f16, 4 registers per lane): split into 4 blocks of 8x8, one per register "
              "(a0, a1, a2, a3), top-to-bottom, then left-to-right; row-major inside: lane 4g+t "
              "holds row g, columns 2t..2t+1 of the block.");
    EXPECT_EQ(description("mma.m16n8k16.f16", Operand::B),
              "B (16x8, f16, 2 registers per lane): split into 2 blocks of 8x8, one per register "
              "(b0, b1), top-to-bottom; column-major inside: lane 4g+t holds column g, rows "
              "2t..2t+1 of the block.");
    EXPECT_EQ(description("mma.m16n8k8.tf32", Operand::C),
              "C (16x8, f32, 4 registers per lane): split into 2 blocks of 8x8, one per 2 "
              "registers (c0-1, c2-3), top-to-bottom; row-major inside: lane 4g+t holds row g, "
              "columns 2t..2t+1 of the block.");
    EXPECT_EQ(description("mma.m16n8k16.f16.f16acc", Operand::D),
              "D (16x8, f16, 2 registers per lane): split into 2 blocks of 8x8, one per register "
              "(d0, d1), top-to-bottom; row-major inside: lane 4g+t holds row g, columns "
              "2t..2t+1 of the block.");
}

TEST(LayoutDescription, WarpgroupsDescribeOneWarp) {
    EXPECT_EQ(description("wgmma.m64n8k8.tf32", Operand::A),
              "A (64x8, tf32, 4 registers per lane): warp w (lanes 32w..32w+31) holds rows "
              "16w..16w+15, each group of 32 as follows; split into 4 blocks of 8x4, one per "
              "register (a0, a1, a2, a3), top-to-bottom, then left-to-right; row-major inside: "
              "lane 4g+t holds row g, column t of the block.");
}

TEST(LayoutDescription, MetadataSaysWhichLanesHoldIt) {
    const std::string e = description("mma.sp.m16n8k16.bf16.sel3", Operand::E);
    EXPECT_EQ(e.rfind("E (16x8, b2, 1 register per lane): only lanes 3, 7, ..., 31 hold it; split "
                      "into 2 blocks of 8x8, one per 8 2-bit fields (e0 bits 0..15, e0 bits "
                      "16..31), top-to-bottom; row-major inside: the holder ranked g holds row g, "
                      "columns 0..7 of the block.",
                      0),
              0u)
        << e;
    EXPECT_NE(e.find("sparsity selector 3"), std::string::npos);
}

TEST(LayoutDescription, IrregularFragmentsGetBitSteps) {
    // tcgen05.ld.16x64b: thread t holds lane 8(t%2) + t/4, column (t/2)%2 + 2r.
    const std::string d = description("tcgen05.ld.16x64b.x2", Operand::D);
    EXPECT_NE(d.find("no blocks; lane 0's first element is (0,0) and each index bit moves it by a "
                     "fixed step: lane bit 0 +8 rows, bit 1 +1 columns, bits 2-4 +1, +2, +4 rows; "
                     "register bit 0 +2 columns."),
              std::string::npos)
        << d;
}

TEST(LayoutDescription, OperandTypesFollowThePtxSuffixes) {
    const FragmentLayout sp = layout_of("mma.sp.m16n8k32.s8.sel0");
    EXPECT_EQ(operand_type(sp, *sp.find(Operand::A)), "s8");
    EXPECT_EQ(operand_type(sp, *sp.find(Operand::D)), "s32");
    EXPECT_EQ(operand_type(sp, *sp.find(Operand::E)), "b2");
    const FragmentLayout ld = layout_of("tcgen05.ld.32x32b.x1");
    EXPECT_EQ(operand_type(ld, *ld.find(Operand::D)), "b32");
}

}  // namespace
}  // namespace tclens::viz
