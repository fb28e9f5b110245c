// `tclens bench [--kernels a,b,...] [--kernel path.cu[:NAME][:TYPE] ...] [--mnk MxNxK ...]
// [--preset lab6|llm|square[,...]] [--json|--csv] [--error-map out.png|out.svg] [--workers N]
// [--gpu N] [--worker CMD ...|--remote HOST ...]`: runs kernels of the ladder next to their
// same-run cuBLAS references (kernels/bench.h) and prints, per kernel and size, the median time,
// TFLOP/s, % of cuBLAS, % of the measured peak and the error against the reference. Unverified
// results are marked and get no numbers; a run that failed verification also gets its error
// map's summary (and --error-map draws the first). Progress goes to stderr, one line per run.
// Every bench runs in worker processes (app/worker/, started by the client here; --worker or
// $TCLENS_WORKER for another command, e.g. srun or ssh): rungs, kernels of yours
// (docs/your-kernel.md; their rows come at the end of each size) and the references. With
// --workers N, or several --worker or --remote, the sizes are spread over the workers
// (app/worker/bench_spread.h, docs/many-gpus.md), each on a GPU of its own, and every row names
// the worker that ran it. With --sweep N the sizes are N shapes drawn from --seed
// (kernels/shape_sweep.h), and the table gives way to the best kernel's ratio to cuBLAS per shape:
// their geometric mean, minimum and worst ten with the tile model's reason
// (kernels/sweep_summary.h).

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/usage_error.h"
#include "app/cli/worker_calls.h"
#include "app/exit_codes.h"
#include "app/worker/bench_spread.h"
#include "common/text.h"
#include "kernels/bench_selection.h"
#include "kernels/problem_text.h"
#include "kernels/registry.h"
#include "kernels/shape_sweep.h"
#include "kernels/sweep_summary.h"
#include "kernels/user/kernel_ref.h"
#include "profiling/bench_json.h"
#include "profiling/device_json.h"
#include "profiling/recording.h"
#include "viz/roofline.h"

