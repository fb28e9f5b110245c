// Tests for profiling/kernel_profile.* that need no GPU: without one, every entry point returns
// a kNoGpu error with the reason (never crashes), and unknown kernels are refused. Real profiles
// are GPU tests (tests/gpu/profiling/kernel_profile_test.cpp).

#include "profiling/kernel_profile.h"

#include <gtest/gtest.h>

#include "profiling/device_query.h"
#include "profiling/metric_catalogue.h"

namespace tclens::profiling {
namespace {

void skip_with_gpu() {
    if (query_system().has_gpu()) GTEST_SKIP() << "skipped: this machine has a GPU";
}

TEST(KernelProfile, WithoutAGpuProfileSaysSo) {
    skip_with_gpu();
    KernelProfileRequest request;
    request.kernel_id = "naive_fma.f32";
    request.problem = {64, 64, 64};
    request.metrics = metric_set("default");
    const KernelProfile profile = profile_kernel(request);
    EXPECT_FALSE(profile.ok());
    EXPECT_EQ(profile.error.problem, ProfilerProblem::kNoGpu) << profile.error.message;
    EXPECT_TRUE(profile.error.needs_resource());
    EXPECT_TRUE(profile.metrics.empty());
    EXPECT_EQ(profile.kernel_id, "naive_fma.f32");
}

TEST(KernelProfile, WithoutAGpuLaunchFactsAloneStillNeedOne) {
    skip_with_gpu();
    KernelProfileRequest request;
    request.kernel_id = "naive_fma.f32";
    request.problem = {64, 64, 64};
    request.metrics = {"launch__registers_per_thread"};
    EXPECT_EQ(profile_kernel(request).error.problem, ProfilerProblem::kNoGpu);
}

TEST(KernelProfile, WithoutAGpuTimelineSaysSo) {
    skip_with_gpu();
    KernelTimelineRequest request;
    request.kernel_id = "naive_fma.f32";
    request.problem = {64, 64, 64};
    const KernelTimeline timeline = record_timeline(request);
    EXPECT_EQ(timeline.error.problem, ProfilerProblem::kNoGpu) << timeline.error.message;
    EXPECT_TRUE(timeline.samples.empty());
    EXPECT_EQ(timeline.metrics, metric_set("timeline"));
}

TEST(KernelProfile, UnknownKernelAndUnpreparedCallsAreRefused) {
    KernelProfiler profiler;
    EXPECT_FALSE(profiler.prepared());
    EXPECT_EQ(profiler.prepare("warp_speed.f64", {64, 64, 64}).problem,
              ProfilerProblem::kInvalidRequest);
    EXPECT_FALSE(profiler.profile({"gpu__time_duration.sum"}).ok());
    EXPECT_FALSE(profiler.timeline(TimelineOptions{}).ok());
}

}  // namespace
}  // namespace tclens::profiling
