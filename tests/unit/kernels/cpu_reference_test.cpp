// fp64 CPU references and the error measure: hand-computed products, NaN and zero handling,
// and the sampled elements' corners and uniqueness.

#include "kernels/cpu_reference.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

namespace tclens::kernels {
namespace {

TEST(ReferenceGemm, MultipliesRowMajorMatrices) {
    // A = [1 2 3; 4 5 6] (2x3), B = [1 0; 0 1; 1 1] (3x2) -> C = [4 5; 10 11]
    const std::vector<float> a = {1, 2, 3, 4, 5, 6};
    const std::vector<float> b = {1, 0, 0, 1, 1, 1};
    const GemmProblem p{2, 2, 3};
    EXPECT_EQ(reference_gemm(a, b, p), (std::vector<double>{4, 5, 10, 11}));
    EXPECT_EQ(reference_element(a, b, p, 1, 0), 10);
    EXPECT_EQ(reference_element(a, b, p, 0, 1), 5);
}

// Large enough to be shared among threads: every element is the one reference_element sums.
TEST(ReferenceGemm, ThreadedRowsGiveTheSameSums) {
    const GemmProblem p{67, 129, 511};  // 4.4 M multiply-adds, rows not a multiple of any count
    std::vector<float> a(static_cast<std::size_t>(p.m * p.k));
    std::vector<float> b(static_cast<std::size_t>(p.k * p.n));
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>((i * 7919) % 13) - 6.5f;
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>((i * 104729) % 11) * 0.25f;
    const std::vector<double> ref = reference_gemm(a, b, p);
    for (std::int64_t i = 0; i < p.m; ++i) {
        for (std::int64_t j = 0; j < p.n; ++j) {
            ASSERT_EQ(ref[static_cast<std::size_t>(i * p.n + j)], reference_element(a, b, p, i, j))
                << i << ", " << j;
        }
    }
}

TEST(RelativeRmsError, IsZeroForEqualAndScalesWithTheDifference) {
    EXPECT_EQ(relative_rms_error({1, 2}, std::vector<double>{1, 2}), 0);
    // diff (0, 1), ref (0, 2): sqrt(1 / 4) = 0.5
    EXPECT_DOUBLE_EQ(relative_rms_error({0, 3}, std::vector<double>{0, 2}), 0.5);
    EXPECT_DOUBLE_EQ(relative_rms_error({0, 3}, std::vector<float>{0, 2}), 0.5);
}

TEST(RelativeRmsError, NaNWhenAnyElementIsNaNOrTheReferenceIsZero) {
    EXPECT_TRUE(std::isnan(relative_rms_error({1, std::nanf("")}, std::vector<double>{1, 2})));
    EXPECT_TRUE(std::isnan(relative_rms_error({0, 0}, std::vector<double>{0, 0})));
}

// One pass gives the verification both numbers: the relative error and the reference's RMS.
TEST(ErrorSums, GiveTheRelativeErrorAndTheReferencesRms) {
    // diff (0, 1), ref (0, 2): relative sqrt(1 / 4) = 0.5, reference RMS sqrt(4 / 2).
    const ErrorSums sums = error_sums({0, 3}, std::vector<double>{0, 2});
    EXPECT_DOUBLE_EQ(sums.relative_rms(), 0.5);
    EXPECT_DOUBLE_EQ(sums.reference_rms(), std::sqrt(2.0));
    EXPECT_FALSE(sums.nan);
    // A NaN in c spoils the error, not the reference's RMS (the tolerance stays a number).
    const ErrorSums spoiled = error_sums({std::nanf(""), 3}, std::vector<float>{0, 2});
    EXPECT_TRUE(spoiled.nan);
    EXPECT_TRUE(std::isnan(spoiled.relative_rms()));
    EXPECT_DOUBLE_EQ(spoiled.reference_rms(), std::sqrt(2.0));
    EXPECT_EQ(ErrorSums{}.reference_rms(), 0);
}

TEST(SampleElements, StartsWithTheCornersAndNeverRepeats) {
    const GemmProblem p{100, 30, 7};
    const auto picked = sample_elements(p, 500, 42);
    ASSERT_EQ(picked.size(), 500u);
    EXPECT_EQ(picked[0], 0);
    EXPECT_EQ(picked[1], 29);
    EXPECT_EQ(picked[2], 99 * 30);
    EXPECT_EQ(picked[3], 100 * 30 - 1);
    EXPECT_EQ(std::set<std::int64_t>(picked.begin(), picked.end()).size(), picked.size());
    for (std::int64_t index : picked) {
        EXPECT_GE(index, 0);
        EXPECT_LT(index, 3000);
    }
}

TEST(SampleElements, TakesEveryElementOfASmallMatrix) {
    EXPECT_EQ(sample_elements({1, 1, 1}, 100, 1), (std::vector<std::int64_t>{0}));
    EXPECT_EQ(sample_elements({3, 2, 1}, 100, 1).size(), 6u);
}

}  // namespace
}  // namespace tclens::kernels
