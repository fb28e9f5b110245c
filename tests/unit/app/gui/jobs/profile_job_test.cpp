// Tests for app/gui/jobs/profile_job.*: the job always publishes a final LiveProfile and never
// throws into the job runner. A request that cannot run says why in one line; without a GPU the
// profiler's reason comes back; with one, a few live updates arrive and Stop ends the loop. On a
// GPU only an error the machine causes (no counter permission, counters busy) skips; any other
// error fails (tests/support/gpu_verdict.h).
#include "app/gui/jobs/profile_job.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "app/gui/jobs/app_context.h"
#include "profiling/device_info.h"
#include "profiling/fault_injection.h"
#include "tests/support/gpu_verdict.h"
#include "tests/support/scoped_fault.h"

namespace tclens::gui {
namespace {

ProfileRequest small_request(ProfileMode mode = ProfileMode::kMetrics) {
    ProfileRequest request;
    request.mode = mode;
    request.kernel_ids = {"wmma.f16"};
    request.problem = {256, 256, 256};
    request.max_updates = 3;
    request.timeline_ms = 50;
    return request;
}

std::shared_ptr<const LiveProfile> run_to_end(AppContext& context, const ProfileRequest& request) {
    const JobHandle job = request_live_profile(context, request, nullptr);
    EXPECT_TRUE(context.jobs.wait_idle(std::chrono::seconds(120)));
    EXPECT_EQ(job.snapshot().state, JobState::kDone);
    EXPECT_EQ(context.jobs.status().last_error, "");
    return context.live_profile.latest();
}

TEST(PushCapped, KeepsTheNewestValues) {
    std::vector<double> values;
    for (int i = 1; i <= 5; ++i) push_capped(values, i, 3);
    EXPECT_EQ(values, (std::vector<double>{3, 4, 5}));
    push_capped(values, 6, 0);
    EXPECT_TRUE(values.empty());
}

TEST(ProfileJob, WithoutAGpuBothModesPublishTheReasonAndStop) {
    if (profiling::query_system().has_gpu()) GTEST_SKIP() << "skipped: this machine has a GPU";
    for (const ProfileMode mode : {ProfileMode::kMetrics, ProfileMode::kTimeline}) {
        AppContext context;
        const auto published = run_to_end(context, small_request(mode));
        ASSERT_TRUE(published);
        EXPECT_FALSE(published->running);
        EXPECT_FALSE(published->error.empty());
        EXPECT_EQ(published->problem, profiling::ProfilerProblem::kNoGpu) << published->error;
        EXPECT_EQ(published->error.find('\n'), std::string::npos) << published->error;
        EXPECT_EQ(published->updates, 0u);
        EXPECT_FALSE(published->has_profile());
        EXPECT_TRUE(published->timeline_history.empty());
    }
}

TEST(ProfileJob, BadRequestsAreOneLineErrorsBeforeAnyGpuWork) {
    AppContext context;
    ProfileRequest request = small_request();
    request.kernel_ids = {"wmma.f16", "fastest"};
    auto published = run_to_end(context, request);
    ASSERT_TRUE(published);
    EXPECT_EQ(published->error, "unknown kernel 'fastest'");
    EXPECT_EQ(published->problem, profiling::ProfilerProblem::kInvalidRequest);
    EXPECT_FALSE(published->running);

    request.kernel_ids.clear();
    published = run_to_end(context, request);
    ASSERT_TRUE(published);
    EXPECT_EQ(published->error, "no kernel chosen");

    request = small_request();
    request.metric_set = "everything";
    published = run_to_end(context, request);
    ASSERT_TRUE(published);
    EXPECT_NE(published->error.find("'everything'"), std::string::npos) << published->error;
    EXPECT_EQ(published->error.find('\n'), std::string::npos);

    request = small_request();
    request.problem = {0, 256, 256};
    published = run_to_end(context, request);
    ASSERT_TRUE(published);
    EXPECT_NE(published->error.find(">= 1"), std::string::npos) << published->error;
}

TEST(ProfileJob, WithAGpuLiveUpdatesArriveAndStopEndsTheLoop) {
    if (!profiling::query_system().has_gpu()) GTEST_SKIP() << "skipped: no GPU";
    AppContext context;
    ProfileRequest request = small_request();
    request.max_updates = 0;  // until stopped
    const JobHandle job = request_live_profile(context, request, nullptr);
    const auto started = std::chrono::steady_clock::now();
    std::shared_ptr<const LiveProfile> live;
    while (std::chrono::steady_clock::now() - started < std::chrono::seconds(60)) {
        live = context.live_profile.latest();
        if (live && (live->updates >= 3 || !live->error.empty())) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    job.cancel();
    ASSERT_TRUE(context.jobs.wait_idle(std::chrono::seconds(30)));
    EXPECT_EQ(job.snapshot().state, JobState::kCancelled);
    live = context.live_profile.latest();
    ASSERT_TRUE(live);
    EXPECT_FALSE(live->running);
    TCLENS_APPLY_VERDICT(test::judge_profiler_error({live->problem, live->error}));
    EXPECT_EQ(live->error, "");
    EXPECT_GE(live->updates, 3u);
    ASSERT_EQ(live->kernels.size(), 1u);
    ASSERT_TRUE(live->kernels[0].latest);
    EXPECT_EQ(live->kernels[0].history.size(), live->kernels[0].latest->metrics.size());
}

TEST(ProfileJob, WithoutAGpuSeveralKernelsSayTheOneReasonOnce) {
    if (profiling::query_system().has_gpu()) GTEST_SKIP() << "skipped: this machine has a GPU";
    AppContext context;
    ProfileRequest request = small_request();
    request.kernel_ids = {"wmma.f16", "mma_cp_async.bf16", "cublas.bf16"};
    const auto published = run_to_end(context, request);
    ASSERT_TRUE(published);
    ASSERT_EQ(published->kernels.size(), 3u);
    EXPECT_FALSE(published->kernels[2].error.empty());
    EXPECT_EQ(published->error, published->kernels[0].error);  // not "none of the chosen ..."
    EXPECT_EQ(published->error.find('\n'), std::string::npos);
}

// Several kernels are profiled in turn, each getting its own updates and history; a kernel that
// cannot run the size has its own error while the others go on.
TEST(ProfileJob, WithAGpuSeveralKernelsTakeTurnsAndOneThatCannotRunSaysWhy) {
    if (!profiling::query_system().has_gpu()) GTEST_SKIP() << "skipped: no GPU";
    AppContext context;
    ProfileRequest request = small_request();
    request.kernel_ids = {"naive_fma.f32", "wmma.f16", "cublas.bf16"};
    request.max_updates = 9;
    const auto live = run_to_end(context, request);
    ASSERT_TRUE(live);
    TCLENS_APPLY_VERDICT(test::judge_profiler_error({live->problem, live->error}));
    EXPECT_EQ(live->error, "");
    ASSERT_EQ(live->kernels.size(), 3u);
    EXPECT_EQ(live->updates, 9u);
    for (const KernelLive& kernel : live->kernels) {
        SCOPED_TRACE(kernel.kernel_id);
        EXPECT_EQ(kernel.error, "");
        EXPECT_EQ(kernel.updates, 3u);  // in turn: 3 rounds of 3
        ASSERT_TRUE(kernel.latest);
        EXPECT_EQ(kernel.latest->kernel_id, kernel.kernel_id);
        ASSERT_FALSE(kernel.history.empty());
        EXPECT_EQ(kernel.history[0].size(), 3u);
    }

    request.kernel_ids = {"wgmma_tma.bf16", "naive_fma.f32"};
    request.problem = {100, 100, 100};
    request.max_updates = 2;
    const auto partly = run_to_end(context, request);
    ASSERT_TRUE(partly);
    EXPECT_EQ(partly->error, "");
    // wgmma_tma.bf16 refuses K = 100 (TMA needs 16-byte row strides; Hopper only in any case).
    EXPECT_EQ(partly->kernels[0].problem, profiling::ProfilerProblem::kInvalidRequest);
    EXPECT_EQ(partly->kernels[0].error.rfind("wgmma_tma.bf16 cannot run 100x100x100 here: ", 0), 0u)
        << partly->kernels[0].error;
    EXPECT_EQ(partly->kernels[1].error, "");
    EXPECT_EQ(partly->kernels[1].updates, 2u);
}

// Under TCLENS_INJECT_FAULT each CUPTI failure ends up as the one-line error the panel draws,
// published like any result, in both modes; the job never throws into the runner.
TEST(ProfileJob, InjectedCuptiFaultIsPublishedInBothModes) {
    using kernels::Fault;
    for (const Fault fault :
         {Fault::kCuptiUnavailable, Fault::kCuptiPermission, Fault::kCuptiBusy}) {
        const test::ScopedFault injected(fault);
        for (const ProfileMode mode : {ProfileMode::kMetrics, ProfileMode::kTimeline}) {
            SCOPED_TRACE(kernels::fault_name(fault));
            AppContext context;
            ProfileRequest request = small_request(mode);
            request.kernel_ids = {"wmma.f16", "mma_cp_async.bf16"};
            const auto published = run_to_end(context, request);
            ASSERT_TRUE(published);
            EXPECT_EQ(published->error, profiling::cupti_fault_error(fault).message);
            EXPECT_EQ(published->problem, profiling::cupti_fault_error(fault).problem);
            EXPECT_EQ(published->error.find('\n'), std::string::npos);
            EXPECT_FALSE(published->running);
            EXPECT_EQ(published->updates, 0u);
            EXPECT_FALSE(published->has_profile());
        }
    }
}

TEST(ProfileJob, InjectedNoGpuSaysSo) {
    const test::ScopedFault injected(kernels::Fault::kNoGpu);
    AppContext context;
    const auto published = run_to_end(context, small_request());
    ASSERT_TRUE(published);
    EXPECT_NE(published->error.find("TCLENS_INJECT_FAULT=no-gpu"), std::string::npos)
        << published->error;
    EXPECT_EQ(published->problem, profiling::ProfilerProblem::kNoGpu);
    EXPECT_FALSE(published->running);
}

}  // namespace
}  // namespace tclens::gui
