// `tclens device [--json] [--worker CMD | --remote HOST] [--time-limit S]`: the facts of every GPU
// (as in the Device panel), or why none. The report is the hello of a worker (app/worker/, the
// one path to the GPU): the machine's where the worker runs, named by its host with --remote.
// Without a GPU the report says why and the exit code is still 0; a worker that cannot start is
// one line and exit 3.

#include <CLI/CLI.hpp>
#include <cstdio>

#include "app/cli/commands.h"
#include "app/cli/worker_calls.h"
#include "app/exit_codes.h"
#include "profiling/device_info.h"
#include "profiling/device_json.h"

namespace tclens::cli {
namespace {

struct DeviceOptions {
    bool json = false;
    WorkerOptions worker;
};

void print_table(const profiling::SystemReport& report) {
    std::printf("%s\n", profiling::versions_summary(report).c_str());
    if (!report.has_gpu()) {
        std::printf("%s\nreason: %s\n", profiling::system_summary(report).c_str(),
                    report.no_gpu_reason.c_str());
    }
    for (const auto& device : report.devices) {
        std::printf("\nGPU %d\n", device.index);
        for (const auto& [label, value] : profiling::describe_device(device)) {
            std::printf("  %-32s %s\n", label.c_str(), value.c_str());
        }
    }
}

int run_device(const DeviceOptions& options) {
    worker::WorkerClient client(client_options(options.worker));
    const worker::Reply hello = client.connect();
    if (!hello.ok()) return report_failure(hello);
    const profiling::SystemReport& report = client.worker().system;
    // With --remote the report names the machine it describes: the host the worker answered on.
    const bool remote = options.worker.remote.has_value();
    if (options.json) {
        nlohmann::json out = profiling::to_json(report);
        if (remote) out["host"] = client.worker().host;
        std::printf("%s\n", out.dump(2).c_str());
    } else {
        if (remote) std::printf("host: %s\n", client.worker().host.c_str());
        print_table(report);
    }
    return kExitOk;
}

}  // namespace

void add_device_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "device", "Show the GPUs and the facts that shape a GEMM, as a worker sees them");
    auto options = std::make_shared<DeviceOptions>();
    command->add_flag("--json", options->json, "Machine-readable output");
    add_worker_options(*command, options->worker);
    command->callback([options, &exit_code] { exit_code = run_device(*options); });
}

}  // namespace tclens::cli
