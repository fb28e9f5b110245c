#pragma once
// A child process started through `/bin/sh -c COMMAND`, whose stdin and stdout are pipes to us
// and whose stderr is ours. It runs in a process group of its own, so that
// kill_group() reaches everything it started (the shell, ssh, nvcc) and a Ctrl+C in our
// terminal does not reach it: the parent decides when it ends. POSIX only; no CUDA.

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace tclens::worker {

class ChildProcess {
  public:
    // Starts `shell_command`. nullptr, with `error` one line, when fork or pipe fail (a command
    // that does not exist starts, and then exits 127: the caller sees that as an early exit).
    static std::unique_ptr<ChildProcess> start(const std::string& shell_command,
                                               std::string& error);
    // Kills the group and reaps the child if it still runs.
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    pid_t pid() const { return pid_; }
    int to_child() const { return to_child_; }      // its stdin; -1 once closed
    int from_child() const { return from_child_; }  // its stdout

    // Closes its stdin: a worker reads that as "no more requests".
    void close_stdin();
    // SIGKILL to its whole process group, then reaps it.
    void kill_group();
    // Waits up to `timeout` for it to exit; its wait status, or nullopt while it still runs.
    std::optional<int> wait_for(std::chrono::milliseconds timeout);
    // The wait status once it has exited (after wait_for or kill_group).
    std::optional<int> status() const { return status_; }

    // "exited with code 3", "killed by signal 11 (SIGSEGV)".
    static std::string status_text(int wait_status);

  private:
    ChildProcess() = default;
    pid_t pid_ = -1;
    int to_child_ = -1;
    int from_child_ = -1;
    std::optional<int> status_;
};

}  // namespace tclens::worker