namespace tclens::cli {
namespace {

struct BenchOptions {
    std::vector<std::string> kernels;
    std::vector<std::string> sizes;
    std::vector<std::string> presets;  // --preset a,b
    int sweep = 0;                     // --sweep N: N drawn shapes; 0: none
    int runs = 30;
    int warmup = 5;
    std::uint64_t seed = 1;
    bool json = false;
    bool csv = false;
    bool no_peak = false;
    bool no_reference = false;
    std::vector<std::string> user_kernels;  // --kernel path.cu[:NAME][:TYPE]
    std::string error_map;                  // --error-map out.png|out.svg
    int workers = 1;                        // --workers N
    int gpu = -1;                           // --gpu N; -1: the worker's first GPU
    SpreadWorkerOptions worker;             // --worker CMD ..., --remote host ..., --time-limit S
};

std::string number(double value, const char* format) {
    if (value <= 0) return "-";
    char text[32];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

// The worker column, shown when there was more than one worker: "" or "w2     ".
std::string worker_cell(const std::vector<int>& row_worker, std::size_t row, bool shown) {
    if (!shown) return "";
    char cell[16];
    std::snprintf(
        cell, sizeof cell, "%-7s",
        row < row_worker.size() ? ("w" + std::to_string(row_worker[row] + 1)).c_str() : "worker");
    return cell;
}

// The DRAM bandwidth the bench measured (its request's "dram"), bytes/s; 0 when not measured.
double measured_dram(const worker::SpreadBench& spread) {
    return spread.dram ? spread.dram->bytes_per_s : 0;
}

void print_table(const worker::SpreadBench& spread, bool several_workers) {
    const kernels::BenchReport& report = spread.report;
    const std::vector<int>& row_worker = spread.row_worker;
    const double dram = measured_dram(spread);
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
    if (dram > 0) {
        std::printf("measured DRAM    %8.2f TB/s     (%s)\n", dram / 1e12,
                    spread.dram->method.c_str());
    } else if (!spread.dram_error.empty()) {
        std::printf("measured DRAM: unavailable (%s)\n", spread.dram_error.c_str());
    }
    std::printf("\n%-24s %-5s %-16s %9s %9s %8s %7s %6s %8s %9s  %s%s\n", "kernel", "type", "MxNxK",
                "median ms", "TFLOP/s", "%cuBLAS", "%peak", "%mem", "xSGEMM", "rel.err",
                worker_cell({}, 0, several_workers).c_str(), "status");
    for (std::size_t i = 0; i < report.rows.size(); ++i) {
        const kernels::BenchRow& row = report.rows[i];
        const kernels::RunResult& r = row.result;
        const bool shown = r.counts();
        const bool ran = r.skipped.empty() && r.error.empty();
        std::printf("%-24s %-5s %-16s %9s %9s %8s %7s %6s %8s %9s  %s%s\n", r.kernel_id.c_str(),
                    kernels::precision_name(r.precision), kernels::problem_text(r.problem).c_str(),
                    shown ? number(r.median_ms, "%.3f").c_str() : "-",
                    shown ? number(r.tflops, "%.1f").c_str() : "-",
                    shown ? number(row.pct_of_reference, "%.1f%%").c_str() : "-",
                    shown ? number(row.pct_of_peak, "%.1f%%").c_str() : "-",
                    shown ? number(kernels::pct_of_memory_roof(r, dram), "%.0f%%").c_str() : "-",
                    shown ? number(row.speedup_vs_sgemm, "%.2fx").c_str() : "-",
                    ran ? number(r.check.rel_rms_error, "%.1e").c_str() : "-",
                    worker_cell(row_worker, i, several_workers).c_str(),
                    kernels::run_status(r).c_str());
    }
    std::printf(
        "\n%%cuBLAS: of the same-precision cuBLAS call in this run; %%peak: of the measured peak "
        "above; %%mem: of the measured DRAM bandwidth, moving A and B once and C once in the "
        "median time; xSGEMM: TF32 rows vs cublas.sgemm; rel.err: relative RMS error vs the "
        "reference (fp64 CPU or cuBLAS FP32), checked before timing\n");
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

// "host: NVIDIA H200 (0000:19:00.0)" for a worker's GPU, as reports name it.
std::string worker_gpu(const worker::HelloResult& hello) {
    return profiling::worker_gpu_text(hello.host, hello.system);
}

// The measured peak of `precision` over the measured DRAM bandwidth (else the first GPU's
// theoretical one), in FLOP/B; 0 when either is unknown.
double ridge_flop_per_byte(const worker::SpreadBench& spread, kernels::Precision precision,
                           const profiling::SystemReport& system) {
    double bandwidth = measured_dram(spread);
    if (bandwidth <= 0 && system.has_gpu()) {
        const profiling::DeviceFacts& device = system.devices.front();
        bandwidth = profiling::peak_dram_bandwidth(device.mem_clock_khz, device.mem_bus_width_bits);
    }
    for (const kernels::PeakMeasurement& peak : spread.report.peaks) {
        if (peak.precision == precision) return viz::ridge_intensity(peak.tflops, bandwidth);
    }
    return 0;
}

kernels::SweepSummary sweep_summary(const std::vector<std::string>& ids,
                                    const worker::SpreadBench& spread,
                                    const profiling::SystemReport& system) {
    const kernels::KernelDescriptor* first = ids.empty() ? nullptr : kernels::find_kernel(ids[0]);
    const kernels::Precision precision = first ? first->precision : kernels::Precision::kBF16;
    return kernels::summarize_sweep(spread.report, ids,
                                    system.has_gpu() ? system.devices.front().sm_count : 0,
                                    ridge_flop_per_byte(spread, precision, system));
}

std::string ratio_text(const std::optional<double>& ratio) {
    if (!ratio) return "not run";
    char text[16];
    std::snprintf(text, sizeof text, "%.2fx", *ratio);
    return text;
}

void print_sweep(const BenchOptions& options, const kernels::SweepSummary& summary) {
    std::printf("sweep of %zu shapes (seed %llu): %d ran, %zu not run by any given kernel\n",
                summary.shapes.size(), (unsigned long long)options.seed, summary.shapes_run,
                summary.shapes.size() - std::size_t(summary.shapes_run));
    const std::optional<double> geomean =
        summary.shapes_run > 0 ? std::optional<double>(summary.geomean) : std::nullopt;
    std::printf("best kernel vs same-run cuBLAS: geometric mean %s, minimum %.2fx\n",
                ratio_text(geomean).c_str(), summary.minimum);
    std::printf("\nworst %zu:\n%-20s %-28s %8s  %s\n", summary.worst.size(), "MxNxK", "best kernel",
                "vs cuBLAS", "why (tile model)");
    for (const kernels::SweepShape& shape : summary.worst) {
        std::printf("%-20s %-28s %8s  %s\n", kernels::problem_text(shape.problem).c_str(),
                    shape.best_id.empty() ? "-" : shape.best_id.c_str(),
                    ratio_text(shape.ratio).c_str(), shape.reason.c_str());
        if (!shape.plan.empty()) std::printf("%-20s ran: %s\n", "", shape.plan.c_str());
    }
}

nlohmann::json sweep_json(const kernels::SweepSummary& summary) {
    const auto shape_json = [](const kernels::SweepShape& shape) {
        return nlohmann::json{{"mnk", kernels::problem_text(shape.problem)},
                              {"best", shape.best_id},
                              {"ratio", shape.ratio ? nlohmann::json(*shape.ratio) : nullptr},
                              {"reason", shape.reason},
                              {"plan", shape.plan}};
    };
    nlohmann::json worst = nlohmann::json::array();
    for (const kernels::SweepShape& shape : summary.worst) worst.push_back(shape_json(shape));
    return {{"shapes", summary.shapes.size()},
            {"shapes_run", summary.shapes_run},
            {"geomean", summary.geomean},
            {"minimum", summary.minimum},
            {"worst", worst}};
}

// Prints the sweep as --json, --csv or the table, with the device that ran it (and, with several
// workers, which worker ran each row and on which GPU).
void print_report(const BenchOptions& options, const std::vector<std::string>& ids,
                  const worker::SpreadBench& spread) {
    const kernels::BenchReport& report = spread.report;
    const bool several = spread.workers.size() > 1;
    // The device of the first worker that answered (with one worker: the one).
    const auto answered = std::find_if(spread.workers.begin(), spread.workers.end(),
                                       [](const worker::HelloResult& h) { return h.pid != 0; });
    const profiling::SystemReport system =
        answered == spread.workers.end() ? profiling::SystemReport{} : answered->system;
    if (options.json) {
        nlohmann::json out = profiling::to_json(report);
        out["device"] = profiling::to_json(system);
        out["runs_per_result"] = options.runs;
        out["warmup_runs"] = options.warmup;
        out["seed"] = options.seed;
        if (spread.dram) {
            out["dram"] = {{"bytes_per_s", spread.dram->bytes_per_s},
                           {"method", spread.dram->method}};
            for (std::size_t r = 0; r < report.rows.size(); ++r) {
                out["results"][r]["pct_of_memory_roof"] =
                    kernels::pct_of_memory_roof(report.rows[r].result, measured_dram(spread));
            }
        }
        if (options.sweep > 0) out["sweep"] = sweep_json(sweep_summary(ids, spread, system));
        if (several) {
            nlohmann::json workers = nlohmann::json::array();
            for (std::size_t w = 0; w < spread.workers.size(); ++w) {
                const worker::HelloResult& hello = spread.workers[w];
                workers.push_back({{"worker", w + 1},
                                   {"host", hello.host},
                                   {"gpu", worker_gpu(hello)},
                                   {"device", profiling::to_json(hello.system)}});
            }
            out["workers"] = workers;
            for (std::size_t r = 0; r < spread.row_worker.size(); ++r)
                out["results"][r]["worker"] = spread.row_worker[r] + 1;
            out["notes"] = spread.notes;
        }
        std::printf("%s\n", out.dump(2).c_str());
    } else if (options.csv) {
        print_csv(report);
    } else {
        std::printf("%s\n%s\n\n", profiling::versions_summary(system).c_str(),
                    profiling::system_summary(system).c_str());
        if (several) {
            for (std::size_t w = 0; w < spread.workers.size(); ++w) {
                std::printf("worker w%zu: %s\n", w + 1, worker_gpu(spread.workers[w]).c_str());
            }
            std::printf("\n");
        }
        if (options.sweep > 0) {
            print_sweep(options, sweep_summary(ids, spread, system));
        } else {
            print_table(spread, several);
        }
        for (const std::string& note : spread.notes) std::printf("note: %s\n", note.c_str());
    }
}

// 1 when a run that was not skipped errored, failed verification or was refused, else 0.
int report_exit_code(const kernels::BenchReport& report) {
    for (const kernels::BenchRow& row : report.rows) {
        if (row.result.failed()) return kExitFailure;
    }
    return kExitOk;
}

// Loads the kernels of yours on every worker and adds their ids to `ids`.
int load_yours_on_every_worker(const BenchOptions& options,
                               std::vector<std::unique_ptr<worker::ClientSpreadWorker>>& workers,
                               std::vector<std::string>& ids) {
    std::vector<worker::LoadResult> loaded;
    const int code = load_on_every_worker(options.user_kernels, workers, "bench", loaded);
    if (code != kExitOk) return code;
    for (const worker::LoadResult& kernel : loaded) {
        if (std::find(ids.begin(), ids.end(), kernel.id) != ids.end()) {
            return usage_error("two --kernel files load as " + kernel.id +
                               ": name their functions (path.cu:NAME) or rename one");
        }
        ids.push_back(kernel.id);
    }
    return kExitOk;
}

int run_bench_in_workers(const BenchOptions& options,
                         const std::vector<kernels::GemmProblem>& problems,
                         std::vector<std::string> ids) {
    std::vector<worker::ClientOptions> commands;
    if (const std::string bad =
            spread_worker_commands(options.worker, options.workers, options.gpu, commands);
        !bad.empty())
        return usage_error(bad);
    std::vector<std::unique_ptr<worker::ClientSpreadWorker>> workers;
    std::vector<worker::SpreadWorker*> spread_over;
    std::vector<ProgressLines> progress;
    for (const worker::ClientOptions& command : commands) {
        workers.push_back(std::make_unique<worker::ClientSpreadWorker>(command));
        spread_over.push_back(workers.back().get());
        progress.emplace_back(commands.size() > 1 ? "bench w" + std::to_string(progress.size() + 1)
                                                  : std::string("bench"));
    }
    const int load_code = load_yours_on_every_worker(options, workers, ids);
    if (load_code != kExitOk) return load_code;
    worker::BenchRequest request;
    request.kernels = ids;
    request.problems = problems;
    request.runs = options.runs;
    request.warmup = options.warmup;
    request.seed = options.seed;
    request.peaks = !options.no_peak;
    request.dram = !options.no_peak;  // the memory roof beside the compute peak
    request.references = !options.no_reference;
    const worker::SpreadBench spread = worker::spread_bench(
        spread_over, request,
        [&](int w, const worker::Progress& p) { progress[std::size_t(w)](p); });
    progress.front().done();
    for (const std::string& note : spread.notes) std::fprintf(stderr, "tclens: %s\n", note.c_str());
    // What was measured is printed even when the sweep could not finish.
    if (spread.failure && spread.report.rows.empty()) return report_failure(*spread.failure);
    print_report(options, ids, spread);
    const int map_code = print_error_maps(spread.report, options.error_map,
                                          options.json || options.csv ? stderr : stdout);
    if (spread.failure) return report_failure(*spread.failure);
    const int code = report_exit_code(spread.report);
    return code != kExitOk ? code : map_code;
}

int run_bench_command(const BenchOptions& options) {
    if (options.json && options.csv) return usage_error("--json and --csv are exclusive: pick one");
    std::string size_error;
    std::vector<kernels::GemmProblem> problems =
        kernels::parse_problems(options.sizes, "", size_error);
    for (const std::string& preset : options.presets) {
        if (!size_error.empty()) break;
        for (const kernels::GemmProblem& p : kernels::parse_problems({}, preset, size_error)) {
            // A size two presets share runs once.
            const bool seen = std::any_of(problems.begin(), problems.end(), [&](const auto& q) {
                return kernels::same_problem(p, q);
            });
            if (!seen) problems.push_back(p);
        }
    }
    if (!size_error.empty()) return usage_error(size_error);
    if (options.sweep > 0) {
        if (!problems.empty())
            return usage_error("--sweep draws its own shapes: leave out --mnk and --preset");
        problems = kernels::draw_sweep_shapes(options.sweep, options.seed);
    }
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
        // A sweep compares the bf16 rungs; a bench, every rung.
        for (const kernels::KernelDescriptor& k : kernels::all_kernels()) {
            if (k.rung > 0 && (options.sweep == 0 || k.precision == kernels::Precision::kBF16))
                ids.push_back(k.id);
        }
    }
    std::string error;
    if (!ids.empty() && kernels::bench_kernels(ids, error).empty()) return usage_error(error);
    return run_bench_in_workers(options, problems, ids);
}

}  // namespace

void add_bench_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "bench",
        "Time ladder kernels against same-run cuBLAS (verified first), in a worker; needs a GPU");
    auto options = std::make_shared<BenchOptions>();
    command
        ->add_option("--kernels", options->kernels,
                     "Kernel ids, comma-separated (default: every rung; see tclens kernels)")
        ->delimiter(',');
    command->add_option("--mnk", options->sizes,
                        "Problem size MxNxK (repeatable; default 4096x4096x4096)");
    command
        ->add_option(
            "--preset", options->presets,
            "Sizes of presets, comma-separated (each size once): " + kernels::preset_names())
        ->delimiter(',');
    command
        ->add_option("--runs", options->runs, "Timed runs per result; the median counts (20-1000)")
        ->check(CLI::Range(20, 1000));
    command->add_option("--warmup", options->warmup, "Untimed runs first (0-100)")
        ->check(CLI::Range(0, 100));
    command
        ->add_option("--sweep", options->sweep,
                     "Draw N shapes (1-" + std::to_string(kernels::kSweepMaxShapes) +
                         ", sides 16-16384, a third not multiples of 16, a few primes) from "
                         "--seed and report the best kernel's geometric mean and minimum vs "
                         "cuBLAS, with the worst ten and why (default kernels: the bf16 rungs)")
        ->check(CLI::Range(1, kernels::kSweepMaxShapes));
    command->add_option("--seed", options->seed, "Seed of the random inputs (and --sweep shapes)");
    command->add_flag(
        "--no-reference", options->no_reference,
        "Run only the given kernels, not their cuBLAS references (no %cuBLAS column)");
    command->add_flag("--no-peak", options->no_peak,
                      "Skip measuring the device's peak and DRAM bandwidth (no %peak or %mem "
                      "column)");
    command->add_flag("--json", options->json, "Machine-readable output");
    command->add_flag("--csv", options->csv, "One CSV row per kernel and size");
    command->add_option("--kernel", options->user_kernels,
                        "A kernel of yours, path.cu[:NAME][:TYPE] (docs/your-kernel.md; "
                        "repeatable): it runs in a worker process next to --kernels (none by "
                        "default) and its same-run cuBLAS reference");
    command->add_option("--error-map", options->error_map,
                        "Draw where C is wrong (PNG or SVG) for the first run that fails "
                        "verification");
    command
        ->add_option("--workers", options->workers,
                     "Spread the sizes over N workers (1-64): N GPUs of this host (or of each "
                     "--remote host), one each, or N of each --worker CMD (e.g. srun); each row "
                     "names its worker (docs/many-gpus.md)")
        ->check(CLI::Range(1, 64));
    command->add_option("--gpu", options->gpu, "Run on this GPU of the host (0-63)")
        ->check(CLI::Range(0, 63));
    add_spread_worker_options(*command, options->worker);
    command->callback([options, &exit_code] { exit_code = run_bench_command(*options); });
}

}  // namespace tclens::cli
