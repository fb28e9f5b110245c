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
#include <memory>

#include "app/cli/commands.h"
#include "app/exit_codes.h"
#include "app/worker/server.h"
#include "app/worker/session.h"

namespace tclens::cli {
namespace {

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
    command->callback([&exit_code] { exit_code = run_worker(); });
}

}  // namespace tclens::cli
