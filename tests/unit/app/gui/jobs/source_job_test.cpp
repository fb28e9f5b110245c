// Tests for app/gui/jobs/source_job.*: the Source panel's profile of a rung is a `source` request
// to the worker. The scripted worker's canned profile (424242 samples of one instruction on
// "Scripted H999") is what the panel gets, so nothing was sampled in this process; a worker that
// dies is the profile's one-line error.

#include "app/gui/jobs/source_job.h"

#include <gtest/gtest.h>

#include <chrono>

#include "app/gui/jobs/app_context.h"
#include "kernels/problem_text.h"
#include "profiling/device_query.h"
#include "tests/support/scripted_gpu.h"
#include "tests/support/worker_contexts.h"

namespace tclens::gui {
namespace {

constexpr kernels::GemmProblem kSize{512, 512, 512};

std::shared_ptr<const profiling::SourceProfile> profile(AppContext& context,
                                                        const std::string& id) {
    request_source_profile(context, id, kSize);
    EXPECT_TRUE(context.jobs.wait_idle(std::chrono::seconds(60)));
    EXPECT_EQ(context.jobs.status().last_error, "");
    return context.source_profile.latest();
}

TEST(SourceJob, ARungsProfileIsARequestToTheWorkerAndItsAnswerIsPublished) {
    test::ScriptedWorkerContext context(
        "SCRIPTED_SOURCE=" +
        test::write_canned("gui_job_source.json", test::scripted_source_answer(kSize)));
    const auto published = profile(context, "mma_cp_async.bf16");
    ASSERT_TRUE(published);
    EXPECT_TRUE(published->ok()) << published->error.message;
    EXPECT_EQ(published->kernel_id, "mma_cp_async.bf16");
    EXPECT_EQ(published->device, "Scripted H999");
    ASSERT_EQ(published->instructions.size(), 1u);
    EXPECT_EQ(published->instructions[0].samples, 424242);
    // A worker of its own, which ends with the job (source_worker says why).
    EXPECT_EQ(context.requests(), "hello\nsource\nshutdown\n");
}

TEST(SourceJob, AWorkerThatDiesIsTheProfilesOneLineError) {
    test::ScriptedWorkerContext context("SCRIPTED_WORKER=crash");
    const auto published = profile(context, "mma_cp_async.bf16");
    ASSERT_TRUE(published);
    EXPECT_FALSE(published->ok());
    EXPECT_EQ(published->kernel_id, "mma_cp_async.bf16");
    EXPECT_EQ(kernels::problem_text(published->problem), kernels::problem_text(kSize));
    const std::string& message = published->error.message;
    EXPECT_NE(message.find("died during the source request"), std::string::npos) << message;
    EXPECT_NE(message.find("a fresh worker starts at the next run"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

// The real worker: without a GPU its refusal is the profile's one-line error, which names the
// kernel; with one, the rung's profile is taken and verified.
TEST(SourceJob, TheRealWorkerProfilesOrSaysWhyNotInOneLine) {
    test::WorkerContext context;
    const auto published = profile(context, "mma_cp_async.bf16");
    ASSERT_TRUE(published);
    EXPECT_EQ(published->kernel_id, "mma_cp_async.bf16");
    if (!profiling::query_system().has_gpu()) {
        const std::string& message = published->error.message;
        EXPECT_NE(message.find("needs an NVIDIA GPU"), std::string::npos) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
        return;
    }
    EXPECT_TRUE(published->ok()) << published->error.message;
    EXPECT_TRUE(published->check.passed);
    EXPECT_FALSE(published->instructions.empty());
}

}  // namespace
}  // namespace tclens::gui
