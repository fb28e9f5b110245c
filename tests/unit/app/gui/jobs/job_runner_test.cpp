#include "app/gui/jobs/job_runner.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

namespace tclens::gui {
namespace {

using namespace std::chrono_literals;

// Spins until `done` or 10 s; keeps a broken runner from hanging the suite.
template <typename Predicate>
bool eventually(Predicate done) {
    for (int i = 0; i < 1000; ++i) {
        if (done()) return true;
        std::this_thread::sleep_for(10ms);
    }
    return false;
}

TEST(JobRunner, RunsJobsInPostOrderOffTheCallingThread) {
    JobRunner runner;
    std::vector<int> order;
    std::mutex order_mutex;
    const auto caller = std::this_thread::get_id();
    std::atomic<bool> ran_elsewhere{true};
    for (int i = 0; i < 5; ++i) {
        runner.post("job", [&, i](JobProgress&) {
            if (std::this_thread::get_id() == caller) ran_elsewhere = false;
            std::lock_guard lock(order_mutex);
            order.push_back(i);
        });
    }
    ASSERT_TRUE(runner.wait_idle(10s));
    EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4}));
    EXPECT_TRUE(ran_elsewhere);
    EXPECT_EQ(runner.status().finished, 5u);
}

TEST(JobRunner, StatusShowsProgressOfTheRunningJob) {
    JobRunner runner;
    std::atomic<bool> reported{false}, release{false};
    runner.post("Benchmark", [&](JobProgress& progress) {
        progress.report(0.25f, "size 1 of 4");
        reported = true;
        while (!release) std::this_thread::sleep_for(1ms);
    });
    runner.post("queued", [](JobProgress&) {});
    ASSERT_TRUE(eventually([&] { return reported.load(); }));
    const JobStatus status = runner.status();
    EXPECT_TRUE(status.busy);
    EXPECT_EQ(status.title, "Benchmark");
    EXPECT_FLOAT_EQ(status.fraction, 0.25f);
    EXPECT_EQ(status.message, "size 1 of 4");
    EXPECT_EQ(status.queued, 1u);
    release = true;
    ASSERT_TRUE(runner.wait_idle(10s));
    EXPECT_FALSE(runner.status().busy);
}

TEST(JobRunner, CancelStopsTheRunningJobOnly) {
    JobRunner runner;
    std::atomic<bool> started{false}, saw_cancel{false}, next_ran{false};
    runner.post("long", [&](JobProgress& progress) {
        started = true;
        while (!progress.cancelled()) std::this_thread::sleep_for(1ms);
        saw_cancel = true;
    });
    runner.post("next", [&](JobProgress& progress) { next_ran = !progress.cancelled(); });
    ASSERT_TRUE(eventually([&] { return started.load(); }));
    runner.cancel_current();
    ASSERT_TRUE(runner.wait_idle(10s));
    EXPECT_TRUE(saw_cancel);
    EXPECT_TRUE(next_ran);
}

TEST(JobRunner, CancelAllDropsQueuedJobs) {
    JobRunner runner;
    std::atomic<bool> started{false}, queued_ran{false};
    runner.post("long", [&](JobProgress& progress) {
        started = true;
        while (!progress.cancelled()) std::this_thread::sleep_for(1ms);
    });
    runner.post("dropped", [&](JobProgress&) { queued_ran = true; });
    ASSERT_TRUE(eventually([&] { return started.load(); }));
    runner.cancel_all();
    ASSERT_TRUE(runner.wait_idle(10s));
    EXPECT_FALSE(queued_ran);
    EXPECT_EQ(runner.status().finished, 2u);
}

TEST(JobRunner, ThrowingJobBecomesAnErrorAndTheRunnerGoesOn) {
    JobRunner runner;
    std::atomic<bool> after{false};
    runner.post("Profile", [](JobProgress&) { throw std::runtime_error("CUPTI busy"); });
    runner.post("after", [&](JobProgress&) { after = true; });
    ASSERT_TRUE(runner.wait_idle(10s));
    EXPECT_EQ(runner.status().last_error, "Profile: CUPTI busy");
    EXPECT_TRUE(after);
}

TEST(JobRunner, DestructorCancelsARunningJobInsteadOfHanging) {
    std::atomic<bool> started{false}, saw_cancel{false};
    {
        JobRunner runner;
        runner.post("endless", [&](JobProgress& progress) {
            started = true;
            while (!progress.cancelled()) std::this_thread::sleep_for(1ms);
            saw_cancel = true;
        });
        ASSERT_TRUE(eventually([&] { return started.load(); }));
    }
    EXPECT_TRUE(saw_cancel);
}

TEST(JobRunner, ProgressIsClamped) {
    JobRunner runner;
    std::atomic<bool> reported{false}, release{false};
    runner.post("clamp", [&](JobProgress& progress) {
        progress.report(7.0f, "");
        reported = true;
        while (!release) std::this_thread::sleep_for(1ms);
    });
    ASSERT_TRUE(eventually([&] { return reported.load(); }));
    EXPECT_FLOAT_EQ(runner.status().fraction, 1.0f);
    release = true;
}

}  // namespace
}  // namespace tclens::gui
