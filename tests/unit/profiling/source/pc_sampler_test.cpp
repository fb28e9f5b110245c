// The PC sampler's pure part: the sampling period that gives about the samples wanted.

#include "profiling/source/pc_sampler.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tclens::profiling {
namespace {

// Samples a kernel gives at `period`: one per 2^period cycles per sub-partition.
double samples_at(double ms, int sms, int clock_khz, int period) {
    return ms * 1e-3 * clock_khz * 1e3 * sms * 4 / std::ldexp(1.0, period);
}

TEST(PcSampler, ChoosesTheSmallestPeriodUnderTheTarget) {
    // The header's example: 1 ms on an H100 (132 SMs x 4, 1,980 MHz), 500,000 samples.
    EXPECT_EQ(choose_sampling_period(1.0, 132, 4, 1'980'000, 500'000), 12);
    for (const double ms : {0.02, 0.3, 2.0, 23.0, 400.0}) {
        const int period = choose_sampling_period(ms, 132, 4, 1'980'000, 500'000);
        EXPECT_LE(samples_at(ms, 132, 1'980'000, period), 500'000.0) << ms;
        if (period > 5) {
            EXPECT_GT(samples_at(ms, 132, 1'980'000, period - 1), 500'000.0) << ms;
        }
    }
}

TEST(PcSampler, StaysWithinCuptisRange) {
    EXPECT_EQ(choose_sampling_period(1e-6, 132, 4, 1'980'000, 500'000), 5);
    EXPECT_EQ(choose_sampling_period(1e12, 132, 4, 1'980'000, 1), 31);
    EXPECT_EQ(choose_sampling_period(0, 132, 4, 1'980'000, 500'000), 5);
    EXPECT_EQ(choose_sampling_period(1.0, 0, 4, 1'980'000, 500'000), 5);
    EXPECT_EQ(choose_sampling_period(1.0, 132, 4, 1'980'000, 0), 5);
}

}  // namespace
}  // namespace tclens::profiling
