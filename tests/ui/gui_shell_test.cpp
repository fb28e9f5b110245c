// The real GUI window under Xvfb: it starts, renders frames and exits cleanly; with no display
// it says so in one line and exits 3.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

using test::kTclens;

TEST(GuiShell, RendersFramesUnderXvfbAndExitsZero) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto result = test::run_under_xvfb(kTclens + " --frames 30");
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err, "");
}

// The frame loop stops at the first frame that would start 2 s or more after it began: it ran
// 2 s or more, and its last frame began before 2 s (--frame-stats: "ran S s, the last frame
// began at L s"). That holds however slow the frames are on a busy machine; a loop that ran a
// frame past the limit fails, and one that ignored it is stopped by `timeout` and fails.
TEST(GuiShell, SecondsLimitEndsTheRunOnTimeAndExitsZero) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto started = std::chrono::steady_clock::now();
    const auto result =
        test::run_under_xvfb("timeout 60 " + kTclens + " --seconds 2 --frame-stats");
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_GE(took.count(), 2.0);
    double ran_s = -1, last_began_s = -1;
    const std::size_t at = result.out.find("ran ");
    ASSERT_NE(at, std::string::npos) << result.out;
    ASSERT_EQ(std::sscanf(result.out.c_str() + at, "ran %lf s, the last frame began at %lf s",
                          &ran_s, &last_began_s),
              2)
        << result.out;
    EXPECT_GE(ran_s, 2.0) << result.out;
    EXPECT_LT(last_began_s, 2.0) << result.out;
    EXPECT_GT(last_began_s, 0.0) << result.out;
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
