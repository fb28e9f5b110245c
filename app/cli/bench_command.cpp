// `tclens bench [--kernels a,b,...] [--kernel path.cu[:NAME][:TYPE] ...] [--mnk MxNxK ...]
// [--preset lab6|llm|square] [--json|--csv] [--error-map out.png|out.svg]`:
// runs kernels of the ladder next to their same-run cuBLAS references (kernels/bench.h) and
// prints, per kernel and size, the median time, TFLOP/s, % of cuBLAS, % of the measured peak
// and the error against the reference. Unverified results are marked and get no numbers; a run
// that failed verification also gets its error map's summary (and --error-map draws the first).
// Progress goes to stderr, one line per run.
// With --kernel (users' kernels, docs/your-kernel.md), the whole bench runs in a worker process
// (app/worker/, started by the client here): the users' kernels, the --kernels rungs (none by
// default) and the same-run cuBLAS references, printed as above with the users' rows at the end
// of each size. Without --kernel nothing changes: the rungs run in this process.

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/usage_error.h"
#include "app/cli/worker_calls.h"
#include "app/exit_codes.h"
#include "common/text.h"
#include "kernels/bench.h"
#include "kernels/fault_injection.h"
#include "kernels/problem_text.h"
#include "kernels/registry.h"
#include "kernels/user/kernel_ref.h"
#include "profiling/bench_json.h"
#include "profiling/device_info.h"
#include "profiling/device_json.h"

