#include "tests/support/run_command.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "tests/support/png_inspect.h"

namespace tclens::test {
namespace {

// This process's settings folder for the app: empty for each command, removed at exit.
class ConfigFolder {
  public:
    ConfigFolder() : path_(temp_path("config")) {}
    ~ConfigFolder() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    const std::string& emptied() const {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
        return path_;
    }

  private:
    std::string path_;
};

// A file name of this process no other command of it uses (tests run commands from threads too).
std::string command_file(const char* stream) {
    static std::atomic<int> next{0};
    return temp_path(std::string("command") + std::to_string(next++) + "." + stream);
}

}  // namespace

std::string read_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

BackgroundCommand::BackgroundCommand(const std::string& command)
    : command_(command), out_path_(command_file("out")), err_path_(command_file("err")) {
    pid_ = fork();
    if (pid_ == 0) {
        setpgid(0, 0);  // a group of its own: a time limit kills everything it started
        const int out = open(out_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const int err = open(err_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) _exit(127);
        execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    if (pid_ > 0) setpgid(pid_, pid_);  // also here, so that a kill cannot come before the child's
}

BackgroundCommand::~BackgroundCommand() {
    if (pid_ > 0 && !exited()) {
        kill(-pid_, SIGKILL);
        waitpid(pid_, &status_, 0);
    }
    std::remove(out_path_.c_str());
    std::remove(err_path_.c_str());
}

bool BackgroundCommand::exited() {
    if (pid_ <= 0 || reaped_) return true;
    siginfo_t info{};
    if (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) != 0 ||
        info.si_pid != pid_) {
        return false;
    }
    // Ended, not yet reaped, so its pid (the group's id) cannot be reused: what the shell left
    // running in its group (a server it started) is stopped with it, then the shell is reaped.
    kill(-pid_, SIGKILL);
    waitpid(pid_, &status_, 0);
    reaped_ = true;
    return true;
}

bool wait_for_file(const std::string& path,
                   const std::function<bool(const std::string& text)>& seen,
                   std::chrono::seconds limit, const std::function<bool()>& ended) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    for (;;) {
        const bool last = ended && ended();  // read once more after the end: it may say it
        if (seen(read_file(path))) return true;
        if (last || std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

bool BackgroundCommand::wait_for_output(const std::function<bool(const std::string& out)>& seen,
                                        std::chrono::seconds limit) {
    return wait_for_file(out_path_, seen, limit, [this] { return exited(); });
}

CommandResult BackgroundCommand::finish(std::chrono::seconds limit) {
    CommandResult result;
    if (pid_ < 0) {
        result.err = "cannot start a process for: " + command_ + "\n";
        return result;
    }
    // Polled from 1 ms up to 20 ms apart: a short command costs its caller next to nothing.
    const auto deadline = std::chrono::steady_clock::now() + limit;
    auto pause = std::chrono::microseconds(1000);
    bool timed_out = false;
    while (!exited()) {
        if (std::chrono::steady_clock::now() >= deadline) {
            timed_out = true;
            kill(-pid_, SIGKILL);
            waitpid(pid_, &status_, 0);
            reaped_ = true;
            break;
        }
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(20000));
    }
    result.exit_code = !timed_out && WIFEXITED(status_) ? WEXITSTATUS(status_) : -1;
    result.out = read_file(out_path_);
    result.err = read_file(err_path_);
    if (timed_out) {
        result.err += "killed after its time limit of " + std::to_string(limit.count()) +
                      " s: " + command_ + "\n";
    }
    return result;
}

std::string temp_path(const std::string& name) {
    return (std::filesystem::temp_directory_path() /
            ("tclens_test_" + std::to_string(getpid()) + "_" + name))
        .string();
}

CommandResult run_command(const std::string& command, std::chrono::seconds limit) {
    return BackgroundCommand(command).finish(limit);
}

CommandResult run_under_xvfb(const std::string& command, const std::string& screen) {
    constexpr int kAttempts = 4;
    static const ConfigFolder config;
    CommandResult result;
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
        const int first_display = 100 + (getpid() * 7 + attempt * 997) % 30000;
        // -noreset: Xvfb otherwise resets when the command's window closes and signals
        // xvfb-run again (SIGUSR1) while it removes its temporary folder; that race makes
        // xvfb-run exit 5 with "problem while cleaning up" and leaves the server running.
        result = run_command("XDG_CONFIG_HOME=" + config.emptied() + " xvfb-run -a -n " +
                             std::to_string(first_display) + " -s '-screen 0 " + screen +
                             "x24 -noreset' " + command);
        const bool server_failed = result.err.find("Xvfb failed to start") != std::string::npos ||
                                   result.err.find("cannot open a window") != std::string::npos ||
                                   result.err.find("cannot create an OpenGL") != std::string::npos;
        if (!server_failed) break;
    }
    return result;
}

bool is_one_line(const std::string& text) {
    return text.size() > 1 && text.find('\n') == text.size() - 1;
}

bool on_path(const std::string& program) {
    return run_command("command -v " + program).exit_code == 0;
}

PngFacts view_screenshot(const std::string& tclens, const std::string& view, int width, int height,
                         const std::string& settings, CommandResult& result) {
    const std::string path = temp_path(view + ".png");
    result =
        run_under_xvfb(tclens + " screenshot --view " + view + " --size " + std::to_string(width) +
                       "x" + std::to_string(height) + " " + settings + " --out " + path);
    PngFacts facts = inspect_png(path);
    std::remove(path.c_str());
    return facts;
}

bool tclens_sees_gpu(const std::string& tclens) {
    return run_command(tclens + " device --json").out.find("\"gpu_found\": true") !=
           std::string::npos;
}

}  // namespace tclens::test
