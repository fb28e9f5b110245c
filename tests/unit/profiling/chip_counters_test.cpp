// Tests for profiling/chip_counters.*, the set-up the range profiler and the PM sampler share.
// An injected CUPTI fault (kernels/fault_injection.h) makes open() fail at its first step on any
// machine, GPU or not, so what is kept and what every metric check then says is the same here
// and on the H100.
#include "profiling/chip_counters.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "profiling/fault_injection.h"

namespace tclens::profiling::detail {
namespace {

class ChipCountersWithAFault : public ::testing::Test {
  protected:
    void SetUp() override {
        setenv(kernels::kFaultVariable, kernels::fault_name(kernels::Fault::kCuptiBusy), 1);
    }
    void TearDown() override { unsetenv(kernels::kFaultVariable); }
    const ProfilerError busy = cupti_fault_error(kernels::Fault::kCuptiBusy);
};

TEST_F(ChipCountersWithAFault, OpenFailsAtItsFirstStepAndKeepsThatAnswer) {
    ChipCounters counters(CUPTI_PROFILER_TYPE_RANGE_PROFILER, 0, "is not available on");
    int own_steps = 0;
    const auto steps = [&own_steps] {
        ++own_steps;
        return ProfilerError{};
    };
    int explained = 0;
    const auto explain = [&explained](ProfilerError error) {
        ++explained;
        error.message = "explained: " + error.message;
        return error;
    };
    const ProfilerError first = counters.open(steps, explain);
    EXPECT_EQ(first.problem, busy.problem);
    EXPECT_EQ(first.message, "explained: " + busy.message);
    EXPECT_FALSE(counters.opened());
    EXPECT_EQ(own_steps, 0);  // CUDA never started, so the profiler's own steps never ran

    unsetenv(kernels::kFaultVariable);  // the kept answer stands: no second attempt
    EXPECT_EQ(counters.open(steps, explain).message, first.message);
    EXPECT_EQ(own_steps, 0);
    EXPECT_EQ(explained, 1);
}

TEST_F(ChipCountersWithAFault, EveryMetricCheckCarriesTheOpenError) {
    ChipCounters counters(CUPTI_PROFILER_TYPE_PM_SAMPLING, 0, "cannot be PM-sampled on");
    const ProfilerError opened = counters.open([] { return ProfilerError{}; });
    const std::vector<MetricCheck> checks =
        counters.check_metrics(opened, {"dram__bytes_read.sum", "gpu__time_duration.sum"});
    ASSERT_EQ(checks.size(), 2u);
    for (const MetricCheck& check : checks) {
        EXPECT_FALSE(check.accepted);
        EXPECT_EQ(check.reason, busy.message);
    }
    EXPECT_EQ(checks[1].name, "gpu__time_duration.sum");
    EXPECT_EQ(ChipCounters::rejected_names(checks), "dram__bytes_read.sum, gpu__time_duration.sum");
}

TEST(ChipCounters, RejectedNamesListsOnlyTheRejected) {
    std::vector<MetricCheck> checks(3);
    checks[0] = {"a", true, ""};
    checks[1] = {"b", false, "no"};
    checks[2] = {"c", false, "no"};
    EXPECT_EQ(ChipCounters::rejected_names(checks), "b, c");
    checks[1].accepted = checks[2].accepted = true;
    EXPECT_EQ(ChipCounters::rejected_names(checks), "");
}

}  // namespace
}  // namespace tclens::profiling::detail
