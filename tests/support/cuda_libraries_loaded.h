#pragma once
// Which CUDA libraries a tclens process itself loaded while it ran, from the dynamic loader's own
// log (LD_DEBUG=files, one file per process through LD_DEBUG_OUTPUT): the proof that a client (the
// CLI, the GUI) never creates a CUDA context in its own process, since a context needs the driver
// library, libcuda.so, which the CUDA runtime opens (dlopen) at its first call. The loader names a
// library it is asked to open before it searches for it, so an attempt shows even on a machine
// without a driver.
//
// Counted: libcuda.so* opened in any way, and libcupti*, libnvrtc*, libcublas*, libnvidia-ml*
// opened at run time (dlopen). A build that links CUPTI or cuBLAS maps them at start ("needed
// by"): loading is not calling, so those are not counted. The worker the process starts
// ($TCLENS_WORKER, here `tclens worker` with the loader's log turned off) is where the GPU work
// belongs and is not looked at; the shells that start it load no CUDA library.

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"

namespace tclens::test {

struct LoaderLog {
    CommandResult result;
    std::vector<std::string> cuda_loads;  // "libcuda.so.1 dynamically loaded by ... (ld.1234)"
    bool logged = false;  // the loader wrote a log at all (else the check proves nothing)
};

using CommandRunner = std::function<CommandResult(const std::string& command)>;

// Runs `command` (a shell command line that starts tclens, e.g. kTclens + " --version") with
// `run` (run_command, run_under_xvfb), the loader logging every process it starts, the worker of
// $TCLENS_WORKER excepted.
inline LoaderLog run_logging_cuda_loads(
    const std::string& command, const std::string& tag,
    const CommandRunner& run = [](const std::string& line) { return run_command(line); }) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(testing::TempDir()) / ("tclens_loader_log_" + tag);
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string worker = "exec env -u LD_DEBUG -u LD_DEBUG_OUTPUT '" + kTclens + "' worker";
    LoaderLog log;
    log.result = run("env LD_DEBUG=files LD_DEBUG_OUTPUT=" + (dir / "ld").string() +
                     " TCLENS_WORKER=\"" + worker + "\" " + command);
    const std::regex cuda_file(R"(file=(lib(cuda\.so|cupti|nvrtc|cublas|nvidia-ml)[^ ]*) .*)");
    for (const auto& entry : fs::directory_iterator(dir)) {
        std::istringstream text(read_file(entry.path().string()));
        for (std::string line; std::getline(text, line);) {
            if (line.find("calling init:") != std::string::npos) log.logged = true;
            std::smatch found;
            if (!std::regex_search(line, found, cuda_file)) continue;
            const bool driver = found[2] == "cuda.so";
            if (driver || line.find("dynamically loaded by") != std::string::npos)
                log.cuda_loads.push_back(found.str(0) + " (" + entry.path().filename().string() +
                                         ")");
        }
    }
    fs::remove_all(dir);
    return log;
}

// The command ran (exit `exit_code`), the loader logged it, and it loaded no CUDA library.
inline void expect_no_cuda_loaded(
    const std::string& command, const std::string& tag, int exit_code = 0,
    const CommandRunner& run = [](const std::string& line) { return run_command(line); }) {
    const LoaderLog log = run_logging_cuda_loads(command, tag, run);
    EXPECT_EQ(log.result.exit_code, exit_code) << command << "\n" << log.result.err;
    EXPECT_TRUE(log.logged) << command << ": the loader wrote no log";
    for (const std::string& load : log.cuda_loads) ADD_FAILURE() << command << ": " << load;
}

}  // namespace tclens::test
