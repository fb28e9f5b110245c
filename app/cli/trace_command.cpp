// `tclens trace --kernel K [--mnk MxNxK] [--blocks N] [--json F] [--svg F] [--seed S]
// [--worker CMD] [--time-limit S] [--clock-skew [--rounds R]]`: the per-warp timeline of one run
// of a kernel's traced variant (kernels/trace.cuh: rungs 8-12; kernels/user_trace.cuh: a kernel
// of yours, `--kernel path.cu[:NAME][:TYPE]`, docs/your-kernel.md). The trace runs in a worker
// (app/worker/, a `trace` request, after a `load` for a kernel of yours): the traced kernel is
// verified and timed through the runner like any kernel, and so is the untraced one, for the
// overhead. Prints the time share of each phase kind, per warp its multiply phases (wgmma per K
// tile, mma_sync per k16 step, a kernel of yours' mma phases), the tensor-core instructions they
// make and its tensor pipe's idle gaps, and the traced and untraced times. --json F writes the
// trace (viz/warp_trace_json.h), --svg F the timeline as drawn (viz/warp_timeline_view.h).
// --clock-skew (with or without --kernel) runs the clock skew probe
// (kernels/probes/clock_skew_probe.h) for R rounds in the worker (a `clock_skew` request, after
// the trace in the same worker) and prints how far apart the SMs' %globaltimer readings of one
// instant were: the bound on the traces' common time base.
// Exit codes: 2 for an unknown kernel, a kernel without trace points, a bad size or --blocks
// (0, negative or over the cap here; more than the grid, the worker's: kernels/trace_capture.h),
// --rounds outside 1 to 10000, a kernel file that does not build; 3 without a GPU ("no GPU on
// <host>: ...", the worker's host) or when the worker cannot start; 1 when a run fails
// verification, the worker breaks, the probe fails or a file cannot be written.

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/drawing_export.h"
#include "app/cli/profiler_args.h"
#include "app/cli/usage_error.h"
#include "app/cli/worker_calls.h"
#include "app/exit_codes.h"
#include "app/worker/gpu_calls.h"
#include "app/worker/requests.h"
#include "app/worker/results.h"
#include "common/atomic_file.h"
#include "kernels/probes/clock_skew_probe.h"
#include "kernels/problem_text.h"
#include "kernels/registry.h"
#include "kernels/trace_limits.h"
#include "kernels/user/kernel_ref.h"
#include "viz/warp_timeline_view.h"
#include "viz/warp_trace_json.h"
#include "viz/warp_trace_summary.h"

