// Bench planning without a GPU: presets, the sizes a request names, the per-precision
// verification bounds, the peak and memory-roof checks (which kernels join a bench:
// bench_selection_test.cpp).

#include "kernels/bench.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "kernels/gpu_registry.h"
#include "kernels/problem_text.h"
#include "kernels/runner.h"

namespace tclens::kernels {
namespace {

TEST(BenchPresets, Lab6IsTheLabsTable) {
    const auto problems = preset_problems("lab6");
    ASSERT_EQ(problems.size(), 9u);
    EXPECT_EQ(problems.front().m, 3072);
    EXPECT_EQ(problems.back().m, 16);
    for (const GemmProblem& p : problems) {
        EXPECT_EQ(p.n, 3072);
        EXPECT_EQ(p.k, 3072);
    }
    EXPECT_EQ(preset_problems("square").back().m, 8192);
    EXPECT_TRUE(preset_problems("nope").empty());
}

TEST(Presets, LlmHoldsPrefillWideAndDecodeShapes) {
    const std::vector<GemmProblem> llm = preset_problems("llm");
    ASSERT_EQ(llm.size(), 5u);
    auto has = [&](std::int64_t m, std::int64_t n, std::int64_t k) {
        return std::any_of(llm.begin(), llm.end(),
                           [&](const GemmProblem& p) { return p.m == m && p.n == n && p.k == k; });
    };
    EXPECT_TRUE(has(4096, 14336, 4096));
    EXPECT_TRUE(has(8192, 8192, 1024));
    EXPECT_TRUE(has(16, 8192, 8192));
    std::string error = "stale";
    EXPECT_EQ(parse_problems({}, "llm", error).size(), 5u);
    EXPECT_EQ(error, "");
}

TEST(ParseProblems, SizesInOrderThenThePresets) {
    std::string error = "stale";
    const auto problems = parse_problems({"4096x129x77", "16x16x16"}, "square", error);
    EXPECT_EQ(error, "");
    ASSERT_EQ(problems.size(), 2u + 6u);
    EXPECT_EQ(problems[0].n, 129);
    EXPECT_EQ(problems[1].m, 16);
    EXPECT_EQ(problems[2].m, 512);
    EXPECT_EQ(problems.back().k, 8192);
    EXPECT_TRUE(parse_problems({}, "", error).empty());
    EXPECT_EQ(error, "");
}

TEST(ParseProblems, TheFirstBadSizeOrAnUnknownPresetIsOneLine) {
    std::string error;
    EXPECT_TRUE(parse_problems({"16x16x16", "0x4x4", "4x"}, "", error).empty());
    EXPECT_EQ(error, problem_error("0x4x4"));
    EXPECT_TRUE(parse_problems({""}, "", error).empty());
    EXPECT_EQ(error, problem_error(""));
    EXPECT_TRUE(parse_problems({"16x16x16"}, "cube", error).empty());
    EXPECT_EQ(error, "unknown preset 'cube'; valid: lab6, llm, square");
}

TEST(VerificationBound, LooserForLowerPrecision) {
    EXPECT_LT(verification_bound(Precision::kF32, 4096),
              verification_bound(Precision::kTF32, 4096));
    EXPECT_LT(verification_bound(Precision::kTF32, 4096),
              verification_bound(Precision::kF16, 4096));
    EXPECT_EQ(verification_bound(Precision::kF16, 4096),
              verification_bound(Precision::kBF16, 4096));
}

TEST(VerificationBound, IssueValuesUpToK4096ThenGrowingAsSqrtK) {
    EXPECT_DOUBLE_EQ(verification_bound(Precision::kF32, 4096), 2e-6);
    EXPECT_DOUBLE_EQ(verification_bound(Precision::kTF32, 3072), 1e-3);
    EXPECT_DOUBLE_EQ(verification_bound(Precision::kBF16, 1), 1e-2);
    EXPECT_DOUBLE_EQ(verification_bound(Precision::kF32, 4 * 4096), 4e-6);
    EXPECT_DOUBLE_EQ(verification_bound(Precision::kF16, 16 * 4096), 4e-2);
}

TEST(GemmRunner, WithoutAGpuEveryRunIsAnErrorNotANumber) {
    GemmRunner runner;
    if (runner.init_error().empty()) GTEST_SKIP() << "skipped: this machine has a GPU";
    const RunResult r = runner.run(*find_gpu_kernel("naive_fma.f32"), {64, 64, 64}, RunOptions{});
    EXPECT_FALSE(r.error.empty());
    EXPECT_FALSE(r.counts());
    EXPECT_EQ(r.tflops, 0);
}

// No number above the measured peak of its precision: such a time cannot hold the work.
TEST(AbovePeak, ARateAboveItsPrecisionsPeakIsImpossible) {
    const std::vector<PeakMeasurement> peaks = {
        {Precision::kF32, "fma.rn.f32", 66.3},
        {Precision::kBF16, "wgmma.m64n256k16.f32.bf16.bf16", 975.6}};
    RunResult r;
    r.precision = Precision::kBF16;
    r.check.passed = true;
    r.timed_runs = 30;
    r.tflops = 74051.0;
    EXPECT_EQ(above_peak(r, peaks),
              "impossible: 74051.0 TFLOP/s is 75.90x this GPU's measured bf16 peak of 975.6 "
              "TFLOP/s (wgmma.m64n256k16.f32.bf16.bf16): the time does not hold the work");
    r.tflops = 975.6;  // at the peak: possible
    EXPECT_EQ(above_peak(r, peaks), "");
    r.tflops = 70.0;  // above f32's peak, but a bf16 row
    EXPECT_EQ(above_peak(r, peaks), "");
    r.precision = Precision::kF32;
    EXPECT_NE(above_peak(r, peaks), "");
    r.precision = Precision::kE4M3;  // no peak of its precision measured: nothing to hold it to
    r.tflops = 5000;
    EXPECT_EQ(above_peak(r, peaks), "");
    r.precision = Precision::kBF16;
    r.check.passed = false;  // not counted: no number to refuse
    EXPECT_EQ(above_peak(r, peaks), "");
}

// The header's example: a decode-shaped bf16 GEMM against a 4.8 TB/s memory roof.
TEST(MemoryRoof, CompulsoryBytesOverTheMedianTimeAgainstTheBandwidth) {
    RunResult r;
    r.precision = Precision::kBF16;
    r.problem = {16, 8192, 8192};
    r.check.passed = true;
    r.timed_runs = 30;
    r.median_ms = 0.040;
    const double bytes = 16.0 * 8192 * 2 + 8192.0 * 8192 * 2 + 16.0 * 8192 * 4;
    EXPECT_NEAR(pct_of_memory_roof(r, 4.8e12), 100.0 * bytes / 40e-6 / 4.8e12, 1e-9);
    EXPECT_NEAR(pct_of_memory_roof(r, 4.8e12), 70.3, 0.05);
    EXPECT_EQ(pct_of_memory_roof(r, 0), 0);  // bandwidth unknown
    r.check.passed = false;                  // an unverified run has no number
    EXPECT_EQ(pct_of_memory_roof(r, 4.8e12), 0);
}

}  // namespace
}  // namespace tclens::kernels
