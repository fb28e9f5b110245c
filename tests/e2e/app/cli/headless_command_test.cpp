// `tclens headless`: the GUI's frames without a window or display (ImGui's null backend). Runs on
// any machine: the frames are built, the panels' text can be read back, and bad usage is one line.

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/support/run_command.h"
#include "tests/support/scripted_gpu.h"

namespace tclens {
namespace {

using test::run_command;

// No display: the headless runtime must not need one.
const std::string kTclensWithoutDisplay =
    "env -u DISPLAY -u WAYLAND_DISPLAY " + std::string(TCLENS_BINARY);

TEST(HeadlessCommand, BuildsEveryFrameWithoutADisplay) {
    const auto result = run_command(kTclensWithoutDisplay + " headless --frames 40 --fps 0 --json");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto report = nlohmann::json::parse(result.out);
    EXPECT_EQ(report["frames"], 40);
    EXPECT_EQ(report["frame_ms"]["frames"], 30);  // after 10 warm-up frames
    EXPECT_GT(report["frame_ms"]["median"].get<double>(), 0.0);
    // Menu bar, the rail, the Fragments view and the status bar: thousands of vertices.
    EXPECT_GT(report["vertices_last_frame"].get<int>(), 2000);
    EXPECT_GT(report["rss_bytes"]["end"].get<double>(), 0.0);
}

TEST(HeadlessCommand, TextOfTheLastFrameNamesWhatThePanelsShow) {
    const std::string path = test::temp_path("headless_text.txt");
    const auto result = run_command(kTclensWithoutDisplay +
                                    " headless --view fragments --set "
                                    "fragments.layout=ldmatrix.x4 --frames 3 --text " +
                                    path);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const std::string text = test::read_file(path);
    std::filesystem::remove(path);
    EXPECT_NE(text.find("== fragments =="), std::string::npos) << text;
    EXPECT_NE(text.find("ldmatrix.x4"), std::string::npos) << text;
    EXPECT_EQ(text.find("== device =="), std::string::npos) << "only the chosen view is shown";
}

// The Profile panel's instruction mix is the one the worker's build read, as its hello carries
// it, and its line says so: a scripted worker plants a wmma.f16 mix no census has (HMMA 4242).
TEST(HeadlessCommand, TheProfilePanelShowsTheMixOfTheWorkersBuild) {
    const std::string mixes = test::planted_worker_mixes("wmma.f16");
    test::CommandResult result;
    const std::string text =
        test::panel_text_with_worker(test::scripted_gpu_worker("SCRIPTED_MIXES=" + mixes),
                                     "profile", "--set profile.kernel=wmma.f16", result);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(text.find("SASS of wmma.f16 (sm_90a, the worker's build): HMMA 4242,"),
              std::string::npos)
        << text;
}

TEST(HeadlessCommand, PacedFramesTakeTheirTime) {
    const auto result =
        run_command(kTclensWithoutDisplay + " headless --frames 30 --fps 100 --json");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_GE(nlohmann::json::parse(result.out)["wall_s"].get<double>(), 0.25);
}

TEST(HeadlessCommand, BadUsageIsOneLineAndExit2) {
    for (const std::string args :
         {"headless", "headless --frames 3 --view nosuch",
          "headless --frames 3 --set profile.live=maybe", "headless --frames 3 --size 10x10"}) {
        const auto result = run_command(kTclensWithoutDisplay + " " + args);
        EXPECT_EQ(result.exit_code, 2) << args;
        EXPECT_TRUE(test::is_one_line(result.err)) << args << ": " << result.err;
    }
}

TEST(HeadlessCommand, UnwritableTextFileFailsAndLeavesNothing) {
    const std::string path = test::temp_path("no_such_folder") + "/text.txt";
    const auto result = run_command(kTclensWithoutDisplay + " headless --frames 2 --text " + path);
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_FALSE(std::filesystem::exists(path));
    EXPECT_FALSE(std::filesystem::exists(path + ".partial"));
}

}  // namespace
}  // namespace tclens
