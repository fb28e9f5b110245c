// `tclens banks --list` and
// `tclens banks --swizzle S --pattern P [--rows R --row-bytes W] [--json] [--measure]`:
// the shared-memory bank model of one warp access pattern under one swizzle (viz/bank_model.h),
// as a table or as the bank JSON of docs/json-formats.md, optionally measured on the GPU with CUPTI
// (profiling/bank_measure.h) in a worker (app/worker/, a `bank_measure` request; --worker,
// --remote, --time-limit); the model itself is computed here, no GPU needed. P is a viz pattern or
// a kernel's own access, KERNEL/ACCESS (kernels/shared_access.h): that one brings its tile and,
// when --swizzle is not given, the kernel's swizzle.

#include <CLI/CLI.hpp>
#include <array>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/usage_error.h"
#include "app/cli/worker_calls.h"
#include "app/exit_codes.h"
#include "app/worker/gpu_calls.h"
#include "common/text.h"
#include "kernels/shared_access.h"
#include "profiling/bank_result.h"
#include "viz/bank_json.h"
#include "viz/bank_model.h"
#include "viz/bank_view.h"

namespace tclens::cli {
namespace {

struct BanksOptions {
    bool list = false;
    bool json = false;
    bool measure = false;
    std::string swizzle;
    std::string pattern;
    int rows = 0;
    int row_bytes = 0;
    int iterations = profiling::kDefaultBankIterations;
    CLI::Option* rows_option = nullptr;
    CLI::Option* row_bytes_option = nullptr;
    WorkerOptions worker;
};

// Banks with the same number of distinct words, in runs: {8,8,8,8,0,...} -> "0-3 x8";
// "-" when no bank is used.
std::string bank_summary(const std::array<int, viz::kBankCount>& bank_words) {
    std::vector<std::string> runs;
    for (int bank = 0; bank < viz::kBankCount;) {
        int last = bank;
        while (last + 1 < viz::kBankCount && bank_words[last + 1] == bank_words[bank]) {
            ++last;
        }
        if (bank_words[bank] > 0) {
            runs.push_back(std::to_string(bank) + (last > bank ? "-" + std::to_string(last) : "") +
                           " x" + std::to_string(bank_words[bank]));
        }
        bank = last + 1;
    }
    return runs.empty() ? "-" : common::join(runs, ", ");
}

std::string factor(int wavefronts, int ideal) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2fx",
                  ideal > 0 ? static_cast<double>(wavefronts) / ideal : 0.0);
    return text;
}

void print_list(bool json) {
    if (json) {
        nlohmann::json swizzles = nlohmann::json::array();
        for (const viz::NamedSwizzle& swizzle : viz::list_swizzles()) {
            swizzles.push_back({{"spec", swizzle.spec}, {"summary", swizzle.summary}});
        }
        nlohmann::json patterns = nlohmann::json::array();
        for (const viz::Pattern& pattern : viz::list_patterns()) {
            patterns.push_back({{"name", pattern.name},
                                {"summary", pattern.summary},
                                {"access_bytes", pattern.access_bytes},
                                {"is_store", pattern.is_store},
                                {"default_rows", pattern.default_tile.rows},
                                {"default_row_bytes", pattern.default_tile.row_bytes}});
        }
        nlohmann::json accesses = nlohmann::json::array();
        for (const kernels::KernelAccess& access : kernels::kernel_accesses()) {
            accesses.push_back({{"name", access.name},
                                {"kernel", access.kernel->id},
                                {"label", access.access->label},
                                {"operand", std::string(1, access.access->operand)},
                                {"pattern", access.pattern.name},
                                {"rows", access.tile.rows},
                                {"row_bytes", access.tile.row_bytes},
                                {"swizzle", access.swizzle.spec}});
        }
        std::printf("%s\n", nlohmann::json{{"swizzles", swizzles},
                                           {"patterns", patterns},
                                           {"kernel_accesses", accesses}}
                                .dump(2)
                                .c_str());
        return;
    }
    std::printf("swizzles (--swizzle):\n");
    for (const viz::NamedSwizzle& swizzle : viz::list_swizzles()) {
        std::printf("  %-12s %s\n", swizzle.spec.c_str(), swizzle.summary.c_str());
    }
    std::printf("\npatterns (--pattern), with the default tile (--rows x --row-bytes):\n");
    for (const viz::Pattern& pattern : viz::list_patterns()) {
        const std::string tile = std::to_string(pattern.default_tile.rows) + " x " +
                                 std::to_string(pattern.default_tile.row_bytes);
        std::printf("  %-18s %2d B %-5s %-9s %s\n", pattern.name.c_str(), pattern.access_bytes,
                    pattern.is_store ? "store" : "load", tile.c_str(), pattern.summary.c_str());
    }
    std::printf(
        "\nkernel accesses (--pattern KERNEL/ACCESS), each the first instance of one "
        "instruction of a kernel,\nwith its operand's tile and the kernel's swizzle "
        "(the default --swizzle):\n");
    for (const kernels::KernelAccess& access : kernels::kernel_accesses()) {
        const std::string tile =
            std::to_string(access.tile.rows) + " x " + std::to_string(access.tile.row_bytes);
        std::printf("  %-34s %-18s %-10s %s\n", access.name.c_str(), access.pattern.name.c_str(),
                    tile.c_str(), access.swizzle.spec.c_str());
    }
}

