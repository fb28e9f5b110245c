// Recordings in the real GUI under Xvfb, on any machine: a recording written by save_recording
// (tests/support/sample_recording.h) opens with `--open`, and the Kernels, Profile and Device
// panels then show its bench table, its profile cards and its device; a junk file is one line
// on stderr while the app goes on rendering.

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "profiling/recording.h"
#include "tests/support/png_inspect.h"
#include "tests/support/recording_file.h"
#include "tests/support/run_command.h"
#include "tests/support/sample_recording.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

using test::kTclens;
constexpr int kRecordingWidth = 1400;
constexpr int kRecordingHeight = 900;

// The Kernels panel's "ok" status of a counted row and the Profile panel's ok colour:
// (0.4, 0.9, 0.4) -> (102, 230, 102).
constexpr viz::Rgba kOk{102, 230, 102, 255};

// The sample recording, written once per test to a temporary file and removed after it.
using test::RecordingFile;

test::PngFacts screenshot(const std::string& view, const std::string& settings,
                          test::CommandResult& result) {
    return test::view_screenshot(kTclens, view, kRecordingWidth, kRecordingHeight, settings,
                                 result);
}

TEST(RecordingOpen, KernelsPanelShowsTheRecordedBench) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const RecordingFile file(test::sample_recording());
    test::CommandResult plain_result;
    test::CommandResult opened_result;
    const auto plain = screenshot("kernels", "", plain_result);
    const auto opened = screenshot("kernels", "--open " + file.path(), opened_result);
    ASSERT_EQ(opened_result.exit_code, 0) << opened_result.err;
    EXPECT_EQ(opened_result.err, "");
    ASSERT_TRUE(plain.loaded && opened.loaded);
    // The results table (4 rows, two of them "ok" in green), its peaks line and the TFLOP/s chart.
    EXPECT_GT(test::differing_pixels(plain, opened), 5000);
    EXPECT_GT(opened.text_rows, plain.text_rows + 40);
    EXPECT_EQ(test::count_pixels(plain, kOk), 0);
    EXPECT_GT(test::count_pixels(opened, kOk), 10);
}

TEST(RecordingOpen, ProfilePanelShowsTheRecordedProfileOfTheChosenKernel) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const RecordingFile file(test::sample_recording());
    test::CommandResult result;
    const auto recorded =
        screenshot("profile", "--set kernel=wmma.f16 --open " + file.path(), result);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto not_recorded =
        screenshot("profile", "--set kernel=naive_fma.f32 --open " + file.path(), result);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    ASSERT_TRUE(recorded.loaded && not_recorded.loaded);
    // 16 metric cards with strip charts and 3 PM-sampling charts, against a note that the
    // recording has no profile of naive_fma.f32.
    EXPECT_GT(recorded.text_rows, not_recorded.text_rows + 100);
    EXPECT_GT(test::differing_pixels(recorded, not_recorded), 20000);
}

TEST(RecordingOpen, DevicePanelShowsTheRecordedDevice) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const RecordingFile file(test::sample_recording());
    test::CommandResult plain_result;
    test::CommandResult opened_result;
    const auto plain = screenshot("device", "", plain_result);
    const auto opened = screenshot("device", "--open " + file.path(), opened_result);
    ASSERT_EQ(opened_result.exit_code, 0) << opened_result.err;
    ASSERT_TRUE(plain.loaded && opened.loaded);
    // "recorded on tclens test GPU, 2026-11-22 10:00 UTC", the file, 25 device facts, the
    // measured peaks and DRAM bandwidth.
    EXPECT_GT(opened.text_rows, plain.text_rows + 150);
}

TEST(RecordingOpen, JunkIsOneLineAndTheViewStillRenders) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const std::string junk = test::temp_path("junk_recording.json");
    std::ofstream(junk, std::ios::binary) << "\x89PNG not a recording {{{";
    test::CommandResult plain_result;
    test::CommandResult junk_result;
    const auto plain = screenshot("kernels", "", plain_result);
    const auto with_junk = screenshot("kernels", "--open " + junk, junk_result);
    EXPECT_EQ(junk_result.exit_code, 1);
    EXPECT_TRUE(test::is_one_line(junk_result.err)) << junk_result.err;
    EXPECT_NE(junk_result.err.find(junk), std::string::npos) << junk_result.err;
    EXPECT_NE(junk_result.err.find("not JSON"), std::string::npos) << junk_result.err;
    ASSERT_TRUE(plain.loaded && with_junk.loaded);
    EXPECT_EQ(test::differing_pixels(plain, with_junk), 0);  // as if nothing was opened
    std::remove(junk.c_str());
}

TEST(RecordingOpen, GuiOpensAFileAndKeepsRunningAfterABadOne) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const RecordingFile file(test::sample_recording());
    const auto good = test::run_under_xvfb(kTclens + " --open " + file.path() + " --frames 60");
    EXPECT_EQ(good.exit_code, 0) << good.err;
    EXPECT_EQ(good.err, "");

    const std::string missing = test::temp_path("missing_recording.json");
    const auto bad = test::run_under_xvfb(kTclens + " --open " + missing + " --frames 60");
    EXPECT_EQ(bad.exit_code, 0) << bad.err;  // the app ran its 60 frames
    EXPECT_TRUE(test::is_one_line(bad.err)) << bad.err;
    EXPECT_NE(bad.err.find(missing), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find("no such file"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace tclens
