// `tclens worker`: the process that compiles, loads and runs users' kernels (and ladder rungs and
// cuBLAS next to them), so that user code never runs in the CLI's or the GUI's process. It reads
// requests on stdin and writes messages on stdout, one JSON object per line
// (docs/worker-protocol.md); tclens starts it itself (`--kernel`, `tclens watch`), and
// `--worker 'ssh host tclens worker'` runs it on another machine.
//
// Before serving, the protocol moves off file descriptors 0 and 1 onto private copies: fd 1
// becomes a copy of stderr and fd 0 reads /dev/null, so what users' code prints (printf,
// std::cout, device printf) lands on stderr and cannot break a message, nor can it read a
// request. Exit codes: 0 after a shutdown request or the end of the input, 1 after a kernel
// killed the CUDA context (the worker ends at once, without touching that context again).

#include <fcntl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "app/exit_codes.h"
#include "app/worker/server.h"
#include "app/worker/session.h"
#include "common/text.h"

namespace tclens::cli {
namespace {

// --gpu N: the worker sees only the N-th GPU it would see (CUDA_VISIBLE_DEVICES, narrowed
// before CUDA starts), so N workers of one host each run on a GPU of their own. "" or one line.
std::string pin_gpu(int gpu) {
    const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
    std::string chosen = std::to_string(gpu);
    if (visible != nullptr && *visible != '\0') {
        const std::vector<std::string> list = common::split_list(visible);
        if (gpu >= int(list.size())) {
            return "--gpu " + std::to_string(gpu) + ": this worker sees " +
                   std::to_string(list.size()) + " GPU(s) (CUDA_VISIBLE_DEVICES=" + visible +
                   "), 0 to " + std::to_string(int(list.size()) - 1);
        }
        chosen = list[std::size_t(gpu)];
    }
    setenv("CUDA_VISIBLE_DEVICES", chosen.c_str(), 1);
    return "";
}

int run_worker() {
    std::fflush(stdout);
    const int protocol_out = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    const int protocol_in = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
    const int null_in = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (protocol_out < 0 || protocol_in < 0 || null_in < 0 ||
        dup2(STDERR_FILENO, STDOUT_FILENO) < 0 || dup2(null_in, STDIN_FILENO) < 0) {
        std::perror("tclens worker: cannot set up its pipes");
        return kExitFailure;
    }
    close(null_in);
    auto session = std::make_unique<worker::WorkerSession>();
    const int code = worker::serve(protocol_in, protocol_out, *session);
    if (code == worker::kWorkerExitLost) {
        // The CUDA context is dead: leave without the session's or the runtime's clean-up
        // touching it again.
        std::fflush(nullptr);
        _exit(code);
    }
    return code;
}

}  // namespace

void add_worker_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "worker",
        "Serve the worker protocol on stdin/stdout (docs/worker-protocol.md): compiles, loads "
        "and runs users' kernels for a client; tclens starts it itself");
    auto gpu = std::make_shared<int>(-1);
    command
        ->add_option("--gpu", *gpu,
                     "Run on this GPU only (0-63, of those CUDA_VISIBLE_DEVICES shows): one "
                     "worker per GPU of a host")
        ->check(CLI::Range(0, 63));
    command->callback([gpu, &exit_code] {
        if (*gpu >= 0) {
            if (const std::string bad = pin_gpu(*gpu); !bad.empty()) {
                std::fprintf(stderr, "tclens: %s\n", bad.c_str());
                exit_code = kExitUsage;
                return;
            }
        }
        exit_code = run_worker();
    });
}

}  // namespace tclens::cli
