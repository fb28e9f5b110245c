// The ui tests' own harness: `run_under_xvfb` must hand back the command's exit status and
// stderr, not xvfb-run's. Without -noreset, xvfb-run lost a race at clean-up in about one
// run of three on a 2-core machine (exit 5, an extra stderr line, a stray Xvfb left behind).

#include <gtest/gtest.h>

#include "tests/support/run_command.h"

namespace tclens {
namespace {

TEST(XvfbHarness, ReturnsTheCommandsOwnExitStatusAndStderrEveryTime) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    // A window that opens, draws and closes, then a known failure: exit 1, one stderr line.
    const std::string command = std::string(TCLENS_BINARY) +
                                " screenshot --view device --frames 2 --out " +
                                test::temp_path("no_such_folder") + "/shot.png";
    constexpr int kRuns = 20;
    for (int run = 0; run < kRuns; ++run) {
        const auto result = test::run_under_xvfb(command);
        ASSERT_EQ(result.exit_code, 1) << "run " << run << ": " << result.err;
        ASSERT_TRUE(test::is_one_line(result.err)) << "run " << run << ": " << result.err;
    }
}

}  // namespace
}  // namespace tclens
