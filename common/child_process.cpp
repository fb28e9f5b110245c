#include "common/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>
#include <utility>

extern char** environ;

namespace tclens::common {
namespace {

constexpr std::size_t kMaxErrBytes = 64 << 10;

void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

// A pipe whose two ends close on exec (the child gets its end through dup2).
struct Pipe {
    int read = -1;
    int write = -1;
    ~Pipe() {
        close_fd(read);
        close_fd(write);
    }
    bool open() {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) != 0) return false;
        read = fds[0];
        write = fds[1];
        return true;
    }
    int take_read() { return std::exchange(read, -1); }
    int take_write() { return std::exchange(write, -1); }
};

// The signals a child dies of, by name (sigabbrev_np needs glibc 2.32).
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

// The spawn attributes of ChildOptions: the signal mask and defaults, and the process group.
class SpawnAttributes {
  public:
    explicit SpawnAttributes(bool own_process_group) {
        posix_spawnattr_init(&attributes_);
        short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
        if (own_process_group) flags |= POSIX_SPAWN_SETPGROUP;
        posix_spawnattr_setflags(&attributes_, flags);
        posix_spawnattr_setpgroup(&attributes_, 0);
        sigset_t none, defaults;
        sigemptyset(&none);
        posix_spawnattr_setsigmask(&attributes_, &none);
        sigemptyset(&defaults);
        for (int signal_number : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT})
            sigaddset(&defaults, signal_number);
        posix_spawnattr_setsigdefault(&attributes_, &defaults);
    }
    ~SpawnAttributes() { posix_spawnattr_destroy(&attributes_); }
    const posix_spawnattr_t* get() const { return &attributes_; }

  private:
    posix_spawnattr_t attributes_;
};

// What the child does with its file descriptors between fork and exec.
class FileActions {
  public:
    FileActions() { posix_spawn_file_actions_init(&actions_); }
    ~FileActions() { posix_spawn_file_actions_destroy(&actions_); }
    void dup2(int fd, int to) { posix_spawn_file_actions_adddup2(&actions_, fd, to); }
    void open_null(int to) {
        posix_spawn_file_actions_addopen(&actions_, to, "/dev/null", O_RDONLY, 0);
    }
    void chdir(const std::string& dir) {
        posix_spawn_file_actions_addchdir_np(&actions_, dir.c_str());
    }
    const posix_spawn_file_actions_t* get() const { return &actions_; }

  private:
    posix_spawn_file_actions_t actions_;
};

}  // namespace

std::unique_ptr<ChildProcess> ChildProcess::start(const std::vector<std::string>& argv,
                                                  const ChildOptions& options, std::string& error) {
    if (argv.empty() || argv.front().empty()) {
        error = "no program to run";
        return nullptr;
    }
    Pipe in, out, err;
    const bool err_pipe = options.stderr_to == ChildStderr::kPipe;
    if ((options.stdin_pipe && !in.open()) || !out.open() || (err_pipe && !err.open())) {
        error = std::string("cannot make a pipe: ") + std::strerror(errno);
        return nullptr;
    }
    FileActions actions;
    if (options.stdin_pipe) {
        actions.dup2(in.read, STDIN_FILENO);
    } else {
        actions.open_null(STDIN_FILENO);
    }
    actions.dup2(out.write, STDOUT_FILENO);
    if (err_pipe) actions.dup2(err.write, STDERR_FILENO);
    if (options.stderr_to == ChildStderr::kIntoStdout) actions.dup2(out.write, STDERR_FILENO);
    if (!options.working_dir.empty()) actions.chdir(options.working_dir);
    const SpawnAttributes attributes(options.own_process_group);

    std::vector<char*> args;
    for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    pid_t pid = -1;
    const int spawned =
        posix_spawnp(&pid, args[0], actions.get(), attributes.get(), args.data(), environ);
    if (spawned != 0) {
        error = "cannot run " + argv.front() + ": " + std::strerror(spawned);
        return nullptr;
    }
    std::unique_ptr<ChildProcess> child(new ChildProcess());
    child->pid_ = pid;
    child->own_group_ = options.own_process_group;
    child->to_child_ = in.take_write();
    child->from_child_ = out.take_read();
    child->err_from_child_ = err.take_read();
    return child;
}

