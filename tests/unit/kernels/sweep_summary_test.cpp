// The sweep's verdict (kernels/sweep_summary.h): each modelled loss named on a shape built to
// show it, and the summary's best-of, geometric mean, minimum and worst list.

#include "kernels/sweep_summary.h"

#include <gtest/gtest.h>

#include <cmath>

#include "kernels/registry.h"

namespace tclens::kernels {
namespace {

constexpr int kSms = 132;

// 128 x 256 x 64 tiles, 4 stages, bf16: the shape of a Hopper rung.
KernelDescriptor wide_tile_kernel() {
    KernelDescriptor kernel;
    kernel.id = "test.bf16";
    kernel.precision = Precision::kBF16;
    kernel.block_tile = {128, 256, 64};
    kernel.stages = 4;
    return kernel;
}

TEST(SweepLossReason, NamesTheBiggestModelledLoss) {
    const KernelDescriptor kernel = wide_tile_kernel();
    EXPECT_EQ(loss_reason(kernel, {768, 2048, 4096}, kSms, 0),
              "48 tiles of 128 x 256 on 132 SMs: 84 SMs idle");
    EXPECT_EQ(loss_reason(kernel, {1920, 5120, 4096}, kSms, 0),
              "300 tiles = 2.27 waves on 132 SMs: 3 rounds 76 % filled");
    EXPECT_EQ(loss_reason(kernel, {130, 16896, 4096}, kSms, 0),
              "tiles of 128 x 256 cover 1.97x the output (M = 130, N = 16896)");
    EXPECT_EQ(loss_reason(kernel, {1536, 2816, 64}, kSms, 0),
              "K = 64: 1 K tile of 64, fewer than the 4 stages");
}

// A kernel that splits K runs a CTA per (tile, range): its idle SMs and its K tiles per CTA
// count the ranges (rung 14's split-K: 21 tiles x 6 ranges fill 126 of 132 SMs, not 21).
TEST(SweepLossReason, KRangesCountAsCtasAndShortenTheirLoops) {
    KernelDescriptor kernel = wide_tile_kernel();
    kernel.block_tile = {128, 128, 64};
    kernel.k_ranges = 6;
    EXPECT_EQ(loss_reason(kernel, {2591, 56, 6904}, kSms, 0),
              "tiles of 128 x 128 cover 2.37x the output (M = 2591, N = 56)");
    kernel.k_ranges = 2;  // 42 CTAs
    EXPECT_EQ(loss_reason(kernel, {2591, 56, 6904}, kSms, 0),
              "21 tiles x 2 K ranges of 128 x 128 on 132 SMs: 90 SMs idle");
    kernel.k_ranges = 25;  // 121 K tiles in ranges of 5 over 4 tiles
    EXPECT_EQ(loss_reason(kernel, {432, 16, 7696}, kSms, 0),
              "tiles of 128 x 128 cover 9.48x the output (M = 432, N = 16)");
    kernel.k_ranges = 32;  // 8 K tiles in 32 ranges: one each
    EXPECT_EQ(loss_reason(kernel, {4096, 4096, 512}, kSms, 0),
              "K = 512 in 32 ranges: 1 K tile of 64, fewer than the 4 stages");
}

// Two CTAs per SM (rung 14's narrower rung 9 tiles) make a wave of twice the SMs.
TEST(SweepLossReason, TwoCtasPerSmMakeAWaveOfTwiceTheSms) {
    KernelDescriptor kernel = wide_tile_kernel();
    kernel.block_tile = {128, 64, 64};
    kernel.ctas_per_sm = 2;
    kernel.k_ranges = 2;  // 111 tiles x 2: 222 of 264 slots
    EXPECT_EQ(
        loss_reason(kernel, {14199, 64, 4768}, kSms, 0),
        "111 tiles x 2 K ranges of 128 x 64 on 264 CTAs (2 per SM on 132 SMs): 42 CTA slots idle");
    kernel.k_ranges = 1;  // 300 tiles: 2 rounds of 264
    EXPECT_EQ(loss_reason(kernel, {38400, 64, 4096}, kSms, 0),
              "300 tiles = 1.14 waves on 264 CTAs (2 per SM on 132 SMs): 2 rounds 57 % filled");
}

TEST(SweepLossReason, MemoryRoofOnlyWhenNoTileLossAndBelowTheRidge) {
    const KernelDescriptor kernel = wide_tile_kernel();
    // 132 full tiles, 64 K tiles: 2 x 1536 x 2816 x 4096 FLOP over 52953088 bytes = 669 FLOP/B.
    EXPECT_EQ(loss_reason(kernel, {1536, 2816, 4096}, kSms, 1000),
              "memory-bound: 669 FLOP/B, below the ridge of 1000 FLOP/B");
    EXPECT_EQ(loss_reason(kernel, {1536, 2816, 4096}, kSms, 300),
              "no modelled loss (tiles, waves, padding, K, memory): profile it");
    EXPECT_EQ(loss_reason(kernel, {1536, 2816, 4096}, kSms, 0),
              "no modelled loss (tiles, waves, padding, K, memory): profile it");
}

BenchRow row(const std::string& id, GemmProblem problem, double pct, std::string skipped = "") {
    BenchRow r;
    r.result.kernel_id = id;
    r.result.problem = problem;
    r.result.skipped = std::move(skipped);
    r.result.check.passed = r.result.skipped.empty();
    r.result.timed_runs = r.result.skipped.empty() ? 30 : 0;
    r.pct_of_reference = pct;
    return r;
}

TEST(SweepSummary, BestOfTheGivenKernelsGeomeanMinimumAndWorst) {
    const std::string a = "mma_cp_async.bf16", b = "wgmma_persistent.bf16";
    ASSERT_NE(find_kernel(a), nullptr);
    ASSERT_NE(find_kernel(b), nullptr);
    const GemmProblem big{4096, 4096, 4096}, small{64, 3072, 3072}, odd{77, 77, 77};
    BenchReport report;
    report.rows = {row(a, big, 80),
                   row(b, big, 100),
                   row("cublas.bf16", big, 0),
                   row(a, small, 50),
                   row(b, small, 40),
                   row(a, odd, 0, "K = 77 is not a multiple of 8"),
                   row(b, odd, 0, "K = 77 is not a multiple of 8")};
    const SweepSummary summary = summarize_sweep(report, {a, b}, kSms, 0, 2);
    ASSERT_EQ(summary.shapes.size(), 3u);
    EXPECT_EQ(summary.shapes_run, 2);
    EXPECT_EQ(summary.shapes[0].best_id, b);
    EXPECT_DOUBLE_EQ(*summary.shapes[0].ratio, 1.0);
    EXPECT_EQ(summary.shapes[1].best_id, a);
    EXPECT_NEAR(summary.geomean, std::sqrt(1.0 * 0.5), 1e-12);
    EXPECT_EQ(summary.minimum, 0.0);  // the shape no kernel ran
    ASSERT_EQ(summary.worst.size(), 2u);
    EXPECT_TRUE(same_problem(summary.worst[0].problem, odd));
    EXPECT_FALSE(summary.worst[0].ratio);
    EXPECT_EQ(summary.worst[0].reason, a + ": skipped: K = 77 is not a multiple of 8");
    EXPECT_TRUE(same_problem(summary.worst[1].problem, small));
    EXPECT_FALSE(summary.worst[1].reason.empty());
    EXPECT_EQ(summary.worst[1].plan, "");  // rung 8 runs every shape one way
}

// A kernel that chooses per shape (rung 14) says what it chose on each: its launch_plan, the
// configuration and the reason `tclens kernels --mnk` prints; its loss reason is that
// configuration's.
TEST(SweepSummary, ADispatchingKernelSaysWhatItRanOnEachShape) {
    const std::string dispatch = "dispatch.bf16";
    const KernelDescriptor* kernel = find_kernel(dispatch);
    ASSERT_NE(kernel, nullptr);
    ASSERT_TRUE(kernel->launch_plan);
    const GemmProblem short_k{9991, 6207, 24}, deep{432, 16, 7696};
    BenchReport report;
    report.rows = {row(dispatch, short_k, 60), row(dispatch, deep, 80)};
    const SweepSummary summary = summarize_sweep(report, {dispatch}, kSms, 0);
    ASSERT_EQ(summary.worst.size(), 2u);
    EXPECT_EQ(summary.worst[0].plan, kernel->launch_plan(short_k));
    EXPECT_EQ(summary.worst[0].plan.rfind("short-K GEMM, one CTA per 128 x 128 tile", 0), 0u)
        << summary.worst[0].plan;
    EXPECT_EQ(summary.worst[1].plan.rfind("split-K", 0), 0u) << summary.worst[1].plan;
}

}  // namespace
}  // namespace tclens::kernels
