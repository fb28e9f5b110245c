// Tests for profiling/open_once.h: the steps run until they succeed once; a failure is kept,
// returned again without running them, and undone once.

#include "profiling/open_once.h"

#include <gtest/gtest.h>

namespace tclens::profiling::detail {
namespace {

TEST(OpenOnce, RunsTheStepsOnceAfterASuccessAndAgainAfterClosed) {
    OpenOnce once;
    int runs = 0;
    const auto steps = [&] {
        ++runs;
        return ProfilerError{};
    };
    EXPECT_TRUE(once.open(steps).ok());
    EXPECT_TRUE(once.open(steps).ok());
    EXPECT_TRUE(once.opened());
    EXPECT_EQ(runs, 1);
    once.closed();
    EXPECT_FALSE(once.opened());
    EXPECT_TRUE(once.open(steps).ok());
    EXPECT_EQ(runs, 2);
}

TEST(OpenOnce, KeepsTheFirstFailureAndUndoesItOnce) {
    OpenOnce once;
    int runs = 0;
    int undone = 0;
    const auto steps = [&] {
        ++runs;
        return profiler_error(ProfilerProblem::kBusy, "counters busy");
    };
    const auto undo = [&] { ++undone; };
    EXPECT_EQ(once.open(steps, undo).message, "counters busy");
    const ProfilerError again = once.open(steps, undo);
    EXPECT_EQ(again.problem, ProfilerProblem::kBusy);
    EXPECT_EQ(again.message, "counters busy");
    EXPECT_FALSE(once.opened());
    EXPECT_EQ(runs, 1);
    EXPECT_EQ(undone, 1);
}

}  // namespace
}  // namespace tclens::profiling::detail