ChildProcess::~ChildProcess() {
    if (!status_) kill();
    close_stdin();
    close_output();
}

void ChildProcess::close_stdin() { close_fd(to_child_); }

void ChildProcess::close_output() {
    close_fd(from_child_);
    close_fd(err_from_child_);
}

void ChildProcess::reaped(int wait_status) {
    status_ = wait_status;
    // What it started may still hold its group (a shell's children): end them too.
    if (own_group_) ::kill(-pid_, SIGKILL);
}

void ChildProcess::kill() {
    if (status_ || pid_ <= 0) return;
    if (own_group_) ::kill(-pid_, SIGKILL);  // the group it leads
    ::kill(pid_, SIGKILL);                   // it, in case it left the group
    wait();
}

int ChildProcess::wait() {
    if (status_) return *status_;
    int wait_status = 0;
    while (::waitpid(pid_, &wait_status, 0) < 0 && errno == EINTR) {
    }
    reaped(wait_status);
    return wait_status;
}

std::optional<int> ChildProcess::wait_for(std::chrono::milliseconds timeout) {
    if (status_) return status_;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        int wait_status = 0;
        const pid_t done = ::waitpid(pid_, &wait_status, WNOHANG);
        if (done == pid_) {
            reaped(wait_status);
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

namespace {

// Reads the child's stdout (and stderr, when a pipe) to their ends into `output`; false when
// stdout passed `max_out_bytes` (what fits is kept, the rest is not read).
bool read_output(ChildProcess& child, std::size_t max_out_bytes, ProgramOutput& output) {
    pollfd fds[2] = {{child.from_child(), POLLIN, 0}, {child.err_from_child(), POLLIN, 0}};
    char chunk[1 << 16];
    while (fds[0].fd >= 0 || fds[1].fd >= 0) {
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            return true;
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0) continue;
            const ssize_t got = ::read(fds[i].fd, chunk, sizeof chunk);
            if (got <= 0) {
                if (got < 0 && errno == EINTR) continue;
                fds[i].fd = -1;
                continue;
            }
            std::string& sink = i == 0 ? output.out : output.err;
            const std::size_t limit = i == 0 ? max_out_bytes : kMaxErrBytes;
            if (sink.size() + static_cast<std::size_t>(got) <= limit) {
                sink.append(chunk, static_cast<std::size_t>(got));
                continue;
            }
            sink.append(chunk, limit - std::min(limit, sink.size()));
            if (i == 0) return false;
        }
    }
    return true;
}

}  // namespace

ProgramOutput run_program(const std::vector<std::string>& argv, const ProgramOptions& options) {
    ProgramOutput output;
    ChildOptions child_options;
    child_options.working_dir = options.working_dir;
    child_options.stderr_to =
        options.stderr_into_stdout ? ChildStderr::kIntoStdout : ChildStderr::kPipe;
    const std::unique_ptr<ChildProcess> child =
        ChildProcess::start(argv, child_options, output.error);
    if (!child) return output;
    const bool whole = read_output(*child, options.max_out_bytes, output);
    if (!whole) child->kill();
    child->close_output();
    const int status = child->wait();
    if (!whole) {
        output.error = argv.front() + " printed more than " +
                       std::to_string(options.max_out_bytes >> 20) + " MiB; stopped it";
    }
    if (WIFEXITED(status)) {
        output.exit_status = WEXITSTATUS(status);
    } else {
        output.exit_status = 128 + WTERMSIG(status);
        if (whole) {
            output.error =
                argv.front() + " was killed by signal " + std::to_string(WTERMSIG(status));
        }
    }
    return output;
}

}  // namespace tclens::common