namespace tclens::cli {
namespace {

struct BenchOptions {
    std::vector<std::string> kernels;
    std::vector<std::string> sizes;
    std::string preset;
    int runs = 30;
    int warmup = 5;
    std::uint64_t seed = 1;
    bool json = false;
    bool csv = false;
    bool no_peak = false;
    bool no_reference = false;
    std::vector<std::string> user_kernels;  // --kernel path.cu[:NAME][:TYPE]
    std::string error_map;                  // --error-map out.png|out.svg
    WorkerOptions worker;
};

std::string number(double value, const char* format) {
    if (value <= 0) return "-";
    char text[32];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

void print_table(const kernels::BenchReport& report) {
    if (!report.peak_error.empty())
        std::printf("measured peak: unavailable (%s)\n", report.peak_error.c_str());
    for (const kernels::PeakMeasurement& peak : report.peaks) {
        std::printf("measured peak %-4s %8.1f TFLOP/s  (%s)\n",
                    kernels::precision_name(peak.precision), peak.tflops, peak.instruction.c_str());
    }
    // The other instructions' own ceilings, e.g. mma.sync's for the rungs built on it.
    for (const kernels::PeakMeasurement& measured : report.instruction_peaks) {
        const bool is_peak =
            std::any_of(report.peaks.begin(), report.peaks.end(),
                        [&](const auto& peak) { return peak.instruction == measured.instruction; });
        if (is_peak) continue;
        std::printf("  also       %-4s %8.1f TFLOP/s  (%s)\n",
                    kernels::precision_name(measured.precision), measured.tflops,
                    measured.instruction.c_str());
    }
    std::printf("\n%-24s %-5s %-16s %9s %9s %8s %7s %8s %9s  %s\n", "kernel", "type", "MxNxK",
                "median ms", "TFLOP/s", "%cuBLAS", "%peak", "xSGEMM", "rel.err", "status");
    for (const kernels::BenchRow& row : report.rows) {
        const kernels::RunResult& r = row.result;
        const bool shown = r.counts();
        const bool ran = r.skipped.empty() && r.error.empty();
        std::printf("%-24s %-5s %-16s %9s %9s %8s %7s %8s %9s  %s\n", r.kernel_id.c_str(),
                    kernels::precision_name(r.precision), kernels::problem_text(r.problem).c_str(),
                    shown ? number(r.median_ms, "%.3f").c_str() : "-",
                    shown ? number(r.tflops, "%.1f").c_str() : "-",
                    shown ? number(row.pct_of_reference, "%.1f%%").c_str() : "-",
                    shown ? number(row.pct_of_peak, "%.1f%%").c_str() : "-",
                    shown ? number(row.speedup_vs_sgemm, "%.2fx").c_str() : "-",
                    ran ? number(r.check.rel_rms_error, "%.1e").c_str() : "-",
                    kernels::run_status(r).c_str());
    }
    std::printf(
        "\n%%cuBLAS: of the same-precision cuBLAS call in this run; %%peak: of the measured peak "
        "above; xSGEMM: TF32 rows vs cublas.sgemm; rel.err: relative RMS error vs the reference "
        "(fp64 CPU or cuBLAS FP32), checked before timing\n");
}

void print_csv(const kernels::BenchReport& report) {
    const std::vector<std::string> keys = {"kernel",
                                           "rung",
                                           "precision",
                                           "m",
                                           "n",
                                           "k",
                                           "verified",
                                           "rel_rms_error",
                                           "median_ms",
                                           "tflops",
                                           "pct_of_cublas",
                                           "pct_of_peak",
                                           "speedup_vs_sgemm",
                                           "reference",
                                           "skipped",
                                           "error"};
    std::string line = common::join(keys, ",");
    std::printf("%s\n", line.c_str());
    for (const kernels::BenchRow& row : report.rows) {
        const nlohmann::json j = profiling::to_json(row);
        line.clear();
        for (std::size_t i = 0; i < keys.size(); ++i) {
            const nlohmann::json& v = j[keys[i]];
            std::string cell = v.is_null() ? "" : v.is_string() ? v.get<std::string>() : v.dump();
            if (cell.find_first_of(",\"") != std::string::npos) {
                std::string quoted = "\"";
                for (char c : cell) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
                cell = quoted + "\"";
            }
            line += (i == 0 ? "" : ",") + cell;
        }
        std::printf("%s\n", line.c_str());
    }
}

// Prints the report as --json, --csv or the table, with the device that ran it.
void print_report(const BenchOptions& options, const kernels::BenchReport& report,
                  const profiling::SystemReport& system) {
    if (options.json) {
        nlohmann::json out = profiling::to_json(report);
        out["device"] = profiling::to_json(system);
        out["runs_per_result"] = options.runs;
        out["warmup_runs"] = options.warmup;
        out["seed"] = options.seed;
        std::printf("%s\n", out.dump(2).c_str());
    } else if (options.csv) {
        print_csv(report);
    } else {
        std::printf("%s\n%s\n\n", profiling::versions_summary(system).c_str(),
                    profiling::system_summary(system).c_str());
        print_table(report);
    }
}

// 1 when a run that was not skipped errored, failed verification or was refused, else 0.
int report_exit_code(const kernels::BenchReport& report) {
    for (const kernels::BenchRow& row : report.rows) {
        if (row.result.failed()) return kExitFailure;
    }
    return kExitOk;
}

// The bench with users' kernels, or on a worker the user chose (--worker, --remote): everything
// runs in a worker.
int run_bench_in_worker(const BenchOptions& options,
                        const std::vector<kernels::GemmProblem>& problems,
                        const std::vector<std::string>& ids) {
    worker::WorkerClient client(client_options(options.worker));
    if (const int code = check_remote_gpu(client, options.worker); code != kExitOk) return code;
    const ProgressLines progress("bench");
    std::vector<worker::LoadResult> loaded;
    const int load_code = load_kernels(client, options.user_kernels, {}, false, progress, loaded);
    if (load_code != kExitOk) return load_code;
    worker::BenchRequest request;
    request.kernels = ids;
    for (const worker::LoadResult& kernel : loaded) {
        if (std::find(request.kernels.begin(), request.kernels.end(), kernel.id) !=
            request.kernels.end()) {
            return usage_error("two --kernel files load as " + kernel.id +
                               ": name their functions (path.cu:NAME) or rename one");
        }
        request.kernels.push_back(kernel.id);
    }
    request.problems = problems;
    request.runs = options.runs;
    request.warmup = options.warmup;
    request.seed = options.seed;
    request.peaks = !options.no_peak;
    request.references = !options.no_reference;
    worker::Reply reply = client.call(request, progress);
    progress.done();
    worker::BenchResult result;
    if (!worker::read_result(reply, "bench", worker::bench_from_json, result))
        return report_failure(reply);
    print_report(options, result.report, client.worker().system);
    const int map_code = print_error_maps(result.report, options.error_map);
    const int code = report_exit_code(result.report);
    return code != kExitOk ? code : map_code;
}

int run_bench_command(const BenchOptions& options) {
    if (options.json && options.csv) return usage_error("--json and --csv are exclusive: pick one");
    std::string size_error;
    std::vector<kernels::GemmProblem> problems =
        kernels::parse_problems(options.sizes, options.preset, size_error);
    if (!size_error.empty()) return usage_error(size_error);
    if (problems.empty()) problems.push_back({4096, 4096, 4096});
    if (!options.error_map.empty()) {
        if (const std::string bad = check_error_map_path(options.error_map); !bad.empty())
            return usage_error(bad);
    }
    for (const std::string& id : options.kernels) {
        if (kernels::user::names_kernel_file(id)) {
            return usage_error("--kernels '" + id + "' names a file: give a user's kernel with " +
                               "--kernel " + id);
        }
    }
    if (const std::string bad = check_kernel_refs(options.user_kernels); !bad.empty())
        return usage_error(bad);

    std::vector<std::string> ids = options.kernels;
    if (ids.empty() && options.user_kernels.empty()) {
        for (const kernels::KernelDescriptor& k : kernels::all_kernels()) {
            if (k.rung > 0) ids.push_back(k.id);
        }
    }
    std::string error;
    if (!ids.empty() && kernels::bench_kernels(ids, error).empty()) return usage_error(error);
    if (!options.user_kernels.empty() || options.worker.chosen())
        return run_bench_in_worker(options, problems, ids);

    const profiling::SystemReport system = profiling::query_system();
    // An injected launch failure is reported on every row, GPU or not (fault_injection.h).
    const bool launch_fault = kernels::injected_fault() == kernels::Fault::kLaunchFailure;
    if (!system.has_gpu() && !launch_fault) {
        std::fprintf(stderr, "tclens: bench needs an NVIDIA GPU (%s); run it on a GPU machine\n",
                     system.no_gpu_reason.c_str());
        return kExitNeedsResource;
    }
    kernels::GemmRunner runner;
    if (!runner.init_error().empty() && !launch_fault) {
        std::fprintf(stderr, "tclens: %s\n", runner.init_error().c_str());
        return kExitNeedsResource;
    }
    kernels::BenchRequest request;
    request.kernel_ids = ids;
    request.problems = problems;
    request.run.timed_runs = options.runs;
    request.run.warmup_runs = options.warmup;
    request.run.seed = options.seed;
    request.measure_peaks = !options.no_peak;
    request.with_references = !options.no_reference;
    const bool tty = isatty(fileno(stderr)) != 0;
    if (request.measure_peaks) {
        std::fprintf(stderr, "bench: measuring peaks on %s ...%s",
                     system.has_gpu() ? system.devices.front().name.c_str() : "the GPU",
                     tty ? "\r" : "\n");
    }
    const kernels::BenchReport report = kernels::run_bench(
        request, runner,
        [tty](int index, int total, const kernels::KernelDescriptor& kernel,
              const kernels::GemmProblem& p) {
            std::fprintf(stderr, "bench [%d/%d] %s %s%s%s", index + 1, total, kernel.id.c_str(),
                         kernels::problem_text(p).c_str(), tty ? "\x1b[K" : "", tty ? "\r" : "\n");
        });
    if (tty) std::fprintf(stderr, "\x1b[K");

    print_report(options, report, system);
    const int map_code = print_error_maps(report, options.error_map);
    const int code = report_exit_code(report);
    return code != kExitOk ? code : map_code;
}

}  // namespace

void add_bench_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "bench", "Time ladder kernels against same-run cuBLAS (verified first); needs a GPU");
    auto options = std::make_shared<BenchOptions>();
    command
        ->add_option("--kernels", options->kernels,
                     "Kernel ids, comma-separated (default: every rung; see tclens kernels)")
        ->delimiter(',');
    command->add_option("--mnk", options->sizes,
                        "Problem size MxNxK (repeatable; default 4096x4096x4096)");
    command->add_option("--preset", options->preset,
                        "Sizes of a preset: " + kernels::preset_names());
    command
        ->add_option("--runs", options->runs, "Timed runs per result; the median counts (20-1000)")
        ->check(CLI::Range(20, 1000));
    command->add_option("--warmup", options->warmup, "Untimed runs first (0-100)")
        ->check(CLI::Range(0, 100));
    command->add_option("--seed", options->seed, "Seed of the random inputs");
    command->add_flag(
        "--no-reference", options->no_reference,
        "Run only the given kernels, not their cuBLAS references (no %cuBLAS column)");
    command->add_flag("--no-peak", options->no_peak,
                      "Skip measuring the device's peak (no %peak column)");
    command->add_flag("--json", options->json, "Machine-readable output");
    command->add_flag("--csv", options->csv, "One CSV row per kernel and size");
    command->add_option("--kernel", options->user_kernels,
                        "A kernel of yours, path.cu[:NAME][:TYPE] (docs/your-kernel.md; "
                        "repeatable): it runs in a worker process next to --kernels (none by "
                        "default) and its same-run cuBLAS reference");
    command->add_option("--error-map", options->error_map,
                        "Draw where C is wrong (PNG or SVG) for the first run that fails "
                        "verification");
    add_worker_options(*command, options->worker);
    command->callback([options, &exit_code] { exit_code = run_bench_command(*options); });
}

}  // namespace tclens::cli
