// Tests for app/worker/child_process.*: a shell command with piped stdin/stdout, its exit
// status in words, and kill_group reaching what the command started.

#include "app/worker/child_process.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <thread>

#include "app/worker/line_io.h"

namespace tclens::worker {
namespace {

using namespace std::chrono_literals;

// True when `pid` no longer runs: gone, or a zombie waiting for its new parent to reap it.
bool not_running(pid_t pid) {
    if (kill(pid, 0) != 0) return true;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const std::size_t close = text.rfind(')');
    return close != std::string::npos && close + 2 < text.size() && text[close + 2] == 'Z';
}

TEST(ChildProcess, TalksOverItsPipesAndReportsItsExit) {
    std::string error;
    auto child = ChildProcess::start("read line; echo \"got $line\"; exit 3", error);
    ASSERT_NE(child, nullptr) << error;
    ASSERT_TRUE(write_line(child->to_child(), "hello"));
    LineReader reader(child->from_child(), 100);
    std::string line;
    ASSERT_EQ(reader.read_line(line, Clock::now() + 5s), LineReader::Status::kLine);
    EXPECT_EQ(line, "got hello");
    const std::optional<int> status = child->wait_for(5s);
    ASSERT_TRUE(status.has_value());
    EXPECT_EQ(ChildProcess::status_text(*status), "exited with code 3");
}

TEST(ChildProcess, ClosingStdinEndsAReader) {
    std::string error;
    auto child = ChildProcess::start("cat >/dev/null", error);
    ASSERT_NE(child, nullptr) << error;
    EXPECT_FALSE(child->wait_for(100ms).has_value());
    child->close_stdin();
    ASSERT_TRUE(child->wait_for(5s).has_value());
}

TEST(ChildProcess, KillGroupEndsTheCommandAndWhatItStarted) {
    std::string error;
    // The shell starts a grandchild that would outlive a kill of the shell alone.
    auto child = ChildProcess::start("sleep 30 & echo $!; wait", error);
    ASSERT_NE(child, nullptr) << error;
    LineReader reader(child->from_child(), 100);
    std::string line;
    ASSERT_EQ(reader.read_line(line, Clock::now() + 5s), LineReader::Status::kLine);
    const pid_t grandchild = std::stoi(line);
    child->kill_group();
    ASSERT_TRUE(child->status().has_value());
    EXPECT_EQ(ChildProcess::status_text(*child->status()), "killed by signal 9 (SIGKILL)");
    bool gone = false;
    for (int i = 0; i < 100 && !gone; ++i) {
        gone = not_running(grandchild);
        if (!gone) std::this_thread::sleep_for(20ms);
    }
    EXPECT_TRUE(gone) << "pid " << grandchild << " survived kill_group";
}

TEST(ChildProcess, StatusTextNamesSignals) {
    EXPECT_EQ(ChildProcess::status_text(0), "exited with code 0");
    EXPECT_EQ(ChildProcess::status_text(SIGSEGV), "killed by signal 11 (SIGSEGV)");
    EXPECT_EQ(ChildProcess::status_text(SIGABRT), "killed by signal 6 (SIGABRT)");
    EXPECT_EQ(ChildProcess::status_text(134 << 8),
              "killed by signal 6 (SIGABRT), exit code 134 from its shell");
    EXPECT_EQ(ChildProcess::status_text(200 << 8), "exited with code 200");
}

TEST(ChildProcess, AMissingProgramStartsAndExits127) {
    std::string error;
    auto child = ChildProcess::start("/nonexistent/tclens-worker", error);
    ASSERT_NE(child, nullptr) << error;
    const std::optional<int> status = child->wait_for(5s);
    ASSERT_TRUE(status.has_value());
    EXPECT_EQ(ChildProcess::status_text(*status), "exited with code 127");
}

}  // namespace
}  // namespace tclens::worker
