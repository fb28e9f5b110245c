#pragma once
// Runs a shell command for end-to-end tests of the `tclens` binary. Every command has a time
// limit: one that outlives it is killed with everything it started (its process group), and the
// test fails with the command named instead of hanging until ctest's own limit.

#include <chrono>
#include <functional>
#include <string>

namespace tclens::test {

struct CommandResult {
    int exit_code = -1;  // -1: killed (by a signal, or at its time limit)
    std::string out;     // stdout
    std::string err;     // stderr; a command killed at its limit ends with a line saying so
};

// Long enough for any command of the suite (a GPU bench of many sizes), short of ctest's 1500 s.
inline constexpr std::chrono::seconds kCommandTimeLimit{600};

// Runs `command` through /bin/sh and waits for it, at most `limit`.
CommandResult run_command(const std::string& command,
                          std::chrono::seconds limit = kCommandTimeLimit);

// The whole text of the file at `path`; a missing file reads as "".
std::string read_file(const std::string& path);

// Waits until `seen(the file's text)` holds, `ended()` says there is no more to wait for, or
// `limit` passes; returns whether `seen` held. A missing file reads as "".
bool wait_for_file(const std::string& path,
                   const std::function<bool(const std::string& text)>& seen,
                   std::chrono::seconds limit, const std::function<bool()>& ended = {});

// A command running in the background, through /bin/sh in a process group of its own, its stdout
// and stderr going to files of this test process. The destructor kills what is still running.
class BackgroundCommand {
  public:
    explicit BackgroundCommand(const std::string& command);
    ~BackgroundCommand();
    BackgroundCommand(const BackgroundCommand&) = delete;
    BackgroundCommand& operator=(const BackgroundCommand&) = delete;

    // Waits until `seen(stdout so far)` holds, the command ends or `limit` passes; returns whether
    // `seen` held.
    bool wait_for_output(const std::function<bool(const std::string& out)>& seen,
                         std::chrono::seconds limit);
    // Waits for the command to end, at most `limit`, then kills it with its process group.
    CommandResult finish(std::chrono::seconds limit = kCommandTimeLimit);

  private:
    bool exited();  // reaps the shell once it has ended

    std::string command_;
    std::string out_path_;
    std::string err_path_;
    int pid_ = -1;
    int status_ = 0;
    bool reaped_ = false;
};

// Runs `command` under a private X server (xvfb-run) with a screen of `screen` ("WxH") pixels.
// Parallel tests each start their own server: the display number search starts at a number
// derived from this process id, and a server that fails to start (two searches raced for one
// number) is retried on the next. The app's settings (XDG_CONFIG_HOME) go to a folder of this
// test process, emptied before each command and removed when the process exits, so no command
// reads what another remembered; a command that sets XDG_CONFIG_HOME itself
// (`env XDG_CONFIG_HOME=... tclens ...`) keeps its own.
CommandResult run_under_xvfb(const std::string& command, const std::string& screen = "1280x1024");

// True if `text` is exactly one non-empty line ending in '\n' (the CLI's error contract).
bool is_one_line(const std::string& text);

// True if `program` is found on PATH.
bool on_path(const std::string& program);

// Runs `tclens screenshot --view VIEW --size WIDTHxHEIGHT SETTINGS` under xvfb-run into a
// temporary PNG, reads it back (png_inspect.h) and removes it. `result` gets the command's
// exit code and output, for the caller to check.
struct PngFacts;
PngFacts view_screenshot(const std::string& tclens, const std::string& view, int width, int height,
                         const std::string& settings, CommandResult& result);

// True when `tclens device --json` finds a GPU.
bool tclens_sees_gpu(const std::string& tclens);

// A fresh path under the system temp folder, unique to this process and `name`.
std::string temp_path(const std::string& name);

}  // namespace tclens::test
