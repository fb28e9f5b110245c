// The first start (app/gui/shell/welcome_strip.h, the status bar): in the real window with an
// empty config folder, the main menu bar carries the welcome strip; once dismissed (the file in
// the config folder) it stays away, and a tour hides it. The status bar names the recording the
// panels show, with its GPU and date, and says it is not live. Read from the words ImGui drew
// (`tclens --text`: "== welcome ==", "== status ==").
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

namespace fs = std::filesystem;
using test::kTclens;

constexpr const char* kStrip =
    "== welcome ==\nNew here? Start the tour What am I looking at? Open a recording or a kernel...";

// The words of the last frame of the GUI run with `arguments` (`prefix` goes before tclens).
std::string drawn_text(const std::string& arguments, const std::string& prefix = "") {
    const std::string text = test::temp_path("welcome_text.txt");
    const auto result =
        test::run_under_xvfb(prefix + kTclens + " --frames 8 --text " + text + " " + arguments);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    const std::string words = test::read_file(text);
    fs::remove(text);
    return words;
}

TEST(WelcomeStrip, AFirstStartShowsIt) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const std::string words = drawn_text("");
    EXPECT_NE(words.find(kStrip), std::string::npos) << words;
}

TEST(StatusBar, NamesTheRecordingThePanelsShowWithItsGpuAndDate) {
    // Headless (the same ShellFrame, status bar included): its --text waits for the load.
    const std::string text = test::temp_path("status_text.txt");
    const auto result = test::run_command(
        "env -u DISPLAY " + kTclens + " headless --view kernels --open " +
        std::string(TCLENS_ASSETS_DIR) + "/recordings/h200.json.gz --frames 3 --text " + text);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const std::string words = test::read_file(text);
    fs::remove(text);
    EXPECT_NE(words.find("== status ==\nshowing h200.json.gz: NVIDIA H200, 2026-11-30 20:20 UTC "
                         "(recorded, not live) |"),
              std::string::npos)
        << words;
}

TEST(WelcomeStrip, OnceDismissedItStaysAwayAndATourHidesIt) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const fs::path config = test::temp_path("welcome_dismissed_config");
    fs::remove_all(config);
    fs::create_directories(config / "tclens");
    std::ofstream(config / "tclens" / "welcome_dismissed") << "dismissed\n";
    const std::string dismissed = drawn_text("", "env XDG_CONFIG_HOME=" + config.string() + " ");
    fs::remove_all(config);
    EXPECT_NE(dismissed.find("== status =="), std::string::npos) << dismissed;
    EXPECT_EQ(dismissed.find("== welcome =="), std::string::npos) << dismissed;
    const std::string touring =
        drawn_text("--tour " + std::string(TCLENS_ASSETS_DIR) + "/tour.json");
    EXPECT_NE(touring.find("== status =="), std::string::npos) << touring;
    EXPECT_EQ(touring.find("== welcome =="), std::string::npos) << touring;
}

}  // namespace
}  // namespace tclens
