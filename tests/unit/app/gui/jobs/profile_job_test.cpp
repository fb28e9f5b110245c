// Tests for app/gui/jobs/profile_job.*: the job always publishes a final LiveProfile and never
// throws into the job runner; every profile comes from the GUI's worker (its live_profile
// stream). A request that cannot run says why in one line; without a GPU the worker's reason comes
// back; the scripted worker's updates (values no GPU gives) reach the published LiveProfile, and
// Stop and Pause end its stream with the protocol's stop; with a GPU, a few live updates arrive
// and Stop ends the loop. On a GPU only an error the machine causes (no counter permission,
// counters busy) skips; any other error fails (tests/support/gpu_verdict.h).
#include "app/gui/jobs/profile_job.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "app/gui/jobs/app_context.h"
#include "profiling/device_query.h"
#include "profiling/fault_injection.h"
#include "tests/support/gpu_verdict.h"
#include "tests/support/scoped_fault.h"
#include "tests/support/scripted_gpu.h"
#include "tests/support/worker_contexts.h"

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
        test::WorkerContext context;
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
    test::WorkerContext context;
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

// The scripted worker's context: its hello names kScriptedGpu and its live_profile streams three
// profiles of kScriptedLiveValue, then waits for the client's stop (`more`: further variables).
struct ScriptedLive : test::ScriptedWorkerContext {
    explicit ScriptedLive(const std::string& more = "")
        : test::ScriptedWorkerContext(
              "SCRIPTED_SYSTEM=" +
              test::write_canned("live_system.json",
                                 profiling::to_json(test::scripted_gpu_system()).dump()) +
              " SCRIPTED_LIVE_UPDATE=" +
              test::write_canned("live_update.json",
                                 test::scripted_live_update(small_request().problem)) +
              " " + more) {}
};

// Waits until `context` published a LiveProfile for which `done` holds (at most 10 s).
template <typename Done>
std::shared_ptr<const LiveProfile> wait_for(AppContext& context, Done done) {
    const auto started = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - started < std::chrono::seconds(10)) {
        const auto live = context.live_profile.latest();
        if (live && done(*live)) return live;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return context.live_profile.latest();
}

TEST(ProfileJob, TheWorkersUpdatesArriveAndStopEndsItsStream) {
    ScriptedLive context;
    ProfileRequest request = small_request();
    request.kernel_ids = {"mma_cp_async.bf16"};
    request.max_updates = 0;  // until stopped
    const JobHandle job = request_live_profile(context, request, nullptr);
    auto live = wait_for(context, [](const LiveProfile& l) { return l.updates >= 3; });
    ASSERT_TRUE(live);
    EXPECT_EQ(live->error, "");
    EXPECT_TRUE(live->running);
    EXPECT_EQ(live->device, test::kScriptedGpu);
    ASSERT_EQ(live->kernels.size(), 1u);
    const KernelLive& kernel = live->kernels[0];
    EXPECT_EQ(kernel.updates, 3u);
    ASSERT_TRUE(kernel.latest);
    ASSERT_EQ(kernel.latest->metrics.size(), 1u);
    EXPECT_DOUBLE_EQ(kernel.latest->metrics[0].value, test::kScriptedLiveValue);
    ASSERT_EQ(kernel.history.size(), 1u);
    EXPECT_EQ(kernel.history[0], std::vector<double>(3, test::kScriptedLiveValue));
    EXPECT_TRUE(live->running);  // the scripted stream goes on until it is stopped

    job.cancel();  // Stop
    ASSERT_TRUE(context.jobs.wait_idle(std::chrono::seconds(10)));
    live = context.live_profile.latest();
    EXPECT_FALSE(live->running);
    EXPECT_EQ(live->error, "");
    EXPECT_EQ(live->updates, 3u);
    // Stop went to the worker as the protocol's stop, which the worker answered: it lives on.
    EXPECT_EQ(context.requests(), "hello\nlive_profile\nstop\n");
    EXPECT_EQ(context.worker->starts(), 1);
}

