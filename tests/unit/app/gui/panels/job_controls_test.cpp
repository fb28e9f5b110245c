// The job widget's status line and Run state as data (app/gui/panels/job_controls.h), for every
// state of a panel's job and of the machine, in the order job_line() documents.

#include "app/gui/panels/job_controls.h"

#include <gtest/gtest.h>

#include "profiling/device_info.h"

namespace tclens::gui {
namespace {

JobControls bench_controls() {
    JobControls controls;
    controls.gpu_use = "bench";
    return controls;
}

profiling::SystemReport with_gpu() {
    profiling::SystemReport system;
    system.devices.emplace_back();
    return system;
}

profiling::SystemReport without_gpu() {
    profiling::SystemReport system;
    system.no_gpu_reason = "CUDA driver not found";
    return system;
}

JobSnapshot job_in(JobState state) {
    JobSnapshot job;
    job.id = 3;
    job.title = "Bench kernels";
    job.state = state;
    return job;
}

TEST(JobControls, RunningJobShowsItsProgressInABarOrAsTextWhenOpenEnded) {
    JobSnapshot job = job_in(JobState::kRunning);
    job.fraction = 0.25f;
    job.message = "3/24 wmma.f16 4096x4096x4096";
    const auto gpu = with_gpu();
    JobLine line = job_line(bench_controls(), job, &gpu);
    EXPECT_EQ(line.text, "3/24 wmma.f16 4096x4096x4096");
    EXPECT_TRUE(line.progress_bar);
    EXPECT_FLOAT_EQ(line.fraction, 0.25f);
    EXPECT_EQ(line.tone, JobLineTone::kPlain);

    JobControls live = bench_controls();
    live.open_ended = true;
    job.message.clear();
    line = job_line(live, job, &gpu);
    EXPECT_EQ(line.text, "running");
    EXPECT_FALSE(line.progress_bar);
    EXPECT_FALSE(job_can_start(live, job, &gpu));
}

TEST(JobControls, QueuedJobSaysHowManyRunBeforeIt) {
    JobSnapshot job = job_in(JobState::kQueued);
    job.ahead = 1;
    const auto gpu = with_gpu();
    EXPECT_EQ(job_line(bench_controls(), job, &gpu).text, "queued behind 1 job");
    job.ahead = 3;
    const JobLine line = job_line(bench_controls(), job, &gpu);
    EXPECT_EQ(line.text, "queued behind 3 jobs");
    EXPECT_EQ(line.tone, JobLineTone::kDim);
    EXPECT_FALSE(job_can_start(bench_controls(), job, &gpu));
}

TEST(JobControls, WithoutAnActiveJobSaysWhyRunIsOff) {
    const JobSnapshot none;
    const JobLine querying = job_line(bench_controls(), none, nullptr);
    EXPECT_EQ(querying.text, "querying the GPU...");
    EXPECT_EQ(querying.tone, JobLineTone::kDim);
    EXPECT_FALSE(job_can_start(bench_controls(), none, nullptr));

    const auto no_gpu = without_gpu();
    const JobLine missing = job_line(bench_controls(), none, &no_gpu);
    EXPECT_EQ(missing.text, "no GPU: bench needs one");
    EXPECT_EQ(missing.tone, JobLineTone::kNote);
    EXPECT_EQ(missing.detail, "CUDA driver not found");
    EXPECT_FALSE(job_can_start(bench_controls(), none, &no_gpu));

    JobControls blocked = bench_controls();
    blocked.blocked = "fix the sizes first";
    const auto gpu = with_gpu();
    EXPECT_EQ(job_line(blocked, none, &gpu).text, "fix the sizes first");
    EXPECT_FALSE(job_can_start(blocked, none, &gpu));
    // No GPU outranks the panel's own reason: it is the one to fix first.
    EXPECT_EQ(job_line(blocked, none, &no_gpu).text, "no GPU: bench needs one");
}

TEST(JobControls, FailedJobShowsItsErrorAndRunIsOnAgain) {
    JobSnapshot job = job_in(JobState::kFailed);
    job.error = "Bench kernels: CUDA error: out of memory";
    const auto gpu = with_gpu();
    const JobLine line = job_line(bench_controls(), job, &gpu);
    EXPECT_EQ(line.text, "Bench kernels: CUDA error: out of memory");
    EXPECT_EQ(line.tone, JobLineTone::kError);
    EXPECT_TRUE(job_can_start(bench_controls(), job, &gpu));
}

TEST(JobControls, FinishedOrNeverRunJobLeavesTheLineEmpty) {
    const auto gpu = with_gpu();
    for (const JobState state : {JobState::kDone, JobState::kCancelled}) {
        EXPECT_EQ(job_line(bench_controls(), job_in(state), &gpu).text, "");
        EXPECT_TRUE(job_can_start(bench_controls(), job_in(state), &gpu));
    }
    EXPECT_EQ(job_line(bench_controls(), JobSnapshot{}, &gpu).text, "");
    EXPECT_TRUE(job_can_start(bench_controls(), JobSnapshot{}, &gpu));
}

}  // namespace
}  // namespace tclens::gui

namespace tclens::gui {
namespace {

// A kernel of yours runs on the worker's GPU (maybe over ssh): no GPU here, or no device query
// yet, does not turn Run off; a failure still shows.
TEST(JobControls, WorkerGpuJobsIgnoreThisProcesssGpu) {
    JobControls controls = bench_controls();
    controls.worker_gpu = true;
    const profiling::SystemReport none = without_gpu();
    EXPECT_TRUE(job_can_start(controls, JobSnapshot{}, &none));
    EXPECT_TRUE(job_can_start(controls, JobSnapshot{}, nullptr));
    EXPECT_EQ(job_line(controls, JobSnapshot{}, &none).text, "");
    EXPECT_EQ(job_line(controls, JobSnapshot{}, nullptr).text, "");
    JobSnapshot failed = job_in(JobState::kFailed);
    failed.error = "Build x.cu: the worker crashed";
    EXPECT_EQ(job_line(controls, failed, &none).text, failed.error);
    controls.blocked = "fix the sizes first";
    EXPECT_FALSE(job_can_start(controls, JobSnapshot{}, &none));
}

}  // namespace
}  // namespace tclens::gui
