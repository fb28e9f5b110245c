// Tests of kernels/peak_probe.h that need no GPU: how instruction peaks become the per-precision
// peaks the bench divides by.
#include "kernels/peak_probe.h"

#include <gtest/gtest.h>

namespace tclens::kernels {
namespace {

TEST(BestPerPrecision, FastestInstructionOfEachPrecisionInEnumOrder) {
    const std::vector<PeakMeasurement> measured = {
        {Precision::kF32, "fma.rn.f32", 66.3},
        {Precision::kBF16, "mma.sync.m16n8k16.f32.bf16.bf16", 620.0},
        {Precision::kF16, "mma.sync.m16n8k16.f32.f16.f16", 610.0},
        {Precision::kBF16, "wgmma.m64n256k16.f32.bf16.bf16", 961.0},
        {Precision::kE4M3, "wgmma.m64n256k32.f32.e4m3.e4m3", 1500.0},
    };
    const std::vector<PeakMeasurement> best = best_per_precision(measured);
    ASSERT_EQ(best.size(), 5u);
    EXPECT_EQ(best[0].precision, Precision::kF32);
    EXPECT_EQ(best[0].instruction, "fma.rn.f32");
    EXPECT_EQ(best[1].precision, Precision::kTF32);
    EXPECT_EQ(best[1].tflops, 0) << "nothing of tf32 was measured";
    EXPECT_TRUE(best[1].instruction.empty());
    EXPECT_EQ(best[2].instruction, "mma.sync.m16n8k16.f32.f16.f16");
    EXPECT_EQ(best[3].instruction, "wgmma.m64n256k16.f32.bf16.bf16");
    EXPECT_EQ(best[3].tflops, 961.0);
    EXPECT_EQ(best[4].precision, Precision::kE4M3);
    EXPECT_EQ(best[4].instruction, "wgmma.m64n256k32.f32.e4m3.e4m3");
}

TEST(BestPerPrecision, NothingMeasuredGivesFiveEmptySlots) {
    const std::vector<PeakMeasurement> best = best_per_precision({});
    ASSERT_EQ(best.size(), 5u);
    for (const PeakMeasurement& slot : best) EXPECT_EQ(slot.tflops, 0);
}

}  // namespace
}  // namespace tclens::kernels
