// Tests for app/gui/jobs/trace_job.*: the Timeline panel's trace of a rung is a `trace` request to
// the worker. The scripted worker's canned trace (a kernel time of 4242 ms, no run of a 128^2
// tile takes that) is what the panel gets, so nothing was traced in this process; a worker that
// dies is one line, and the traces taken before are kept.

#include "app/gui/jobs/trace_job.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "app/gui/jobs/app_context.h"
#include "profiling/device_query.h"
#include "tests/support/scripted_gpu.h"
#include "tests/support/worker_contexts.h"

namespace tclens::gui {
namespace {

constexpr const char* kRung = "mma_cp_async.bf16";

std::shared_ptr<const LiveTraces> trace(AppContext& context) {
    request_traces(context, {kRung}, {128, 128, 64}, 2);
    EXPECT_TRUE(context.jobs.wait_idle(std::chrono::seconds(60)));
    EXPECT_EQ(context.jobs.status().last_error, "");
    return context.live_traces.latest();
}

TEST(TraceJob, ARungsTraceIsARequestToTheWorkerAndItsAnswerIsPublished) {
    const std::string answer =
        test::write_canned("gui_job_trace.json", test::scripted_trace_answer());
    test::ScriptedWorkerContext context("SCRIPTED_TRACE=" + answer);
    const auto published = trace(context);
    ASSERT_TRUE(published);
    EXPECT_EQ(published->error, "");
    const viz::WarpTrace* traced = find_trace(published->traces, kRung);
    ASSERT_NE(traced, nullptr);
    EXPECT_EQ(traced->kernel_ms, 4242.0);
    EXPECT_EQ(traced->blocks_traced, 2);
    EXPECT_EQ(context.requests(), "hello\ntrace\n");
}

TEST(TraceJob, AWorkerThatDiesIsOneLineAndTheTracesTakenBeforeStay) {
    test::ScriptedWorkerContext context("SCRIPTED_WORKER=crash");
    auto before = std::make_shared<LiveTraces>();
    before->traces.emplace_back();
    before->traces.back().kernel = "wgmma_tma.f16";
    context.live_traces.publish(before);
    const auto published = trace(context);
    ASSERT_TRUE(published);
    EXPECT_EQ(published->error.rfind(std::string(kRung) + ": ", 0), 0u) << published->error;
    EXPECT_NE(published->error.find("died during the trace request"), std::string::npos)
        << published->error;
    EXPECT_EQ(published->error.find('\n'), std::string::npos) << published->error;
    ASSERT_EQ(published->traces.size(), 1u);
    EXPECT_EQ(published->traces[0].kernel, "wgmma_tma.f16");
}

// Cancel while the worker works (a scripted one that never answers): the job ends within a second,
// not at the worker's time limit, and publishes nothing.
TEST(TraceJob, CancelStopsTheWorkerAndPublishesNothing) {
    test::ScriptedWorkerContext context("SCRIPTED_WORKER=hang");
    context.worker_options.time_limit_s = 60;
    request_traces(context, {kRung}, {128, 128, 64}, 2);
    const auto started = std::chrono::steady_clock::now();
    while (context.requests().find("trace") == std::string::npos &&
           std::chrono::steady_clock::now() - started < std::chrono::seconds(30)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_EQ(context.requests(), "hello\ntrace\n");
    const auto cancelled_at = std::chrono::steady_clock::now();
    context.jobs.cancel_current();
    ASSERT_TRUE(context.jobs.wait_idle(std::chrono::seconds(30)));
    EXPECT_LT(std::chrono::steady_clock::now() - cancelled_at, std::chrono::seconds(2));
    EXPECT_FALSE(context.live_traces.latest());
}

// The real worker: without a GPU its refusal is the panel's one line; with one, rung 8's first
// block is traced.
TEST(TraceJob, TheRealWorkerTracesOrSaysWhyNotInOneLine) {
    test::WorkerContext context;
    request_traces(context, {kRung}, {128, 128, 64}, 1);
    ASSERT_TRUE(context.jobs.wait_idle(std::chrono::seconds(120)));
    const auto published = context.live_traces.latest();
    ASSERT_TRUE(published);
    if (!profiling::query_system().has_gpu()) {
        EXPECT_NE(published->error.find("needs an NVIDIA GPU"), std::string::npos)
            << published->error;
        EXPECT_EQ(published->error.find('\n'), std::string::npos) << published->error;
        EXPECT_TRUE(published->traces.empty());
        return;
    }
    EXPECT_EQ(published->error, "");
    ASSERT_NE(find_trace(published->traces, kRung), nullptr);
    EXPECT_EQ(find_trace(published->traces, kRung)->blocks_traced, 1);
}

}  // namespace
}  // namespace tclens::gui
