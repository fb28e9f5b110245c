// kernels/probes/clock_skew_summary.cpp: the spreads of rounds of the clock skew probe's
// samples, and the rounds it refuses. The probe itself is a GPU test
// (tests/gpu/kernels/probes/clock_skew_probe_test.cpp).
#include <gtest/gtest.h>

#include "kernels/probes/clock_skew_probe.h"

namespace tclens::kernels {
namespace {

ClockSkewSample sample(std::uint64_t ns, std::uint64_t clock, std::uint32_t sm) {
    return {ns, clock, sm, sm};
}

std::vector<ClockSkewSample> round_of(std::vector<std::uint64_t> ns) {
    std::vector<ClockSkewSample> round;
    for (std::size_t i = 0; i < ns.size(); ++i) {
        round.push_back(sample(ns[i], 1000 * i, static_cast<std::uint32_t>(i)));
    }
    return round;
}

TEST(ClockSkewSummary, TheHeaderExample) {
    ClockSkewSummary s;
    ASSERT_EQ(summarize_clock_skew({round_of({10, 14, 11}), round_of({20, 20, 29})}, s), "");
    EXPECT_EQ(s.rounds, 2);
    EXPECT_EQ(s.blocks, 3);
    EXPECT_EQ(s.distinct_sms, 3);
    EXPECT_EQ(s.min_spread_ns, 4);
    EXPECT_EQ(s.median_spread_ns, 4);  // the lower middle one of {4, 9}
    EXPECT_EQ(s.max_spread_ns, 9);
    EXPECT_EQ(s.median_clock_spread, 2000);
}

TEST(ClockSkewSummary, MedianOfAnOddCountAndSmsSeenTwice) {
    ClockSkewSummary s;
    // Blocks 0, 1 and 2; blocks 0 and 1 on SM 3.
    std::vector<ClockSkewSample> shared = {{5, 0, 3, 0}, {7, 10, 3, 1}, {6, 20, 4, 2}};
    ASSERT_EQ(summarize_clock_skew({shared, round_of({0, 100, 0}), round_of({50, 51, 52})}, s), "");
    EXPECT_EQ(s.distinct_sms, 2);  // two blocks of round 0 reported SM 3
    EXPECT_EQ(s.min_spread_ns, 2);
    EXPECT_EQ(s.median_spread_ns, 2);  // {2, 2, 100}
    EXPECT_EQ(s.max_spread_ns, 100);
}

TEST(ClockSkewSummary, RoundsItCannotSummariseAreNamed) {
    ClockSkewSummary s;
    EXPECT_EQ(summarize_clock_skew({}, s), "clock skew: no rounds");
    EXPECT_EQ(summarize_clock_skew({round_of({1, 2}), {}}, s),
              "clock skew: round 1 has no samples");
    EXPECT_EQ(summarize_clock_skew({round_of({1, 2}), round_of({1, 2, 3})}, s),
              "clock skew: round 1 has 3 samples, round 0 has 2");
}

TEST(ClockSkewSummary, TextNamesEveryNumberAndTheTick) {
    ClockSkewSummary s;
    ASSERT_EQ(summarize_clock_skew({round_of({10, 14, 11}), round_of({20, 20, 29})}, s), "");
    EXPECT_EQ(clock_skew_text(s),
              "globaltimer spread between SMs over 2 rounds of 3 blocks on 3 SMs: min 4 ns, "
              "median 4 ns, max 9 ns (tick unknown; bounds the skew plus the flag's "
              "propagation; clock64 spread 2000 cycles, per-SM counters)");
    s.tick_ns = 32;
    EXPECT_NE(clock_skew_text(s).find("(tick 32 ns;"), std::string::npos);
}

}  // namespace
}  // namespace tclens::kernels
