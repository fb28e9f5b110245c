// `tclens worker` in a client built without CUDA (TCLENS_CLIENT_ONLY): this tclens runs no GPU
// code, so it has no worker to serve. The command stays, so that a client that starts its own
// worker (no --remote, no --worker) and a user who types it both get one line saying where a
// worker runs instead, and exit 3 (needs a resource). The full build's command:
// worker_command.cpp.

#include <CLI/CLI.hpp>
#include <cstdio>

#include "app/cli/commands.h"
#include "app/exit_codes.h"

namespace tclens::cli {

void add_worker_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "worker",
        "Not in this build: a client without CUDA runs its GPU work in a worker on a GPU "
        "machine (--remote [user@]host, --worker CMD, File > Connect to GPU server)");
    command->allow_extras();  // whatever a client passes (--gpu N), the answer is the same
    command->callback([&exit_code] {
        std::fprintf(stderr,
                     "tclens: no GPU here: this tclens is a client built without CUDA and runs no "
                     "worker; use --remote [user@]host (or --worker CMD) to reach one on a GPU "
                     "machine\n");
        exit_code = kExitNeedsResource;
    });
}

}  // namespace tclens::cli
