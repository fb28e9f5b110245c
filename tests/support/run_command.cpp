#include "tests/support/run_command.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

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

std::string read_and_remove(const std::string& path) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    std::remove(path.c_str());
    return text.str();
}

}  // namespace

std::string temp_path(const std::string& name) {
    return (std::filesystem::temp_directory_path() /
            ("tclens_test_" + std::to_string(getpid()) + "_" + name))
        .string();
}

CommandResult run_command(const std::string& command) {
    const std::string out_path = temp_path("stdout"), err_path = temp_path("stderr");
    const int status = std::system((command + " >" + out_path + " 2>" + err_path).c_str());
    CommandResult result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = read_and_remove(out_path);
    result.err = read_and_remove(err_path);
    return result;
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
