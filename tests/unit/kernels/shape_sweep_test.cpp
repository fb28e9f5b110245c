// The drawn shapes of `bench --sweep` (kernels/shape_sweep.h): reproducible from the seed, in
// range, a third unaligned with a few primes, the rest multiples of 16 or 64.

#include "kernels/shape_sweep.h"

#include <gtest/gtest.h>

namespace tclens::kernels {
namespace {

bool aligned(std::int64_t side) { return side % 16 == 0; }

TEST(ShapeSweep, SameSeedSameShapesOtherSeedOthers) {
    const std::vector<GemmProblem> a = draw_sweep_shapes(300, 7);
    const std::vector<GemmProblem> b = draw_sweep_shapes(300, 7);
    const std::vector<GemmProblem> c = draw_sweep_shapes(300, 8);
    ASSERT_EQ(a.size(), 300u);
    int differ = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_TRUE(same_problem(a[i], b[i])) << i;
        differ += same_problem(a[i], c[i]) ? 0 : 1;
    }
    EXPECT_GT(differ, 290);
    // A shorter sweep is the start of a longer one of the same seed.
    const std::vector<GemmProblem> start = draw_sweep_shapes(10, 7);
    for (std::size_t i = 0; i < start.size(); ++i) EXPECT_TRUE(same_problem(start[i], a[i]));
}

TEST(ShapeSweep, SidesInRangeAThirdUnalignedAFewPrime) {
    const std::vector<GemmProblem> shapes = draw_sweep_shapes(1000, 1);
    int unaligned = 0, primes = 0, small = 0, large = 0;
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        const GemmProblem& s = shapes[i];
        for (std::int64_t side : {s.m, s.n, s.k}) {
            EXPECT_GE(side, kSweepMinSide);
            EXPECT_LE(side, kSweepMaxSide);
            small += side < 256 ? 1 : 0;
            large += side >= 4096 ? 1 : 0;
        }
        const bool all_aligned = aligned(s.m) && aligned(s.n) && aligned(s.k);
        if (i % 3 == 2) {
            EXPECT_FALSE(all_aligned) << i;
            ++unaligned;
        } else {
            EXPECT_TRUE(all_aligned) << i;
        }
        const bool prime_side = is_prime(s.m) || is_prime(s.n) || is_prime(s.k);
        if (i % 30 == 29) {
            EXPECT_TRUE(prime_side) << i;
        }
        primes += prime_side ? 1 : 0;
    }
    EXPECT_EQ(unaligned, 333);
    EXPECT_GE(primes, 33);
    // Log-uniform over 16..16384: about a third of the sides below 256 and a fifth from 4096.
    EXPECT_GT(small, 700);
    EXPECT_GT(large, 400);
}

TEST(ShapeSweep, Primes) {
    EXPECT_FALSE(is_prime(1));
    EXPECT_TRUE(is_prime(2));
    EXPECT_TRUE(is_prime(16381));
    EXPECT_FALSE(is_prime(16383));  // 3 x 43 x 127
}

}  // namespace
}  // namespace tclens::kernels
