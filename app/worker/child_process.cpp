#include "app/worker/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

extern char** environ;

namespace tclens::worker {
namespace {

void close_fd(int& fd) {
    if (fd >= 0) close(fd);
    fd = -1;
}

// The signals a worker dies of, by name (sigabbrev_np needs glibc 2.32).
const char* signal_name(int number) {
    switch (number) {
        case SIGSEGV:
            return "SIGSEGV";
        case SIGABRT:
            return "SIGABRT";
        case SIGKILL:
            return "SIGKILL";
        case SIGBUS:
            return "SIGBUS";
        case SIGFPE:
            return "SIGFPE";
        case SIGILL:
            return "SIGILL";
        case SIGTERM:
            return "SIGTERM";
        case SIGINT:
            return "SIGINT";
        case SIGPIPE:
            return "SIGPIPE";
        case SIGHUP:
            return "SIGHUP";
        case SIGTRAP:
            return "SIGTRAP";
        default:
            return nullptr;
    }
}

}  // namespace

std::unique_ptr<ChildProcess> ChildProcess::start(const std::string& shell_command,
                                                  std::string& error) {
    int to_child[2] = {-1, -1};
    int from_child[2] = {-1, -1};
    if (pipe2(to_child, O_CLOEXEC) != 0 || pipe2(from_child, O_CLOEXEC) != 0) {
        error = std::string("cannot make pipes for the worker: ") + std::strerror(errno);
        for (int fd : {to_child[0], to_child[1], from_child[0], from_child[1]})
            if (fd >= 0) close(fd);
        return nullptr;
    }
    // posix_spawn, not fork: safe in a process with threads (the GUI's job runner).
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to_child[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, from_child[1], STDOUT_FILENO);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(
        &attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setpgroup(&attributes, 0);
    sigset_t none, defaults;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attributes, &none);
    sigemptyset(&defaults);
    for (int signal_number : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT})
        sigaddset(&defaults, signal_number);
    posix_spawnattr_setsigdefault(&attributes, &defaults);

    std::string shell = "/bin/sh", dash_c = "-c", command = shell_command;
    char* argv[] = {shell.data(), dash_c.data(), command.data(), nullptr};
    pid_t pid = -1;
    const int spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    close(to_child[0]);
    close(from_child[1]);
    if (spawned != 0) {
        close(to_child[1]);
        close(from_child[0]);
        error = std::string("cannot start /bin/sh for the worker: ") + std::strerror(spawned);
        return nullptr;
    }
    std::unique_ptr<ChildProcess> child(new ChildProcess());
    child->pid_ = pid;
    child->to_child_ = to_child[1];
    child->from_child_ = from_child[0];
    return child;
}

ChildProcess::~ChildProcess() {
    if (!status_) kill_group();
    close_fd(to_child_);
    close_fd(from_child_);
}

void ChildProcess::close_stdin() { close_fd(to_child_); }

void ChildProcess::kill_group() {
    if (status_ || pid_ <= 0) return;
    kill(-pid_, SIGKILL);  // the group the child leads (POSIX_SPAWN_SETPGROUP, 0)
    kill(pid_, SIGKILL);   // in case it left the group
    int wait_status = 0;
    while (waitpid(pid_, &wait_status, 0) < 0 && errno == EINTR) {
    }
    status_ = wait_status;
}

std::optional<int> ChildProcess::wait_for(std::chrono::milliseconds timeout) {
    if (status_) return status_;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        int wait_status = 0;
        const pid_t done = waitpid(pid_, &wait_status, WNOHANG);
        if (done == pid_) {
            status_ = wait_status;
            // What it started may still hold the group (a shell's children): end them too.
            kill(-pid_, SIGKILL);
            return status_;
        }
        if (done < 0 && errno != EINTR) return std::nullopt;
        if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

std::string ChildProcess::status_text(int wait_status) {
    if (WIFEXITED(wait_status)) {
        const int code = WEXITSTATUS(wait_status);
        // A shell whose command was killed by signal N exits with 128 + N.
        const char* name = code > 128 ? signal_name(code - 128) : nullptr;
        if (name != nullptr) {
            return "killed by signal " + std::to_string(code - 128) + " (" + name +
                   "), exit code " + std::to_string(code) + " from its shell";
        }
        return "exited with code " + std::to_string(code);
    }
    if (WIFSIGNALED(wait_status)) {
        const int number = WTERMSIG(wait_status);
        const char* name = signal_name(number);
        return "killed by signal " + std::to_string(number) +
               (name != nullptr ? std::string(" (") + name + ")" : "");
    }
    return "stopped (wait status " + std::to_string(wait_status) + ")";
}

}  // namespace tclens::worker