namespace tclens::cli {
namespace {

struct TraceOptions {
    std::string kernel;
    std::string size = "4096x4096x4096";
    int blocks = 8;
    std::string json_path;
    std::string svg_path;
    std::uint64_t seed = 1;
    bool clock_skew = false;
    int rounds = 101;
    WorkerOptions worker;
};

double us(std::int64_t ns) { return static_cast<double>(ns) / 1000.0; }

void print_summary(const viz::WarpTrace& trace) {
    const viz::TraceSummary summary = viz::summarize_trace(trace);
    std::printf("%s %lldx%lldx%lld: %d of %d blocks traced, %d warps each, span %.2f us\n",
                trace.kernel.c_str(), static_cast<long long>(trace.m),
                static_cast<long long>(trace.n), static_cast<long long>(trace.k),
                trace.blocks_traced, trace.blocks_launched, trace.warps_per_block,
                us(summary.span_ns));
    if (trace.dropped > 0) {
        std::printf("%lld phases did not fit the trace buffers and are missing\n",
                    static_cast<long long>(trace.dropped));
    }
    // The phase in words (as the Timeline panel says it), its id (as the JSON and a trace file
    // name it) last.
    std::printf("\n%-24s %9s %12s %8s  %s\n", "phase", "count", "total us", "share", "id");
    for (const viz::PhaseShare& share : summary.shares) {
        if (share.count == 0) continue;
        std::printf("%-24s %9lld %12.2f %7.1f%%  %s\n", viz::phase_words(share.phase),
                    static_cast<long long>(share.count), us(share.total_ns), 100.0 * share.share,
                    viz::phase_name(share.phase));
    }
    std::printf("(share: of the summed spans of the traced warps)\n");
    std::printf("\n%5s %4s %4s %10s %11s %10s %12s %14s\n", "block", "warp", "SM", "span us",
                "mma ph.", "mma ins.", "idle gaps us", "longest gap us");
    for (const viz::WarpSummary& w : summary.warps) {
        std::printf("%5d %4d %4d %10.2f %11d %10lld %12.2f %14.2f\n", w.block, w.warp, w.sm,
                    us(w.span_ns), w.mma_phases,
                    static_cast<long long>(w.mma_phases) * trace.wgmma_per_phase, us(w.idle_ns),
                    us(w.longest_idle_ns));
    }
    std::printf(
        "(mma ph.: the warp's multiply phases, wgmma per K tile or mma_sync per k16 step; mma "
        "ins.: x %d tensor-core instructions per phase; idle gaps: between one multiply phase "
        "and the next)\n",
        trace.wgmma_per_phase);
    std::printf("tensor-core instructions of the traced warps: %lld (%d of %d blocks traced)\n",
                static_cast<long long>(summary.mma_instructions), trace.blocks_traced,
                trace.blocks_launched);
    std::printf("\nkernel median: traced %.4f ms, untraced %.4f ms, overhead %+.1f %%\n",
                trace.kernel_ms, trace.untraced_ms,
                trace.untraced_ms > 0 ? 100.0 * (trace.kernel_ms / trace.untraced_ms - 1.0) : 0.0);
}

// The clock skew probe in `client`'s worker. Prints its line and returns kExitOk, or prints the
// failure's one line and returns its exit code.
int clock_skew_in_worker(worker::WorkerClient& client, int rounds) {
    const ProgressLines progress("trace");
    worker::ClockSkewResult result;
    const worker::Reply reply = worker::measure_clock_skew(client, rounds, result, progress);
    progress.done();
    if (!reply.ok()) return report_failure(reply);
    std::printf("%s\n", kernels::clock_skew_text(result.summary).c_str());
    return kExitOk;
}

// "" when --blocks is one tclens traces at all (1 to kMaxTracedBlocks), else the usage error.
// Whether the kernel launches that many blocks on the size is the worker's to say: the persistent
// rungs' grid is its GPU's.
std::string check_blocks(int blocks) {
    if (blocks >= 1 && blocks <= kernels::kMaxTracedBlocks) return "";
    return "--blocks " + std::to_string(blocks) + " must be 1 to " +
           std::to_string(kernels::kMaxTracedBlocks);
}

// "" when the registry kernel --kernel names has trace points and can run `problem` (checked
// here, before a worker starts), else the usage error.
std::string check_registry_trace(const TraceOptions& options,
                                 const std::optional<kernels::GemmProblem>& problem) {
    const kernels::KernelDescriptor* kernel = kernels::find_kernel(options.kernel);
    if (kernel == nullptr) return unknown_kernel_message(options.kernel);
    if (!problem) return kernels::problem_error(options.size);
    // Its first check, the trace points, needs no GPU: the one line that names the traced rungs.
    if (!kernel->traced.traceable()) return kernels::trace_blocks_error(*kernel, *problem, 1);
    const std::string cannot = kernel->can_run(*problem);
    if (!cannot.empty())
        return kernel->id + " cannot run " + kernels::problem_text(*problem) + ": " + cannot;
    return check_blocks(options.blocks);
}

// The trace in a worker: a `load` of the kernel of yours first (`yours`), then the `trace`
// request. Returns kExitOk with `trace` filled, or the failure's exit code after its one line.
int trace_in_worker(worker::WorkerClient& client, const TraceOptions& options,
                    const kernels::GemmProblem& problem, bool yours, viz::WarpTrace& trace) {
    const ProgressLines progress("trace");
    worker::TraceRequest request;
    request.kernel = options.kernel;
    request.problem = problem;
    request.blocks = options.blocks;
    request.seed = options.seed;
    if (yours) {
        std::vector<worker::LoadResult> loaded;
        const int code = load_kernels(client, {options.kernel}, {}, false, progress, loaded);
        if (code != kExitOk) return code;
        request.kernel = loaded.front().id;
    }
    worker::TraceResult result;
    const worker::Reply reply = worker::take_trace(client, request, result, progress);
    progress.done();
    if (!reply.ok()) return report_failure(reply);
    trace = std::move(result.trace);
    return kExitOk;
}

int run_trace(const TraceOptions& options) {
    if (options.clock_skew &&
        (options.rounds < 1 || options.rounds > worker::kMaxClockSkewRounds)) {
        return usage_error("--rounds " + std::to_string(options.rounds) + " must be 1 to " +
                           std::to_string(worker::kMaxClockSkewRounds));
    }
    if (options.clock_skew && options.kernel.empty()) {
        worker::WorkerClient client(client_options(options.worker));
        if (const int code = check_remote_gpu(client, options.worker); code != kExitOk) return code;
        return clock_skew_in_worker(client, options.rounds);
    }
    if (options.kernel.empty()) {
        return usage_error(
            "give --kernel K (tclens kernels lists them, or a kernel of yours, path.cu) or "
            "--clock-skew");
    }
    const auto problem = kernels::parse_problem(options.size);
    const bool yours = kernels::user::names_kernel_file(options.kernel);
    if (yours) {
        if (const std::string bad = check_kernel_refs({options.kernel}); !bad.empty())
            return usage_error(bad);
        if (!problem) return usage_error(kernels::problem_error(options.size));
        if (const std::string bad = check_blocks(options.blocks); !bad.empty())
            return usage_error(bad);
    } else if (const std::string bad = check_registry_trace(options, problem); !bad.empty()) {
        return usage_error(bad);
    }
    worker::WorkerClient client(client_options(options.worker));
    viz::WarpTrace trace;
    if (const int code = trace_in_worker(client, options, *problem, yours, trace); code != kExitOk)
        return code;
    print_summary(trace);
    if (!options.json_path.empty()) {
        const std::string error = common::write_bytes_atomically(
            options.json_path, viz::warp_trace_json(trace).dump(1) + "\n");
        if (!error.empty()) {
            std::fprintf(stderr, "tclens: %s\n", error.c_str());
            return kExitFailure;
        }
    }
    if (!options.svg_path.empty()) {
        const int exported = export_drawing(viz::warp_timeline(trace, {}), options.svg_path, "");
        if (exported != kExitOk) return exported;
    }
    return options.clock_skew ? clock_skew_in_worker(client, options.rounds) : kExitOk;
}

}  // namespace

void add_trace_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "trace",
        "Per-warp timeline of a traced kernel (rungs 8-12: mma_cp_async, wgmma_tma, wgmma_ws, "
        "wgmma_persistent, wgmma_streamk; or a kernel of yours with trace points): phases of "
        "every warp of the first N blocks, their time shares and the tensor pipe's idle gaps; "
        "needs a GPU");
    auto options = std::make_shared<TraceOptions>();
    command->add_option("--kernel", options->kernel,
                        "Kernel id (see tclens kernels), or a kernel of yours with trace points, "
                        "path.cu[:NAME][:TYPE] (docs/your-kernel.md)");
    command->add_option("--mnk", options->size, "Problem size MxNxK")->capture_default_str();
    command
        ->add_option("--blocks", options->blocks,
                     "Blocks traced, the first N of the grid (1 to the grid, at most " +
                         std::to_string(kernels::kMaxTracedBlocks) + ")")
        ->capture_default_str();
    command->add_option("--json", options->json_path, "Write the trace as JSON to FILE");
    command->add_option("--svg", options->svg_path, "Write the timeline as SVG to FILE");
    command->add_option("--seed", options->seed, "Seed of the random inputs");
    command->add_flag("--clock-skew", options->clock_skew,
                      "Measure how far apart the SMs' %globaltimer readings of one instant are "
                      "(one block per SM spinning on one flag), the bound on the traces' common "
                      "time base; with --kernel after its trace");
    command
        ->add_option("--rounds", options->rounds,
                     "Rounds of the clock skew probe (1 to " +
                         std::to_string(worker::kMaxClockSkewRounds) + ")")
        ->capture_default_str();
    add_worker_options(*command, options->worker);
    command->callback([options, &exit_code] { exit_code = run_trace(*options); });
}

}  // namespace tclens::cli
