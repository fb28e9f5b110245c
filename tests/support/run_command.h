#pragma once
// Runs a shell command for end-to-end tests of the `tclens` binary.

#include <string>

namespace tclens::test {

struct CommandResult {
    int exit_code = -1;
    std::string out;  // stdout
    std::string err;  // stderr
};

// Runs `command` through /bin/sh and waits for it.
CommandResult run_command(const std::string& command);

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
