// The tests' command runner (tests/support/run_command.h): a command past its time limit is killed
// with what it started and says so; a command's own exit code and output come back; a background
// command can be waited on for what it prints.

#include "tests/support/run_command.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace tclens {
namespace {

using std::chrono::seconds;
using std::chrono::steady_clock;

TEST(RunCommand, ReturnsTheExitCodeAndBothStreams) {
    const auto result = test::run_command("echo out; echo err >&2; exit 5");
    EXPECT_EQ(result.exit_code, 5);
    EXPECT_EQ(result.out, "out\n");
    EXPECT_EQ(result.err, "err\n");
}

TEST(RunCommand, ACommandPastItsLimitIsKilledWithWhatItStartedAndSaysSo) {
    const std::string marker = test::temp_path("still_running");
    const auto started = steady_clock::now();
    const auto result = test::run_command("(sleep 3; touch " + marker + ") & sleep 30", seconds(1));
    EXPECT_LT(steady_clock::now() - started, seconds(3));
    EXPECT_EQ(result.exit_code, -1);
    EXPECT_NE(result.err.find("killed after its time limit of 1 s: "), std::string::npos)
        << result.err;
    EXPECT_EQ(test::run_command("sleep 3; test -e " + marker).exit_code, 1)
        << "the command's background child outlived the kill";
}

TEST(BackgroundCommand, WaitsForWhatItPrintsThenForItsEnd) {
    test::BackgroundCommand command("echo ready; read line < /dev/null; sleep 0.2; echo done");
    EXPECT_TRUE(command.wait_for_output(
        [](const std::string& out) { return out.find("ready") != std::string::npos; },
        seconds(30)));
    EXPECT_FALSE(command.wait_for_output(
        [](const std::string& out) { return out.find("never") != std::string::npos; }, seconds(30)))
        << "a command that ended without printing it";
    const auto result = command.finish(seconds(30));
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_EQ(result.out, "ready\ndone\n");
}

}  // namespace
}  // namespace tclens
