// Tests for app/gui/jobs/trace_job.*: the Timeline panel's trace of a rung is a `trace` request to
// the worker. The scripted worker's canned trace (a kernel time of 4242 ms, no run of a 128^2
// tile takes that) is what the panel gets, so nothing was traced in this process; a worker that
// dies is one line, and the traces taken before are kept.

#include "app/gui/jobs/trace_job.h"

#include <gtest/gtest.h>

#include <chrono>

#include "app/gui/jobs/app_context.h"
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
    const std::string answer = test::write_canned(
        "gui_job_trace.json",
        R"({"trace":{"kernel":"mma_cp_async.bf16","m":128,"n":128,"k":64,"blocks_launched":4,)"
        R"("blocks_traced":2,"warps_per_block":4,"wgmma_per_phase":1,"dropped":0,)"
        R"("kernel_ms":4242.0,"untraced_ms":0.01,"phases":[[0,0,5,"load_issue",0,0,100,180],)"
        R"([1,3,7,"store",-1,20,90,120]]}})");
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

}  // namespace
}  // namespace tclens::gui
