#include "app/gui/jobs/job_runner.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
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

// A job that runs until `release` (or a cancel), reporting once that it started.
JobRunner::Work blocker(std::atomic<bool>& started, std::atomic<bool>& release) {
    return [&started, &release](JobProgress& progress) {
        progress.report(0.5f, "half way");
        started = true;
        while (!release && !progress.cancelled()) std::this_thread::sleep_for(1ms);
    };
}

TEST(JobHandle, FollowsItsJobFromQueuedThroughRunningToDone) {
    JobRunner runner;
    std::atomic<bool> started{false}, release{false};
    const JobHandle first = runner.post("first", blocker(started, release));
    const JobHandle second = runner.post("second", [](JobProgress&) {});
    const JobHandle third = runner.post("third", [](JobProgress&) {});
    ASSERT_TRUE(eventually([&] { return started.load(); }));
    const JobSnapshot running = first.snapshot();
    EXPECT_EQ(running.state, JobState::kRunning);
    EXPECT_EQ(running.title, "first");
    EXPECT_FLOAT_EQ(running.fraction, 0.5f);
    EXPECT_EQ(running.message, "half way");
    EXPECT_TRUE(running.active());
    EXPECT_EQ(second.snapshot().state, JobState::kQueued);
    EXPECT_EQ(second.snapshot().ahead, 1u);  // the running one
    EXPECT_EQ(third.snapshot().ahead, 2u);
    EXPECT_LT(first.snapshot().id, second.snapshot().id);
    release = true;
    ASSERT_TRUE(runner.wait_idle(10s));
    for (const JobHandle* job : {&first, &second, &third}) {
        EXPECT_EQ(job->snapshot().state, JobState::kDone);
        EXPECT_FALSE(job->snapshot().active());
    }
}

TEST(JobHandle, CancelOfAQueuedJobDropsItAtOnceAndTheQueueMovesUp) {
    JobRunner runner;
    std::atomic<bool> started{false}, release{false}, dropped_ran{false}, last_ran{false};
    const JobHandle first = runner.post("first", blocker(started, release));
    const JobHandle dropped = runner.post("dropped", [&](JobProgress&) { dropped_ran = true; });
    const JobHandle last = runner.post("last", [&](JobProgress&) { last_ran = true; });
    ASSERT_TRUE(eventually([&] { return started.load(); }));
    EXPECT_EQ(last.snapshot().ahead, 2u);
    dropped.cancel();
    EXPECT_EQ(dropped.snapshot().state, JobState::kCancelled);  // at once, not when reached
    EXPECT_EQ(last.snapshot().ahead, 1u);
    EXPECT_EQ(runner.status().queued, 1u);
    EXPECT_EQ(first.snapshot().state, JobState::kRunning);  // the others go on
    release = true;
    ASSERT_TRUE(runner.wait_idle(10s));
    EXPECT_FALSE(dropped_ran);
    EXPECT_TRUE(last_ran);
    EXPECT_EQ(dropped.snapshot().state, JobState::kCancelled);
    EXPECT_EQ(runner.status().finished, 3u);
}

TEST(JobHandle, CancelOfTheRunningJobEndsItCancelledAndTheNextRuns) {
    JobRunner runner;
    std::atomic<bool> started{false}, never{false};
    const JobHandle running = runner.post("running", blocker(started, never));
    const JobHandle next = runner.post("next", [](JobProgress& progress) {
        EXPECT_FALSE(progress.cancelled());  // a cancel is its job's alone
    });
    ASSERT_TRUE(eventually([&] { return started.load(); }));
    running.cancel();
    ASSERT_TRUE(runner.wait_idle(10s));
    EXPECT_EQ(running.snapshot().state, JobState::kCancelled);
    EXPECT_EQ(next.snapshot().state, JobState::kDone);
    running.cancel();  // finished: nothing happens
    EXPECT_EQ(running.snapshot().state, JobState::kCancelled);
}

TEST(JobHandle, ThrowingJobFailsWithItsError) {
    JobRunner runner;
    const JobHandle job =
        runner.post("Profile", [](JobProgress&) { throw std::runtime_error("CUPTI busy"); });
    ASSERT_TRUE(runner.wait_idle(10s));
    EXPECT_EQ(job.snapshot().state, JobState::kFailed);
    EXPECT_EQ(job.snapshot().error, "Profile: CUPTI busy");
}

TEST(JobHandle, OutlivesItsJobAndTheRunner) {
    JobHandle done, never_ran;
    auto captured = std::make_shared<int>(7);
    std::atomic<bool> started{false}, release{false};
    {
        JobRunner runner;
        done = runner.post("done", [captured](JobProgress&) {});
        ASSERT_TRUE(runner.wait_idle(10s));
        // The job's captures go with the job, not with its handle.
        EXPECT_EQ(captured.use_count(), 1);
        runner.post("endless", blocker(started, release));
        never_ran = runner.post("never", [captured](JobProgress&) {});
        ASSERT_TRUE(eventually([&] { return started.load(); }));
    }  // the runner cancels the running job and the queued one
    EXPECT_EQ(captured.use_count(), 1);
    EXPECT_EQ(done.snapshot().state, JobState::kDone);
    EXPECT_EQ(done.snapshot().title, "done");
    EXPECT_EQ(never_ran.snapshot().state, JobState::kCancelled);
    never_ran.cancel();  // harmless without a runner
    EXPECT_EQ(never_ran.snapshot().state, JobState::kCancelled);
}

TEST(JobHandle, DefaultHandleHoldsNoJob) {
    const JobHandle none;
    EXPECT_FALSE(none);
    EXPECT_EQ(none.snapshot().id, 0u);
    EXPECT_FALSE(none.snapshot().active());
    none.cancel();
}

}  // namespace
}  // namespace tclens::gui
