// SASS shared-memory instructions of the ladder -> the bank lab's declared access that models them.

#include "profiling/source/shared_access_link.h"

#include <gtest/gtest.h>

namespace tclens::profiling {
namespace {

TEST(SharedAccessLink, TheOpcodeAloneDecidesWhereOnlyOneAccessFits) {
    EXPECT_EQ(link_shared_access("mma_ldmatrix_xor.f16", "LDSM.16.M88.4", {}).access,
              "mma_ldmatrix_xor.f16/A.ldmatrix");
    EXPECT_EQ(link_shared_access("mma_ldmatrix_xor.f16", "LDSM.16.MT88.4", {}).access,
              "mma_ldmatrix_xor.f16/B.ldmatrix");
    EXPECT_EQ(link_shared_access("mma_cp_async.bf16", "LDSM.16.MT88.4", {}).access,
              "mma_cp_async.bf16/B.ldmatrix");
    // Rung 6 declares one ldmatrix (and two cp.async).
    EXPECT_EQ(link_shared_access("mma_tf32_tuned", "LDSM.16.M88.4", {}).access,
              "mma_tf32_tuned/A.ldmatrix");
}

TEST(SharedAccessLink, AnotherShapeOfLdmatrixIsNoneOfTheDeclaredOnes) {
    const SharedAccessLink link = link_shared_access("mma_ldmatrix_xor.f16", "LDSM.16.M88.2", {});
    EXPECT_EQ(link.access, "");
    EXPECT_TRUE(link.candidates.empty());
}

TEST(SharedAccessLink, TheSourceLineTellsACopyOfAFromOneOfB) {
    const std::vector<std::string> a_lines = {
        "    asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16, %2;\\n\" :: \"r\"(s));",
        "                ptx::cp_async_16(stage + a_dst_ + row * Config::kARowBytes, inside ? "
        "src : a_base_,",
        "            copier.copy(stage, 0, 4);"};
    const SharedAccessLink a =
        link_shared_access("mma_cp_async.f16", "LDGSTS.E.BYPASS.128", a_lines);
    EXPECT_EQ(a.access, "mma_cp_async.f16/A.cp.async");
    const std::vector<std::string> both = {"mma_cp_async.f16/A.cp.async",
                                           "mma_cp_async.f16/B.cp.async"};
    EXPECT_EQ(a.candidates, both);
    EXPECT_EQ(link_shared_access("mma_cp_async.f16", "LDGSTS.E.BYPASS.128",
                                 {"ptx::cp_async_16(stage + b_dst_ + row * Config::kBRowBytes,"})
                  .access,
              "mma_cp_async.f16/B.cp.async");
    // Without a line naming one operand the link stays open, with both candidates.
    const SharedAccessLink open =
        link_shared_access("mma_cp_async.f16", "LDGSTS.E.BYPASS.128", {"copier.copy(stage);"});
    EXPECT_EQ(open.access, "");
    EXPECT_EQ(open.candidates, both);
}

TEST(SharedAccessLink, ALineNamingBothOperandsLeavesItOpen) {
    // Rung 2 reads both tiles on one line; the compiler may also widen the A read to LDS.128.
    const std::vector<std::string> line = {
        "            sum = fmaf(a_tile[ty][kk], b_tile[kk][tx], sum);"};
    const SharedAccessLink narrow = link_shared_access("smem_tiled.f32", "LDS", line);
    EXPECT_EQ(narrow.access, "");
    EXPECT_EQ(narrow.candidates.size(), 2u);
    const SharedAccessLink wide = link_shared_access("smem_tiled.f32", "LDS.128", line);
    EXPECT_EQ(wide.candidates.size(), 2u);  // no 16-byte lds declared: every lds fits
    EXPECT_EQ(link_shared_access("smem_tiled.f32", "LDS", {"x = a_tile[ty][kk];"}).access,
              "smem_tiled.f32/A.lds");
}

TEST(SharedAccessLink, OtherInstructionsAndKernelsLinkToNothing) {
    EXPECT_EQ(link_shared_access("mma_cp_async.f16", "HMMA.16816.F32", {}).access, "");
    EXPECT_EQ(link_shared_access("wgmma_tma.f16", "LDSM.16.M88.4", {}).access, "");
    EXPECT_EQ(link_shared_access("no_such_kernel", "LDSM.16.M88.4", {}).access, "");
    EXPECT_TRUE(is_shared_memory_opcode("LDGSTS.E.BYPASS.128"));
    EXPECT_TRUE(is_shared_memory_opcode("STS.128"));
    EXPECT_FALSE(is_shared_memory_opcode("LDG.E.128"));
    EXPECT_FALSE(is_shared_memory_opcode("LDSX"));
}

TEST(SharedAccessLink, ReadsOperandsOffIdentifiersNotStringsOrComments) {
    EXPECT_EQ(operand_named_by("f.a[j] = x;"), 'A');
    EXPECT_EQ(operand_named_by("ptx::ldmatrix_x4_trans(f.b[pair], stage + b_row);"), 'B');
    EXPECT_EQ(operand_named_by("load(sA, kARowBytes);"), 'A');
    EXPECT_EQ(operand_named_by("x = tile_b_;"), 'B');
    EXPECT_FALSE(operand_named_by("asm(\"a b\"); // a_tile").has_value());
    EXPECT_FALSE(operand_named_by("stage + row * kBytes + abc + bar").has_value());
    EXPECT_FALSE(operand_named_by("a + b").has_value());
}

}  // namespace
}  // namespace tclens::profiling
