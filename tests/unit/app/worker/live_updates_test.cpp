// Tests for app/worker/live_updates.*: each kind of live update (a profile, a kernel's error, a
// batch of PM samples) and the live_profile result round-trip through their JSON, and what is not
// one of them is refused in one line naming the field.

#include "app/worker/live_updates.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "profiling/profile_json.h"

namespace tclens::worker {
namespace {

LiveUpdate round_trip(const LiveUpdate& update) {
    LiveUpdate back;
    std::string error;
    EXPECT_TRUE(live_update_from_json(to_json(update), back, error)) << error;
    EXPECT_EQ(to_json(back), to_json(update));
    return back;
}

profiling::KernelProfile profile_of(const std::string& kernel, double value) {
    profiling::KernelProfile profile;
    profile.kernel_id = kernel;
    profile.problem = {64, 64, 64};
    profile.device = "a GPU";
    profile.check.passed = true;
    profile.passes = 2;
    profile.metrics = {{"sm__throughput.avg.pct_of_peak_sustained_elapsed", "SM", "%", value}};
    return profile;
}

TEST(LiveUpdates, AProfileRoundTripsWithItsKernelIndex) {
    LiveUpdate update;
    update.kernel = 3;
    update.profile = profile_of("wmma.f16", 71.5);
    const LiveUpdate back = round_trip(update);
    EXPECT_EQ(back.kind, LiveUpdate::Kind::kProfile);
    EXPECT_EQ(back.kernel, 3);
    EXPECT_EQ(back.profile.kernel_id, "wmma.f16");
    ASSERT_EQ(back.profile.metrics.size(), 1u);
    EXPECT_DOUBLE_EQ(back.profile.metrics[0].value, 71.5);
}

TEST(LiveUpdates, AKernelErrorRoundTripsWithItsKind) {
    LiveUpdate update;
    update.kind = LiveUpdate::Kind::kKernelError;
    update.kernel = 1;
    update.error_kind = ErrorKind::kUsage;
    update.error = "wmma.f16 cannot run 7x7x7: M must be a multiple of 16";
    const LiveUpdate back = round_trip(update);
    EXPECT_EQ(back.kind, LiveUpdate::Kind::kKernelError);
    EXPECT_EQ(back.error_kind, ErrorKind::kUsage);
    EXPECT_EQ(back.error, update.error);
}

TEST(LiveUpdates, SamplesRoundTripAndAValueThatIsNotFiniteIsNull) {
    LiveUpdate update;
    update.kind = LiveUpdate::Kind::kSamples;
    update.metrics = {"a", "b"};
    // The second sample's times are the GPU clock's (an H200 read 1795997408676783852), past
    // 2^53: the reader once refused them.
    update.samples = {{0, 1000, 2000, {1.5, 2.5}},
                      {1,
                       1795997408676783852u,
                       1795997408677783852u,
                       {std::numeric_limits<double>::infinity(), 3}}};
    EXPECT_TRUE(to_json(update)["samples"][1]["values"][0].is_null());
    const LiveUpdate back = round_trip(update);
    EXPECT_EQ(back.kind, LiveUpdate::Kind::kSamples);
    EXPECT_EQ(back.metrics, update.metrics);
    ASSERT_EQ(back.samples.size(), 2u);
    EXPECT_EQ(back.samples[1].start_ns, 1795997408676783852u);
    EXPECT_EQ(back.samples[1].end_ns, 1795997408677783852u);
    EXPECT_EQ(back.samples[0].values, (std::vector<double>{1.5, 2.5}));
    EXPECT_TRUE(std::isnan(back.samples[1].values[0]));
}

TEST(LiveUpdates, TheResultRoundTripsWithOrWithoutATimeline) {
    LiveProfileResult result;
    result.updates = 42;
    result.stopped = true;
    LiveProfileResult back;
    std::string error;
    ASSERT_TRUE(live_result_from_json(to_json(result), back, error)) << error;
    EXPECT_EQ(back.updates, 42u);
    EXPECT_TRUE(back.stopped);
    EXPECT_FALSE(back.timeline.has_value());
    result.timeline.emplace();
    result.timeline->kernel_id = "wmma.f16";
    result.timeline->metrics = {"a"};
    result.timeline->samples = {{0, 5, 9, {0.5}}};
    ASSERT_TRUE(live_result_from_json(to_json(result), back, error)) << error;
    ASSERT_TRUE(back.timeline.has_value());
    EXPECT_EQ(back.timeline->samples.size(), 1u);
}

TEST(LiveUpdates, WhatIsNotAnUpdateIsOneLineNamingTheField) {
    const nlohmann::json profile = profiling::to_json(profile_of("wmma.f16", 1));
    nlohmann::json failed = profile;
    failed["error"] = "CUPTI broke";
    const std::vector<std::pair<nlohmann::json, std::string>> cases = {
        {nlohmann::json::array(), "JSON object"},
        {{{"kernel", 0}}, "exactly one of 'profile' and 'error'"},
        {{{"kernel", 0}, {"profile", profile}, {"error", "x"}, {"kind", "usage"}},
         "exactly one of"},
        {{{"kernel", 8}, {"profile", profile}}, "'kernel'"},
        {{{"kernel", 0}, {"profile", failed}}, "a failed profile"},
        {{{"kernel", 0}, {"error", "x"}, {"kind", "bad"}}, "'kind' must be one of usage, failed"},
        {{{"kernel", 0}, {"profile", profile}, {"kind", "usage"}}, "'kind' goes with 'error'"},
        {{{"kernel", 0}, {"profile", profile}, {"more", 1}}, "unknown field \"more\""},
        {{{"metrics", {"a"}}, {"samples", 3}}, "'samples' must be an array"},
        {{{"metrics", {"a"}}, {"samples", {{{"start_ns", 1}, {"end_ns", 2}, {"values", {1, 2}}}}}},
         "array of 1 numbers"},
        {{{"metrics", {"a"}}, {"samples", {{{"start_ns", 1}, {"end_ns", 2}, {"values", {"x"}}}}}},
         "a number or null"},
        {{{"metrics", {"a"}}, {"samples", {{{"start_ns", -1}, {"end_ns", 2}, {"values", {1}}}}}},
         "'start_ns'"},
    };
    for (const auto& [json, named] : cases) {
        LiveUpdate update;
        std::string error;
        EXPECT_FALSE(live_update_from_json(json, update, error)) << json.dump();
        EXPECT_NE(error.find(named), std::string::npos) << json.dump() << "\n  error: " << error;
        EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    }
    LiveProfileResult result;
    std::string error;
    EXPECT_FALSE(live_result_from_json({{"updates", 1}, {"stopped", true}}, result, error));
    EXPECT_NE(error.find("missing field 'timeline'"), std::string::npos) << error;
}

}  // namespace
}  // namespace tclens::worker
