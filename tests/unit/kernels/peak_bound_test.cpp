// Tests of kernels/peak_bound.h: the whitepaper rates give the datasheets' figures, and a
// measured peak above its bound (a probe that miscounts its FLOPs) is caught.
#include "kernels/peak_bound.h"

#include <gtest/gtest.h>

namespace tclens::kernels {
namespace {

const BoundDevice kH100{9, 0, 132, 1980000};  // cudaDeviceProp's peak SM clock: 1980 MHz

TEST(PeakBound, RatesGiveTheDatasheetFigures) {
    // H100 SXM: bf16 dense 989 TFLOP/s at the 1830 MHz the datasheet's tensor figures assume,
    // FP32 67 TFLOP/s at 1980 MHz.
    EXPECT_NEAR(peak_bound_tflops(9, 0, Precision::kBF16, 132, 1830000), 989.4, 0.1);
    EXPECT_NEAR(peak_bound_tflops(9, 0, Precision::kF16, 132, 1830000), 989.4, 0.1);
    EXPECT_NEAR(peak_bound_tflops(9, 0, Precision::kTF32, 132, 1830000), 494.7, 0.1);
    EXPECT_NEAR(peak_bound_tflops(9, 0, Precision::kF32, 132, 1980000), 66.9, 0.1);
    // A100 SXM: 108 SMs at 1410 MHz: 312 f16/bf16, 156 tf32, 19.5 FP32.
    EXPECT_NEAR(peak_bound_tflops(8, 0, Precision::kBF16, 108, 1410000), 311.9, 0.1);
    EXPECT_NEAR(peak_bound_tflops(8, 0, Precision::kTF32, 108, 1410000), 155.9, 0.1);
    EXPECT_NEAR(peak_bound_tflops(8, 0, Precision::kF32, 108, 1410000), 19.5, 0.1);
    // A40 (8.6): 84 SMs at 1740 MHz: 150 f16 dense, 37.4 FP32.
    EXPECT_NEAR(peak_bound_tflops(8, 6, Precision::kF16, 84, 1740000), 149.7, 0.1);
    EXPECT_NEAR(peak_bound_tflops(8, 6, Precision::kF32, 84, 1740000), 37.4, 0.1);
}

TEST(PeakBound, UnknownArchitectureHasNoRate) {
    EXPECT_EQ(dense_flops_per_sm_clock(7, 5, Precision::kF16), 0);
    EXPECT_EQ(dense_flops_per_sm_clock(10, 0, Precision::kBF16), 0);
    EXPECT_EQ(peak_bound_tflops(7, 5, Precision::kF32, 40, 1590000), 0);
}

// What the H100 measured (tests/gpu/results/2026-11-22_h100_session5/mma_sync_ceiling/): every
// instruction under its bound, FFMA within 0.3 % of it.
TEST(PeakBound, TheH100sMeasuredPeaksAreWithinTheirBounds) {
    const std::vector<PeakMeasurement> measured = {
        {Precision::kF32, "FFMA (fma.rn.f32)", 66.75},
        {Precision::kTF32, "mma.sync.m16n8k8.f32.tf32.tf32", 329.5},
        {Precision::kBF16, "mma.sync.m16n8k16.f32.bf16.bf16", 667.2},
        {Precision::kTF32, "wgmma.m64n256k8.f32.tf32.tf32", 499.5},
        {Precision::kF16, "wgmma.m64n256k16.f32.f16.f16", 895.7},
        {Precision::kBF16, "wgmma.m64n256k16.f32.bf16.bf16", 956.5},
    };
    EXPECT_EQ(peaks_above_bound(measured, kH100, 0.02), "");
}

// A probe that counts twice the FLOPs it does, or one a little past the tolerance, is caught
// and named; the bound is the whitepaper's, not the largest measured value.
TEST(PeakBound, APeakAboveItsBoundIsNamed) {
    const std::vector<PeakMeasurement> doubled = {
        {Precision::kF32, "FFMA (fma.rn.f32)", 66.75},
        {Precision::kBF16, "wgmma.m64n256k16.f32.bf16.bf16", 2 * 956.5},
    };
    EXPECT_EQ(peaks_above_bound(doubled, kH100, 0.02),
              "wgmma.m64n256k16.f32.bf16.bf16 (bf16): 1913.0 TFLOP/s measured, above the bound "
              "of 1070.5 (132 SMs x 4096 FLOP/clock x 1980 MHz)");
    const double bound = peak_bound_tflops(9, 0, Precision::kF32, 132, 1980000);
    EXPECT_EQ(peaks_above_bound({{Precision::kF32, "FFMA", bound * 1.019}}, kH100, 0.02), "");
    EXPECT_NE(peaks_above_bound({{Precision::kF32, "FFMA", bound * 1.021}}, kH100, 0.02), "");
    // Two bad peaks: both named, one after the other.
    const std::string both = peaks_above_bound(
        {{Precision::kF32, "FFMA", 100.0}, {Precision::kTF32, "mma.sync", 600.0}}, kH100, 0.02);
    EXPECT_NE(both.find("FFMA (f32): 100.0"), std::string::npos) << both;
    EXPECT_NE(both.find("; mma.sync (tf32): 600.0"), std::string::npos) << both;
}

TEST(PeakBound, NoPeaksOrNoRateIsNotAPass) {
    EXPECT_EQ(peaks_above_bound({}, kH100, 0.02), "no peaks were measured");
    EXPECT_EQ(peaks_above_bound({{Precision::kF16, "mma.sync", 50.0}}, {7, 5, 40, 1590000}, 0.02),
              "mma.sync (f16): no dense rate known for compute capability 7.5");
}

}  // namespace
}  // namespace tclens::kernels
