// Tests for app/gui/jobs/layout_verify_job.*: "Verify on GPU" is a `layout_verify` request to the
// worker. The scripted worker's canned comparison (7 of 9999 elements on "Scripted H999", a count
// no layout has) is what the panel gets, wrong slots included, so the probe did not run in this
// process; a worker that dies is one line. The real worker without a GPU says so in one line.

#include "app/gui/jobs/layout_verify_job.h"

#include <gtest/gtest.h>

#include <chrono>

#include "app/gui/jobs/app_context.h"
#include "profiling/device_query.h"
#include "tests/support/scripted_gpu.h"
#include "tests/support/worker_contexts.h"

namespace tclens::gui {
namespace {

std::shared_ptr<const LayoutVerification> verify(AppContext& context, const std::string& id) {
    request_layout_verification(context, *viz::fragment_layout(id));
    EXPECT_TRUE(context.jobs.wait_idle(std::chrono::seconds(120)));
    EXPECT_EQ(context.jobs.status().last_error, "");
    return context.layout_verification.latest();
}

TEST(LayoutVerifyJob, TheLayoutIsARequestToTheWorkerAndItsComparisonIsPublished) {
    const std::string answer = test::write_canned(
        "gui_job_layout_verify.json",
        R"({"layout":"mma.m16n8k8.tf32","device":"Scripted H999","matched":7,"total":9999,)"
        R"x("mismatches":["A lane 1 a1: model (9,0) measured (1,4)"],)x"
        R"("wrong":[{"operand":"A","element":3}]})");
    test::ScriptedWorkerContext context("SCRIPTED_LAYOUT_VERIFY=" + answer);
    const auto published = verify(context, "mma.m16n8k8.tf32");
    ASSERT_TRUE(published);
    EXPECT_EQ(published->id, "mma.m16n8k8.tf32");
    EXPECT_EQ(published->device, "Scripted H999");
    EXPECT_EQ(published->error, "");
    EXPECT_EQ(published->comparison.matched, 7);
    EXPECT_EQ(published->comparison.total, 9999);
    EXPECT_EQ(published->comparison.mismatches,
              std::vector<std::string>{"A lane 1 a1: model (9,0) measured (1,4)"});
    ASSERT_EQ(published->comparison.wrong.size(), 1u);
    EXPECT_EQ(published->comparison.wrong[0].operand, viz::Operand::A);
    EXPECT_EQ(published->comparison.wrong[0].element, 3);
    EXPECT_EQ(context.requests(), "hello\nlayout_verify\n");
}

TEST(LayoutVerifyJob, AWorkerThatDiesIsOneLine) {
    test::ScriptedWorkerContext context("SCRIPTED_WORKER=crash");
    const auto published = verify(context, "ldmatrix.x4");
    ASSERT_TRUE(published);
    EXPECT_EQ(published->id, "ldmatrix.x4");
    EXPECT_NE(published->error.find("died during the layout_verify request"), std::string::npos)
        << published->error;
    EXPECT_EQ(published->error.find('\n'), std::string::npos) << published->error;
    EXPECT_EQ(published->comparison.total, 0);
}

TEST(LayoutVerifyJob, TheRealWorkerVerifiesOrSaysWhyNotInOneLine) {
    test::WorkerContext context;
    const auto published = verify(context, "mma.m16n8k8.tf32");
    ASSERT_TRUE(published);
    if (!profiling::query_system().has_gpu()) {
        EXPECT_NE(published->error.find("needs a GPU"), std::string::npos) << published->error;
        EXPECT_EQ(published->error.find('\n'), std::string::npos) << published->error;
        return;
    }
    EXPECT_EQ(published->error, "");
    EXPECT_GT(published->comparison.total, 0);
    EXPECT_EQ(published->comparison.matched, published->comparison.total);
    EXPECT_TRUE(published->comparison.wrong.empty());
}

}  // namespace
}  // namespace tclens::gui
