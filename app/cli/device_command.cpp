// `tclens device [--json]`: the facts of every GPU (as in the Device panel), or why none.

#include <CLI/CLI.hpp>
#include <cstdio>

#include "app/cli/commands.h"
#include "app/exit_codes.h"
#include "profiling/device_info.h"
#include "profiling/device_json.h"

namespace tclens::cli {
namespace {

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

}  // namespace

void add_device_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand("device", "Show the GPUs and the facts that shape a GEMM");
    auto json = std::make_shared<bool>(false);
    command->add_flag("--json", *json, "Machine-readable output");
    command->callback([json, &exit_code] {
        const profiling::SystemReport report = profiling::query_system();
        if (*json) {
            std::printf("%s\n", profiling::to_json(report).dump(2).c_str());
        } else {
            print_table(report);
        }
        exit_code = kExitOk;
    });
}

}  // namespace tclens::cli