void print_measurement(const viz::BankReport& report, const worker::BankMeasureResult& result) {
    const profiling::BankMeasurement& measurement = result.measurement;
    const double model = profiling::model_wavefronts_per_request(report);
    const bool matches = measurement.wavefronts_per_request > model - 0.005 &&
                         measurement.wavefronts_per_request < model + 0.005;
    std::printf("\nmeasured on %s: %.2f wavefronts per instruction, model %.2f (%s)\n",
                result.device.c_str(), measurement.wavefronts_per_request, model,
                matches ? "matches" : "differs from the model");
    std::printf("  %d iterations x %d request(s), baseline launch subtracted; counter %s\n",
                measurement.iterations, measurement.requests, measurement.wavefront_metric.c_str());
    if (measurement.instructions_per_iteration >= 0) {
        std::printf("  instructions per iteration: %.2f (%s, expected %d)\n",
                    measurement.instructions_per_iteration, measurement.instruction_metric.c_str(),
                    measurement.requests);
    }
}

// `access`: the kernel access the report models, if --pattern named one.
void print_table(const viz::BankReport& report, const kernels::KernelAccess* access) {
    std::printf("%s under %s on a %d x %d-byte tile (%lld bytes of shared memory)\n",
                access ? access->name.c_str() : report.pattern.name.c_str(),
                report.swizzle.spec.c_str(), report.tile.rows, report.tile.row_bytes,
                static_cast<long long>(viz::storage_bytes(report.swizzle, report.tile)));
    if (access) {
        std::printf("  kernel   %s (rung %d) %s: %s on its %c tile of %d x %d bytes, swizzle %s\n",
                    access->kernel->id.c_str(), access->kernel->rung, access->access->label.c_str(),
                    access->pattern.name.c_str(), access->access->operand, access->tile.rows,
                    access->tile.row_bytes, access->swizzle.spec.c_str());
    }
    std::printf("  swizzle  %s\n", viz::describe(report.swizzle).c_str());
    std::printf("  pattern  %s: %s\n", report.pattern.name.c_str(), report.pattern.summary.c_str());
    for (const viz::RequestReport& request : report.requests) {
        std::printf("\nrequest %d: %d-byte %s, %zu lanes, %zu phase(s)\n", request.index,
                    request.access_bytes, request.is_store ? "store" : "load", request.lanes.size(),
                    request.phases.size());
        std::printf("  %-6s %-12s %10s %6s %8s  %s\n", "phase", "lanes", "wavefronts", "ideal",
                    "factor", "banks hit (bank range x distinct words)");
        for (const viz::PhaseReport& phase : request.phases) {
            std::printf("  %-6d %-12s %10d %6d %8s  %s\n", phase.index,
                        viz::ranges_text(phase.lanes, ",", "-").c_str(), phase.wavefronts, 1,
                        factor(phase.wavefronts, 1).c_str(),
                        bank_summary(phase.bank_words).c_str());
        }
        std::printf("  %-6s %-12s %10d %6d %8s\n", "all", "", request.wavefronts,
                    request.ideal_wavefronts,
                    factor(request.wavefronts, request.ideal_wavefronts).c_str());
    }
    std::printf("\ntotal: %d wavefronts, ideal %d, %d conflict wavefronts, conflict factor %s\n",
                report.total_wavefronts, report.ideal_wavefronts, report.conflict_wavefronts,
                factor(report.total_wavefronts, report.ideal_wavefronts).c_str());
}

