// `tclens worker` in a client built without CUDA (TCLENS_CLIENT_ONLY): this tclens runs no GPU
// code. It still speaks the worker protocol, as a worker on a machine without a GPU does: its
// hello names no device and says why, and every other request (but shutdown) is refused for want
// of a GPU. So a client that starts its own worker (no --remote, no --worker) gets the line every
// GPU job gives where there is no GPU, "no GPU on <host> (...)", exit 3, and the GUI says it in
// its status bar. Typed at a terminal, it says so in one line, exit 3. The full build's command:
// worker_command.cpp.

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "app/cli/commands.h"
#include "app/exit_codes.h"
#include "app/worker/server.h"

namespace tclens::cli {
namespace {

constexpr const char* kWhyNoGpu =
    "this tclens is a client built without CUDA and runs no GPU work; use --remote "
    "[user@]host (or --worker CMD) to reach a worker on a GPU machine";

class ClientBuildWorker : public worker::RequestHandler {
  public:
    void handle(const worker::Request& request, worker::Replier& reply) override {
        if (const auto* hello = std::get_if<worker::HelloRequest>(&request.body)) {
            if (const std::string refusal = worker::protocol_refusal(hello->protocol);
                !refusal.empty()) {
                reply.error(worker::ErrorKind::kProtocol, refusal);
                return;
            }
            // No instruction mixes either: this build has no SASS census to send.
            worker::HelloResult result = worker::this_worker_hello();
            result.system.no_gpu_reason = kWhyNoGpu;
            reply.result(worker::to_json(result));
        } else if (std::holds_alternative<worker::ShutdownRequest>(request.body)) {
            reply.result({});
        } else {
            reply.error(worker::ErrorKind::kNeedsResource, kWhyNoGpu);
        }
    }
};

}  // namespace

void add_worker_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "worker",
        "Answer the worker protocol without a GPU: this client, built without CUDA, runs GPU work "
        "in a worker on a GPU machine (--remote [user@]host, --worker CMD, File > Connect to GPU "
        "server)");
    command->allow_extras();  // whatever a client passes (--gpu N), the answer is the same
    command->callback([&exit_code] {
        if (isatty(STDIN_FILENO)) {
            std::fprintf(stderr, "tclens: no GPU here: %s\n", kWhyNoGpu);
            exit_code = kExitNeedsResource;
            return;
        }
        ClientBuildWorker worker;
        exit_code = worker::serve(STDIN_FILENO, STDOUT_FILENO, worker);
    });
}

}  // namespace tclens::cli
