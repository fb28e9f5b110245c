// Tests for app/gui/jobs/profile_job.*: the job always publishes a final LiveProfile and never
// throws into the job runner. A request that cannot run says why in one line; without a GPU the
// profiler's reason comes back; with one, a few live updates arrive and Stop ends the loop.
#include "app/gui/jobs/profile_job.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "app/gui/app_context.h"
#include "profiling/device_info.h"

namespace tclens::gui {
namespace {

ProfileRequest small_request(ProfileMode mode = ProfileMode::kMetrics) {
    ProfileRequest request;
    request.mode = mode;
    request.kernel_id = "wmma.f16";
    request.problem = {256, 256, 256};
    request.max_updates = 3;
    request.timeline_ms = 50;
    return request;
}

std::shared_ptr<const LiveProfile> run_to_end(AppContext& context, const ProfileRequest& request) {
    EXPECT_GE(request_live_profile(context, request, nullptr), 1u);
    EXPECT_TRUE(context.jobs.wait_idle(std::chrono::seconds(120)));
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
        EXPECT_EQ(published->error.find('\n'), std::string::npos) << published->error;
        EXPECT_EQ(published->updates, 0u);
        EXPECT_FALSE(published->latest);
        EXPECT_TRUE(published->timeline_history.empty());
    }
}

TEST(ProfileJob, BadRequestsAreOneLineErrorsBeforeAnyGpuWork) {
    AppContext context;
    ProfileRequest request = small_request();
    request.kernel_id = "fastest";
    auto published = run_to_end(context, request);
    ASSERT_TRUE(published);
    EXPECT_EQ(published->error, "unknown kernel 'fastest'");
    EXPECT_FALSE(published->running);

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
    auto control = std::make_shared<LiveControl>();
    request_live_profile(context, request, control);
    const auto started = std::chrono::steady_clock::now();
    std::shared_ptr<const LiveProfile> live;
    while (std::chrono::steady_clock::now() - started < std::chrono::seconds(60)) {
        live = context.live_profile.latest();
        if (live && (live->updates >= 3 || !live->error.empty())) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    control->stop = true;
    ASSERT_TRUE(context.jobs.wait_idle(std::chrono::seconds(30)));
    live = context.live_profile.latest();
    ASSERT_TRUE(live);
    EXPECT_FALSE(live->running);
    if (!live->error.empty()) GTEST_SKIP() << "skipped: profiling unavailable: " << live->error;
    EXPECT_GE(live->updates, 3u);
    ASSERT_TRUE(live->latest);
    EXPECT_EQ(live->history.size(), live->latest->metrics.size());
}

}  // namespace
}  // namespace tclens::gui