// Measures `report` in a worker (a `bank_measure` request) and puts the number in it; returns
// kExitOk or prints the one-line error and returns its code.
int measure(viz::BankReport& report, const BanksOptions& options,
            worker::BankMeasureResult& result) {
    worker::WorkerClient client(client_options(options.worker));
    if (const int code = check_remote_gpu(client, options.worker); code != kExitOk) return code;
    const ProgressLines progress("banks");
    const worker::Reply reply =
        worker::measure_bank(client, report, options.iterations, result, terminal_only(progress));
    progress.done();
    if (!reply.ok()) return report_failure(reply);
    report.measured_wavefronts = result.measurement.wavefronts_per_request;
    return kExitOk;
}

int run_banks(const BanksOptions& options) {
    if (options.list) {
        print_list(options.json);
        return kExitOk;
    }
    const bool names_access = kernels::is_kernel_access_name(options.pattern);
    const bool needs_swizzle = options.swizzle.empty() && !names_access;
    if (needs_swizzle || options.pattern.empty()) {
        return usage_error(std::string("give ") + (needs_swizzle ? "--swizzle S" : "") +
                           (needs_swizzle && options.pattern.empty() ? " and " : "") +
                           (options.pattern.empty() ? "--pattern P" : "") +
                           ", or --list to see the allowed names");
    }
    std::optional<viz::Swizzle> swizzle;
    if (!options.swizzle.empty()) {
        const common::Expected<viz::Swizzle> parsed = viz::parse_swizzle(options.swizzle);
        if (!parsed) {
            return usage_error(parsed.error());
        }
        swizzle = *parsed;
    }
    std::optional<kernels::KernelAccess> access;
    std::optional<viz::Pattern> pattern;
    if (names_access) {
        const common::Expected<kernels::KernelAccess> parsed =
            kernels::parse_kernel_access(options.pattern);
        if (!parsed) {
            return usage_error(parsed.error());
        }
        access = *parsed;
        pattern = access->pattern;
        if (!swizzle) swizzle = access->swizzle;
    } else {
        const common::Expected<viz::Pattern> parsed = viz::parse_pattern(options.pattern);
        if (!parsed) {
            return usage_error(parsed.error());
        }
        pattern = *parsed;
    }
    viz::Tile tile = access ? access->tile : viz::default_tile(*pattern, *swizzle);
    if (options.rows_option->count() > 0) {
        tile.rows = options.rows;
    }
    if (options.row_bytes_option->count() > 0) {
        tile.row_bytes = options.row_bytes;
    }
    const common::Expected<viz::BankReport> model = viz::bank_requests(*swizzle, *pattern, tile);
    if (!model) {
        return usage_error(model.error());
    }
    viz::BankReport report = *model;
    std::optional<worker::BankMeasureResult> measurement;
    if (options.measure) {
        measurement.emplace();
        const int code = measure(report, options, *measurement);
        if (code != kExitOk) {
            return code;
        }
    }
    if (options.json) {
        nlohmann::json json = viz::bank_report_json(report);
        if (access) json["pattern"] = access->name;
        std::printf("%s\n", json.dump(2).c_str());
        return kExitOk;
    }
    print_table(report, access ? &*access : nullptr);
    if (measurement) {
        print_measurement(report, *measurement);
    }
    return kExitOk;
}

}  // namespace

void add_banks_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "banks", "Shared-memory bank conflicts of a warp access pattern under a swizzle");
    auto options = std::make_shared<BanksOptions>();
    command->add_flag("--list", options->list,
                      "List the swizzles, the patterns and the kernels' accesses");
    command->add_option("--swizzle", options->swizzle,
                        "none, pad:N, xor, cute:B,M,S, tma32, tma64 or tma128 (default for a "
                        "kernel access: the kernel's)");
    command->add_option("--pattern", options->pattern,
                        "Access pattern, or a kernel's access KERNEL/ACCESS (see --list)");
    options->rows_option = command->add_option(
        "--rows", options->rows, "Tile rows (default: the pattern's, or the kernel's tile)");
    options->row_bytes_option = command->add_option("--row-bytes", options->row_bytes,
                                                    "Tile row length in bytes (default: the "
                                                    "pattern's, or the kernel's tile)");
    command->add_flag("--json", options->json,
                      "Machine-readable output (bank JSON, docs/json-formats.md)");
    command->add_flag("--measure", options->measure,
                      "Also measure the wavefronts on the GPU with CUPTI (needs a GPU and "
                      "profiling permission)");
    command
        ->add_option("--iterations", options->iterations,
                     "Iterations of the measured access (with --measure)")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000000));
    add_worker_options(*command, options->worker);
    command->callback([options, &exit_code] { exit_code = run_banks(*options); });
}

}  // namespace tclens::cli
