#include "profiling/source/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace tclens::profiling {
namespace {

constexpr std::size_t kMaxErrBytes = 64 << 10;

void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

}  // namespace

ProgramOutput run_program(const std::vector<std::string>& argv, const std::string& working_dir,
                          std::size_t max_out_bytes) {
    ProgramOutput output;
    if (argv.empty() || argv.front().empty()) {
        output.error = "no program to run";
        return output;
    }
    int out_pipe[2] = {-1, -1};
    int err_pipe[2] = {-1, -1};
    if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0) {
        output.error = std::string("cannot create a pipe: ") + std::strerror(errno);
        close_fd(out_pipe[0]);
        close_fd(out_pipe[1]);
        return output;
    }
    // Everything the child needs is prepared before fork: after it, only async-signal-safe calls.
    std::vector<char*> args;
    for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    const char* dir = working_dir.empty() ? nullptr : working_dir.c_str();

    const pid_t pid = ::fork();
    if (pid < 0) {
        output.error = std::string("cannot start ") + argv.front() + ": " + std::strerror(errno);
        close_fd(out_pipe[0]);
        close_fd(out_pipe[1]);
        close_fd(err_pipe[0]);
        close_fd(err_pipe[1]);
        return output;
    }
    if (pid == 0) {
        if (::dup2(out_pipe[1], STDOUT_FILENO) < 0 || ::dup2(err_pipe[1], STDERR_FILENO) < 0) {
            ::_exit(126);
        }
        const int null_fd = ::open("/dev/null", O_RDONLY);
        if (null_fd >= 0) ::dup2(null_fd, STDIN_FILENO);
        if (dir != nullptr && ::chdir(dir) != 0) ::_exit(126);
        ::execv(args[0], args.data());
        ::_exit(127);
    }
    close_fd(out_pipe[1]);
    close_fd(err_pipe[1]);

    bool cut = false;
    pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
    char chunk[1 << 16];
    while (fds[0].fd >= 0 || fds[1].fd >= 0) {
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0) continue;
            const ssize_t got = ::read(fds[i].fd, chunk, sizeof chunk);
            if (got <= 0) {
                if (got < 0 && errno == EINTR) continue;
                close_fd(i == 0 ? out_pipe[0] : err_pipe[0]);
                fds[i].fd = -1;
                continue;
            }
            std::string& sink = i == 0 ? output.out : output.err;
            const std::size_t limit = i == 0 ? max_out_bytes : kMaxErrBytes;
            if (sink.size() + static_cast<std::size_t>(got) > limit) {
                if (i == 0) cut = true;
                sink.append(chunk, limit - std::min(limit, sink.size()));
            } else {
                sink.append(chunk, static_cast<std::size_t>(got));
            }
        }
        if (cut) break;
    }
    if (cut) ::kill(pid, SIGKILL);
    close_fd(out_pipe[0]);
    close_fd(err_pipe[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (cut) {
        output.error = argv.front() + " printed more than " + std::to_string(max_out_bytes >> 20) +
                       " MiB; stopped it";
        return output;
    }
    if (WIFEXITED(status)) {
        output.exit_status = WEXITSTATUS(status);
        if (output.exit_status == 127) output.error = "cannot run " + argv.front();
    } else {
        output.error = argv.front() + " was killed by signal " + std::to_string(WTERMSIG(status));
    }
    return output;
}

}  // namespace tclens::profiling
