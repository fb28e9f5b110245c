// Tests for app/gui/jobs/open_recordings.*: the start-up recording is weighed once per answer of
// the GPU query, so a worker switch that cancelled its open (File > Connect right at start) asks
// for it again with the new worker's answer.
#include "app/gui/jobs/open_recordings.h"

#include <gtest/gtest.h>

#include <memory>

namespace tclens::gui {
namespace {

std::shared_ptr<const profiling::SystemReport> report(bool with_gpu) {
    auto system = std::make_shared<profiling::SystemReport>();
    if (with_gpu) system->devices.emplace_back();
    return system;
}

TEST(StartUpRecording, WithoutAGpuTheShippedOneOpensOncePerAnswer) {
    ASSERT_NE(shipped_recording_path(), "");
    StartUpRecording start_up;
    EXPECT_EQ(start_up.weigh(nullptr, false), "");  // the query has not answered
    const auto local = report(false);
    EXPECT_EQ(start_up.weigh(local, false), shipped_recording_path());
    EXPECT_EQ(start_up.weigh(local, false), "");  // the next frame: already asked for
    // A worker switch cancelled that open and its query answered anew: asked for again.
    EXPECT_EQ(start_up.weigh(report(false), false), shipped_recording_path());
}

TEST(StartUpRecording, AGpuOrARecordingOpenOrAskedForOpensNone) {
    StartUpRecording start_up;
    EXPECT_EQ(start_up.weigh(report(true), false), "");
    EXPECT_EQ(start_up.weigh(report(false), true), "");
    // A switch from a GPU to a host without one shows the shipped recording, as a start there.
    EXPECT_EQ(start_up.weigh(report(false), false), shipped_recording_path());
}

}  // namespace
}  // namespace tclens::gui
