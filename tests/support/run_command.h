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

// True if `text` is exactly one non-empty line ending in '\n' (the CLI's error contract).
bool is_one_line(const std::string& text);

// True if `program` is found on PATH.
bool on_path(const std::string& program);

// A fresh path under the system temp folder, unique to this process and `name`.
std::string temp_path(const std::string& name);

}  // namespace tclens::test
