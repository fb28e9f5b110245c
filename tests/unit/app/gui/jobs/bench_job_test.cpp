// Tests for app/gui/jobs/bench_job.*: the job always publishes a result, never throws into the
// job runner. It runs in the worker (the real `tclens worker`). Without a GPU the result carries
// the worker's one-line reason and no rows; with one, every requested kernel and its reference
// are verified and timed (a refusal the descriptor documents is skipped, any other outcome
// fails: tests/support/gpu_verdict.h). A request that cannot run says why, GPU or not.
#include "app/gui/jobs/bench_job.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "app/gui/jobs/app_context.h"
#include "kernels/registry.h"
#include "profiling/device_query.h"
#include "tests/support/gpu_verdict.h"
#include "tests/support/scoped_fault.h"
#include "tests/support/worker_contexts.h"

namespace tclens::gui {
namespace {

using test::WorkerContext;

worker::BenchRequest small_request(std::vector<std::string> ids) {
    worker::BenchRequest request;
    request.kernels = std::move(ids);
    request.problems = {{256, 256, 256}};
    request.runs = 20;
    request.warmup = 1;
    request.peaks = false;
    return request;
}

std::shared_ptr<const BenchResults> run_to_end(AppContext& context,
                                               const worker::BenchRequest& request) {
    const JobHandle job = request_bench(context, request);
    EXPECT_TRUE(context.jobs.wait_idle(std::chrono::seconds(300)));
    EXPECT_EQ(job.snapshot().state, JobState::kDone);
    EXPECT_EQ(context.jobs.status().last_error, "");
    return context.bench_results.latest();
}

TEST(BenchJob, PublishesTheRunnersReasonWithoutAGpuAndResultsWithOne) {
    WorkerContext context;
    const auto published = run_to_end(context, small_request({"naive_fma.f32"}));
    ASSERT_TRUE(published);
    EXPECT_EQ(published->request.kernels, std::vector<std::string>{"naive_fma.f32"});
    EXPECT_FALSE(published->cancelled);
    const profiling::SystemReport system = profiling::query_system();
    if (!system.has_gpu()) {
        EXPECT_NE(published->error, "");
        EXPECT_EQ(published->error.find('\n'), std::string::npos) << published->error;
        EXPECT_TRUE(published->report.rows.empty());
        return;
    }
    // A GPU: the rung and its reference, each verified and timed with the 20 runs asked for.
    ASSERT_EQ(published->error, "");
    ASSERT_EQ(published->report.rows.size(), 2u);
    EXPECT_EQ(published->report.rows[0].result.kernel_id, "naive_fma.f32");
    EXPECT_EQ(published->report.rows[1].result.kernel_id, "cublas.sgemm");
    for (const kernels::BenchRow& row : published->report.rows) {
        const kernels::RunResult& r = row.result;
        SCOPED_TRACE(r.kernel_id);
        TCLENS_APPLY_VERDICT(test::judge_run(
            r, kernels::outside_documented_sizes(*kernels::find_kernel(r.kernel_id), r.problem,
                                                 test::documented_limits(system.devices.front()))));
        EXPECT_TRUE(r.counts()) << kernels::run_status(r);
        EXPECT_EQ(r.timed_runs, 20);
        EXPECT_GT(r.tflops, 0);
    }
}

TEST(BenchJob, UnknownKernelOrEmptyRequestIsAOneLineErrorNotACrash) {
    WorkerContext context;
    auto published = run_to_end(context, small_request({"fastest"}));
    ASSERT_TRUE(published);
    EXPECT_NE(published->error.find("'fastest'"), std::string::npos) << published->error;
    EXPECT_EQ(published->error.find('\n'), std::string::npos);
    EXPECT_TRUE(published->report.rows.empty());

    published = run_to_end(context, small_request({}));
    ASSERT_TRUE(published);
    EXPECT_EQ(published->error, "no kernels selected");

    worker::BenchRequest no_sizes = small_request({"naive_fma.f32"});
    no_sizes.problems.clear();
    published = run_to_end(context, no_sizes);
    ASSERT_TRUE(published);
    EXPECT_EQ(published->error, "no sizes given");
}

TEST(BenchJob, CancelStopsTheBenchAndPublishesWhatFinished) {
    if (!profiling::query_system().has_gpu()) GTEST_SKIP() << "skipped: no GPU";
    WorkerContext context;
    // 3 kernels x 2 sizes x 100 timed runs at 4096^3: far longer than a cancel may take.
    worker::BenchRequest request = small_request({"naive_fma.f32", "smem_tiled.f32"});
    request.problems = {{4096, 4096, 4096}, {4096, 4096, 4096}};
    request.runs = 100;
    request_bench(context, request);
    // Wait for the first run ("1/6 naive_fma.f32 4096x4096x4096"), let it get going, cancel.
    const auto started = std::chrono::steady_clock::now();
    while (context.jobs.status().message.rfind("1/", 0) != 0 &&
           std::chrono::steady_clock::now() - started < std::chrono::seconds(60)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_EQ(context.jobs.status().message, "1/6 naive_fma.f32 4096x4096x4096");
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    const auto cancelled_at = std::chrono::steady_clock::now();
    context.jobs.cancel_current();
    ASSERT_TRUE(context.jobs.wait_idle(std::chrono::seconds(30)));
    // The runner sees the cancel between launches, not only between runs.
    EXPECT_LT(std::chrono::steady_clock::now() - cancelled_at, std::chrono::seconds(10));
    const auto published = context.bench_results.latest();
    ASSERT_TRUE(published);
    EXPECT_TRUE(published->cancelled);
    EXPECT_LT(published->report.rows.size(), 6u);  // 3 kernels x 2 sizes were asked for
}

// Under TCLENS_INJECT_FAULT a launch failure fails every row with the CUDA error and no GPU
// gives the runner's reason, GPU or not; the job never throws into the runner.
TEST(BenchJob, InjectedLaunchFailureFailsEveryRowWithTheCudaError) {
    const test::ScopedFault injected(kernels::Fault::kLaunchFailure);
    WorkerContext context;
    const auto published = run_to_end(context, small_request({"naive_fma.f32"}));
    ASSERT_TRUE(published);
    EXPECT_EQ(published->error, "");
    EXPECT_FALSE(published->cancelled);
    ASSERT_EQ(published->report.rows.size(), 2u);  // the rung and cublas.sgemm
    for (const kernels::BenchRow& row : published->report.rows) {
        EXPECT_EQ(row.result.error.rfind("cudaErrorLaunchFailure: ", 0), 0u) << row.result.error;
        EXPECT_FALSE(row.result.counts());
    }
}

TEST(BenchJob, InjectedNoGpuPublishesTheRunnersReason) {
    const test::ScopedFault injected(kernels::Fault::kNoGpu);
    WorkerContext context;
    const auto published = run_to_end(context, small_request({"naive_fma.f32"}));
    ASSERT_TRUE(published);
    EXPECT_NE(published->error.find("TCLENS_INJECT_FAULT=no-gpu hides every GPU"),
              std::string::npos)
        << published->error;
    EXPECT_EQ(published->error.find('\n'), std::string::npos) << published->error;
    EXPECT_TRUE(published->report.rows.empty());
}

}  // namespace
}  // namespace tclens::gui
