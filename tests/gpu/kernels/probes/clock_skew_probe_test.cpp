// GPU test of kernels/probes/clock_skew_probe.*: one block ran on every SM, and the spread of
// the SMs' %globaltimer readings of one instant (the flag's setting) is finite and below 5 us
// in every round: the bound asked for on the traces' common time base. The numbers are
// printed, and with TCLENS_RESULTS_DIR set appended to $TCLENS_RESULTS_DIR/clock_skew.md.
#include "kernels/probes/clock_skew_probe.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "tests/gpu/gpu_test_support.h"

namespace tclens::kernels {
namespace {

TEST(ClockSkewProbe, EverySmSeesTheFlagWithinFiveMicrosecondsOnTheGlobalTimer) {
    TCLENS_REQUIRE_GPU();
    const profiling::DeviceFacts device = profiling::query_system().devices.at(0);
    ClockSkewSummary s;
    ASSERT_EQ(measure_clock_skew(101, s), "");
    std::printf("%s: %s\n", device.name.c_str(), clock_skew_text(s).c_str());
    EXPECT_EQ(s.rounds, 101);
    EXPECT_EQ(s.blocks, device.sm_count);
    EXPECT_EQ(s.distinct_sms, device.sm_count) << "one block per SM";
    EXPECT_GE(s.min_spread_ns, 0);
    EXPECT_LE(s.min_spread_ns, s.median_spread_ns);
    EXPECT_LE(s.median_spread_ns, s.max_spread_ns);
    EXPECT_LT(s.max_spread_ns, 5000);
    EXPECT_GT(s.tick_ns, 0) << "the timer moved";
    if (const char* folder = std::getenv("TCLENS_RESULTS_DIR"); folder != nullptr && *folder) {
        std::ofstream(std::string(folder) + "/clock_skew.md", std::ios::app)
            << "| " << device.name << " | " << clock_skew_text(s) << " |\n";
    }
}

}  // namespace
}  // namespace tclens::kernels
