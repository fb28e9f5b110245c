// The GUI's jobs (app/gui/jobs/*) under TCLENS_INJECT_FAULT (kernels/fault_injection.h): each
// injected failure ends up as the one-line error the panels draw, published like any other
// result; the job never throws into the runner, so the app keeps drawing. The same on machines
// with and without a GPU.

#include "kernels/fault_injection.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <string>

#include "app/gui/jobs/bench_job.h"
#include "app/gui/jobs/profile_job.h"
#include "app/gui/shell/app_context.h"
#include "profiling/fault_injection.h"

namespace tclens::gui {
namespace {

using kernels::Fault;

class ScopedFault {
  public:
    explicit ScopedFault(Fault fault) {
        setenv(kernels::kFaultVariable, kernels::fault_name(fault), 1);
    }
    ~ScopedFault() { unsetenv(kernels::kFaultVariable); }
    ScopedFault(const ScopedFault&) = delete;
    ScopedFault& operator=(const ScopedFault&) = delete;
};

void wait_for_jobs(AppContext& context) {
    ASSERT_TRUE(context.jobs.wait_idle(std::chrono::seconds(120)));
    EXPECT_EQ(context.jobs.status().last_error, "");
}

std::shared_ptr<const LiveProfile> live_profile(AppContext& context, ProfileMode mode) {
    ProfileRequest request;
    request.mode = mode;
    request.kernel_ids = {"wmma.f16", "mma_cp_async.bf16"};
    request.problem = {256, 256, 256};
    request.max_updates = 3;
    request.timeline_ms = 50;
    EXPECT_TRUE(request_live_profile(context, request, nullptr));
    wait_for_jobs(context);
    return context.live_profile.latest();
}

kernels::BenchRequest small_bench() {
    kernels::BenchRequest request;
    request.kernel_ids = {"naive_fma.f32"};
    request.problems = {{256, 256, 256}};
    request.run.timed_runs = 20;
    request.measure_peaks = false;
    return request;
}

TEST(JobsFaultInjection, ProfileJobPublishesTheCuptiErrorInBothModes) {
    for (const Fault fault :
         {Fault::kCuptiUnavailable, Fault::kCuptiPermission, Fault::kCuptiBusy}) {
        const ScopedFault injected(fault);
        for (const ProfileMode mode : {ProfileMode::kMetrics, ProfileMode::kTimeline}) {
            SCOPED_TRACE(kernels::fault_name(fault));
            AppContext context;
            const auto published = live_profile(context, mode);
            ASSERT_TRUE(published);
            EXPECT_EQ(published->error, profiling::cupti_fault_error(fault).message);
            EXPECT_EQ(published->error.find('\n'), std::string::npos);
            EXPECT_FALSE(published->running);
            EXPECT_EQ(published->updates, 0u);
            EXPECT_FALSE(published->has_profile());
        }
    }
}

TEST(JobsFaultInjection, ProfileJobWithNoGpuSaysSo) {
    const ScopedFault injected(Fault::kNoGpu);
    AppContext context;
    const auto published = live_profile(context, ProfileMode::kMetrics);
    ASSERT_TRUE(published);
    EXPECT_NE(published->error.find("TCLENS_INJECT_FAULT=no-gpu"), std::string::npos)
        << published->error;
    EXPECT_FALSE(published->running);
}

TEST(JobsFaultInjection, BenchJobPublishesEveryRowFailedWithTheCudaError) {
    const ScopedFault injected(Fault::kLaunchFailure);
    AppContext context;
    request_bench(context, small_bench());
    wait_for_jobs(context);
    const auto published = context.bench_results.latest();
    ASSERT_TRUE(published);
    EXPECT_EQ(published->error, "");
    EXPECT_FALSE(published->cancelled);
    ASSERT_EQ(published->report.rows.size(), 2u);  // the rung and cublas.sgemm
    for (const kernels::BenchRow& row : published->report.rows) {
        EXPECT_EQ(row.result.error.rfind("cudaErrorLaunchFailure: ", 0), 0u) << row.result.error;
        EXPECT_FALSE(row.result.counts());
    }
}

TEST(JobsFaultInjection, BenchJobWithNoGpuPublishesTheRunnersReason) {
    const ScopedFault injected(Fault::kNoGpu);
    AppContext context;
    request_bench(context, small_bench());
    wait_for_jobs(context);
    const auto published = context.bench_results.latest();
    ASSERT_TRUE(published);
    EXPECT_EQ(published->error, "no usable GPU: TCLENS_INJECT_FAULT=no-gpu hides every GPU");
    EXPECT_TRUE(published->report.rows.empty());
}

}  // namespace
}  // namespace tclens::gui
