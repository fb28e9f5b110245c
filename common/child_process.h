#pragma once
// Starting a program as a child process: argv as it is (no shell, so nothing needs quoting),
// stdout a pipe to us, stdin a pipe or /dev/null, stderr a pipe, merged into stdout or ours.
// posix_spawn, not fork: safe in a process with threads (the GUI's job runner, a CUDA worker).
// The child starts with no signal blocked and SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT at
// their defaults, whatever this process does with them. POSIX only.

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tclens::common {

// Where a child's stderr goes.
enum class ChildStderr {
    kPipe,        // a pipe of its own: err_from_child()
    kIntoStdout,  // the same pipe as its stdout
    kInherit,     // this process's stderr
};

struct ChildOptions {
    std::string working_dir;  // "" = this process's
    bool stdin_pipe = false;  // a pipe from to_child(); else /dev/null
    ChildStderr stderr_to = ChildStderr::kPipe;
    // A process group of its own, led by the child: kill() then reaches everything it started
    // (a shell's children), and a Ctrl+C in our terminal does not reach it.
    bool own_process_group = false;
};

class ChildProcess {
  public:
    // Starts argv[0] (a path, or a name looked up on PATH) with `argv`. nullptr, with `error`
    // one line ("cannot run /no/such/program: No such file or directory", "cannot make a pipe:
    // ..."), when it cannot start.
    static std::unique_ptr<ChildProcess> start(const std::vector<std::string>& argv,
                                               const ChildOptions& options, std::string& error);
    // Kills it (and its group) and reaps it if it still runs; closes our ends of its pipes.
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    pid_t pid() const { return pid_; }
    int to_child() const { return to_child_; }      // its stdin; -1 once closed or not a pipe
    int from_child() const { return from_child_; }  // its stdout; -1 once closed
    int err_from_child() const { return err_from_child_; }  // its stderr (kPipe only), else -1

    // Closes its stdin: a reader sees the end of its input.
    void close_stdin();
    // Closes our ends of its stdout and stderr (a reader that has read enough, or all).
    void close_output();
    // SIGKILL to it (to its whole group when it has its own), then reaps it.
    void kill();
    // Waits up to `timeout` for it to exit; its wait status, or nullopt while it still runs.
    // Once it exited, what it started that still holds its own group is killed too.
    std::optional<int> wait_for(std::chrono::milliseconds timeout);
    // Waits for it to exit, however long; its wait status.
    int wait();
    // The wait status once it has exited (after wait_for, wait or kill).
    std::optional<int> status() const { return status_; }

    // "exited with code 3", "killed by signal 11 (SIGSEGV)", and for a shell's 128 + N,
    // "killed by signal 6 (SIGABRT), exit code 134 from its shell".
    static std::string status_text(int wait_status);

  private:
    ChildProcess() = default;
    void reaped(int wait_status);
    pid_t pid_ = -1;
    bool own_group_ = false;
    int to_child_ = -1;
    int from_child_ = -1;
    int err_from_child_ = -1;
    std::optional<int> status_;
};

// What a program that ran to its end printed, and how it ended.
struct ProgramOutput {
    int exit_status =
        -1;             // its exit code, 128 + N when killed by signal N; -1 when it did not start
    std::string out;    // what it wrote to stdout (at most the limit given)
    std::string err;    // what it wrote to stderr (at most 64 KiB; "" when merged into out)
    std::string error;  // why it did not start, or was cut off or killed, one line; "" when
                        // it ran to its end
    bool ok() const { return error.empty() && exit_status == 0; }
};

struct ProgramOptions {
    std::string working_dir;                   // "" = this process's
    std::size_t max_out_bytes = 512ull << 20;  // more stdout than this is an error: it is killed
    bool stderr_into_stdout = false;           // one log, in the order it was written
};

// Runs `argv` (ChildProcess::start) with stdin /dev/null, waits for it and returns its output.
ProgramOutput run_program(const std::vector<std::string>& argv, const ProgramOptions& options = {});

}  // namespace tclens::common