TEST(ProfileJob, PauseStopsTheStreamAndResumeAsksAgain) {
    ScriptedLive context;
    ProfileRequest request = small_request();
    request.kernel_ids = {"mma_cp_async.bf16"};
    request.max_updates = 0;
    const auto control = std::make_shared<LiveControl>();
    const JobHandle job = request_live_profile(context, request, control);
    ASSERT_EQ(wait_for(context, [](const LiveProfile& l) { return l.updates >= 3; })->updates, 3u);
    control->paused = true;
    const auto paused = wait_for(context, [](const LiveProfile& l) { return l.paused; });
    EXPECT_TRUE(paused->paused);
    EXPECT_EQ(context.requests(), "hello\nlive_profile\nstop\n");
    control->paused = false;  // Resume: a new request, its kernels verified again
    const auto resumed = wait_for(context, [](const LiveProfile& l) { return l.updates >= 6; });
    EXPECT_EQ(resumed->updates, 6u);
    EXPECT_EQ(resumed->kernels[0].updates, 6u);
    EXPECT_EQ(resumed->kernels[0].history[0].size(), 6u);  // the history goes on
    job.cancel();
    ASSERT_TRUE(context.jobs.wait_idle(std::chrono::seconds(10)));
    EXPECT_EQ(context.requests(), "hello\nlive_profile\nstop\nlive_profile\nstop\n");
    EXPECT_EQ(context.live_profile.latest()->error, "");
}

TEST(ProfileJob, AWorkerThatDiesMidStreamIsOneLine) {
    ScriptedLive context("SCRIPTED_WORKER=crash");
    ProfileRequest request = small_request();
    request.kernel_ids = {"mma_cp_async.bf16"};
    request.max_updates = 0;
    request_live_profile(context, request, nullptr);
    ASSERT_TRUE(context.jobs.wait_idle(std::chrono::seconds(10)));
    const auto live = context.live_profile.latest();
    ASSERT_TRUE(live);
    EXPECT_FALSE(live->running);
    EXPECT_EQ(live->updates, 3u);  // what came before the crash stays
    EXPECT_NE(live->error.find("the worker died during the live_profile request"),
              std::string::npos)
        << live->error;
    EXPECT_NE(live->error.find("a fresh worker starts at the next run"), std::string::npos);
    EXPECT_EQ(live->error.find('\n'), std::string::npos);
}

TEST(ProfileJob, WithAGpuLiveUpdatesArriveAndStopEndsTheLoop) {
    if (!profiling::query_system().has_gpu()) GTEST_SKIP() << "skipped: no GPU";
    test::WorkerContext context;
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
    test::WorkerContext context;
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
    test::WorkerContext context;
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
    EXPECT_EQ(partly->kernels[0].error.rfind("wgmma_tma.bf16 cannot run 100x100x100: ", 0), 0u)
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
            test::WorkerContext context;
            ProfileRequest request = small_request(mode);
            request.kernel_ids = {"wmma.f16", "mma_cp_async.bf16"};
            const auto published = run_to_end(context, request);
            ASSERT_TRUE(published);
            // The worker's error kind (needs_resource) says the machine lacks something; which
            // thing, its message says.
            EXPECT_NE(published->error.find(profiling::cupti_fault_error(fault).message),
                      std::string::npos)
                << published->error;
            EXPECT_TRUE(profiling::profiler_error(published->problem, "x").needs_resource())
                << published->error;
            EXPECT_EQ(published->error.find('\n'), std::string::npos);
            EXPECT_FALSE(published->running);
            EXPECT_EQ(published->updates, 0u);
            EXPECT_FALSE(published->has_profile());
        }
    }
}

TEST(ProfileJob, InjectedNoGpuSaysSo) {
    const test::ScopedFault injected(kernels::Fault::kNoGpu);
    test::WorkerContext context;
    const auto published = run_to_end(context, small_request());
    ASSERT_TRUE(published);
    EXPECT_NE(published->error.find("TCLENS_INJECT_FAULT=no-gpu"), std::string::npos)
        << published->error;
    EXPECT_EQ(published->problem, profiling::ProfilerProblem::kNoGpu);
    EXPECT_FALSE(published->running);
}

}  // namespace
}  // namespace tclens::gui
