// Tests for common/child_process.*: a child with piped stdin and stdout, its exit status in words,
// kill() reaching what it started in its own group; and run_program's output, folder, merged
// stderr, and a program that is missing or prints too much.

#include "common/child_process.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

namespace tclens::common {
namespace {

using namespace std::chrono_literals;

// A shell command started as the worker client starts it: stdin a pipe, its own group.
std::unique_ptr<ChildProcess> start_shell(const std::string& command, std::string& error) {
    ChildOptions options;
    options.stdin_pipe = true;
    options.stderr_to = ChildStderr::kInherit;
    options.own_process_group = true;
    return ChildProcess::start({"/bin/sh", "-c", command}, options, error);
}

// One line from `fd`, without its '\n' (blocking; the tests' children answer at once).
std::string read_line(int fd) {
    std::string line;
    char c = 0;
    while (::read(fd, &c, 1) == 1 && c != '\n') line += c;
    return line;
}

// True when `pid` no longer runs: gone, or a zombie waiting for its new parent to reap it.
bool not_running(pid_t pid) {
    if (::kill(pid, 0) != 0) return true;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const std::size_t close = text.rfind(')');
    return close != std::string::npos && close + 2 < text.size() && text[close + 2] == 'Z';
}

TEST(ChildProcess, TalksOverItsPipesAndReportsItsExit) {
    std::string error;
    auto child = start_shell("read line; echo \"got $line\"; exit 3", error);
    ASSERT_NE(child, nullptr) << error;
    const std::string hello = "hello\n";
    ASSERT_EQ(::write(child->to_child(), hello.data(), hello.size()),
              static_cast<ssize_t>(hello.size()));
    EXPECT_EQ(read_line(child->from_child()), "got hello");
    const std::optional<int> status = child->wait_for(5s);
    ASSERT_TRUE(status.has_value());
    EXPECT_EQ(ChildProcess::status_text(*status), "exited with code 3");
}

TEST(ChildProcess, ClosingStdinEndsAReader) {
    std::string error;
    auto child = start_shell("cat >/dev/null", error);
    ASSERT_NE(child, nullptr) << error;
    EXPECT_FALSE(child->wait_for(100ms).has_value());
    child->close_stdin();
    ASSERT_TRUE(child->wait_for(5s).has_value());
}

TEST(ChildProcess, KillEndsTheCommandAndWhatItStartedInItsGroup) {
    std::string error;
    // The shell starts a grandchild that would outlive a kill of the shell alone.
    auto child = start_shell("sleep 30 & echo $!; wait", error);
    ASSERT_NE(child, nullptr) << error;
    const pid_t grandchild = std::stoi(read_line(child->from_child()));
    child->kill();
    ASSERT_TRUE(child->status().has_value());
    EXPECT_EQ(ChildProcess::status_text(*child->status()), "killed by signal 9 (SIGKILL)");
    bool gone = false;
    for (int i = 0; i < 100 && !gone; ++i) {
        gone = not_running(grandchild);
        if (!gone) std::this_thread::sleep_for(20ms);
    }
    EXPECT_TRUE(gone) << "pid " << grandchild << " survived kill()";
}

TEST(ChildProcess, StatusTextNamesSignals) {
    EXPECT_EQ(ChildProcess::status_text(0), "exited with code 0");
    EXPECT_EQ(ChildProcess::status_text(SIGSEGV), "killed by signal 11 (SIGSEGV)");
    EXPECT_EQ(ChildProcess::status_text(SIGABRT), "killed by signal 6 (SIGABRT)");
    EXPECT_EQ(ChildProcess::status_text(134 << 8),
              "killed by signal 6 (SIGABRT), exit code 134 from its shell");
    EXPECT_EQ(ChildProcess::status_text(200 << 8), "exited with code 200");
}

TEST(ChildProcess, AMissingCommandOfAShellStartsAndExits127) {
    std::string error;
    auto child = start_shell("/nonexistent/tclens-worker", error);
    ASSERT_NE(child, nullptr) << error;
    const std::optional<int> status = child->wait_for(5s);
    ASSERT_TRUE(status.has_value());
    EXPECT_EQ(ChildProcess::status_text(*status), "exited with code 127");
}

TEST(RunProgram, ReadsStdoutStderrAndTheExitStatus) {
    const ProgramOutput out = run_program({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"});
    EXPECT_EQ(out.exit_status, 3);
    EXPECT_EQ(out.out, "out\n");
    EXPECT_EQ(out.err, "err\n");
    EXPECT_EQ(out.error, "");
    EXPECT_FALSE(out.ok());
    EXPECT_TRUE(run_program({"/bin/sh", "-c", "true"}).ok());
}

TEST(RunProgram, PassesArgumentsAsTheyAreAndRunsInTheFolderGiven) {
    ProgramOptions options;
    options.working_dir = "/";
    const ProgramOutput out =
        run_program({"/bin/sh", "-c", "printf '%s|' \"$0\"; pwd", "a b;$c"}, options);
    ASSERT_TRUE(out.ok()) << out.error;
    EXPECT_EQ(out.out, "a b;$c|/\n");
}

TEST(RunProgram, MergesStderrIntoStdoutInOrderAndReadsNoInput) {
    ProgramOptions options;
    options.stderr_into_stdout = true;
    const ProgramOutput out =
        run_program({"/bin/sh", "-c", "echo one; echo two >&2; cat; echo three"}, options);
    ASSERT_TRUE(out.ok()) << out.error;
    EXPECT_EQ(out.out, "one\ntwo\nthree\n");
    EXPECT_EQ(out.err, "");
}

TEST(RunProgram, AMissingProgramOrTooMuchOutputIsOneLine) {
    const ProgramOutput missing = run_program({"/no/such/program"});
    EXPECT_FALSE(missing.ok());
    EXPECT_EQ(missing.exit_status, -1);
    EXPECT_EQ(missing.error, "cannot run /no/such/program: No such file or directory");
    EXPECT_EQ(run_program({}).error, "no program to run");
    ProgramOptions options;
    options.max_out_bytes = 1 << 20;
    const ProgramOutput flood = run_program({"/bin/sh", "-c", "yes"}, options);
    EXPECT_FALSE(flood.ok());
    EXPECT_NE(flood.error.find("more than 1 MiB"), std::string::npos);
    EXPECT_EQ(flood.out.size(), 1u << 20);
}

TEST(RunProgram, AProgramKilledByASignalSaysSo) {
    const ProgramOutput out = run_program({"/bin/sh", "-c", "kill -9 $$"});
    EXPECT_FALSE(out.ok());
    EXPECT_EQ(out.exit_status, 128 + 9);
    EXPECT_EQ(out.error, "/bin/sh was killed by signal 9");
}

}  // namespace
}  // namespace tclens::common
