// Tests for app/gui/jobs/app_context.*: the device query is the worker's hello. The scripted
// worker's canned GPUs (a "Scripted H999" with 999 SMs, on a machine with none) are what the
// Device panel gets, so this process asked no CUDA; a worker that cannot start is the one-line
// reason there is no GPU.

#include "app/gui/jobs/app_context.h"

#include <gtest/gtest.h>

#include <chrono>

#include "profiling/device_json.h"
#include "tests/support/scripted_gpu.h"
#include "tests/support/worker_contexts.h"

namespace tclens::gui {
namespace {

std::shared_ptr<const profiling::SystemReport> query(AppContext& context) {
    request_system_query(context);
    EXPECT_TRUE(context.jobs.wait_idle(std::chrono::seconds(60)));
    EXPECT_EQ(context.jobs.status().last_error, "");
    return context.system.latest();
}

TEST(SystemQuery, TheGpusAreThoseTheWorkersHelloNames) {
    test::ScriptedWorkerContext context(
        "SCRIPTED_SYSTEM=" +
        test::write_canned("gui_job_system.json",
                           profiling::to_json(test::scripted_gpu_system()).dump()));
    const auto published = query(context);
    ASSERT_TRUE(published);
    ASSERT_TRUE(published->has_gpu()) << published->no_gpu_reason;
    EXPECT_EQ(published->devices.front().name, test::kScriptedGpu);
    EXPECT_EQ(published->devices.front().sm_count, 999);
    EXPECT_EQ(published->driver_version, "999.1");
    EXPECT_EQ(context.requests(), "hello\n");
}

TEST(SystemQuery, AWorkerThatCannotStartIsTheOneLineReasonThereIsNoGpu) {
    AppContext context;
    context.worker_options.command = "exit 127";
    const auto published = query(context);
    ASSERT_TRUE(published);
    EXPECT_FALSE(published->has_gpu());
    EXPECT_NE(published->no_gpu_reason, "");
    EXPECT_EQ(published->no_gpu_reason.find('\n'), std::string::npos) << published->no_gpu_reason;
}

}  // namespace
}  // namespace tclens::gui
