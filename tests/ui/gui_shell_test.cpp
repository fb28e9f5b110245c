// The real GUI window under Xvfb: it starts, renders frames and exits cleanly; with no display
// it says so in one line and exits 3.

#include <gtest/gtest.h>

#include <chrono>

#include "tests/support/run_command.h"

namespace tclens {
namespace {

const std::string kTclens = TCLENS_BINARY;

TEST(GuiShell, RendersFramesUnderXvfbAndExitsZero) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto result = test::run_under_xvfb(kTclens + " --frames 30");
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err, "");
}

TEST(GuiShell, SecondsLimitEndsTheRunOnTimeAndExitsZero) {
    const auto started = std::chrono::steady_clock::now();
    const auto result = test::run_under_xvfb(kTclens + " --seconds 2 --frame-stats");
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_GE(took.count(), 2.0);
    EXPECT_NE(result.out.find("frames"), std::string::npos) << result.out;
}

TEST(GuiShell, SecondsOutOfRangeIsAUsageError) {
    const auto result = test::run_command(kTclens + " --seconds 0");
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("--seconds"), std::string::npos) << result.err;
}

TEST(GuiShell, WithoutDisplayExplainsInOneLineAndExits3) {
    const auto result =
        test::run_command("env -u DISPLAY -u WAYLAND_DISPLAY " + kTclens + " --frames 1");
    EXPECT_EQ(result.exit_code, 3);
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("xvfb-run"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace tclens
