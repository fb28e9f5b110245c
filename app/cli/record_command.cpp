// `tclens record FILE [--preset NAME | --mnk MxNxK ...] [--kernels a,b,...] [--kernel path.cu]
// [--no-timelines] [--timeline-ms N] [--no-sources] [--no-traces] [--workers N]
// [--worker CMD ... | --remote HOST ...]`: everything one run learns on a GPU, written as one
// recording (profiling/recording.h) that the GUI opens later on any machine, GPU or not. Every
// step runs in a worker process (app/worker/, local, --worker or --remote): this process only
// asks, and writes the file. With --workers N, or several --worker or --remote, the bench is
// spread over the workers as `tclens bench` spreads it (app/worker/bench_spread.h,
// docs/many-gpus.md) and every row names its worker; the per-kernel parts (steps 3-5) are all
// taken on one GPU, the first worker's that was not lost, so they compare kernels on one chip.
//   1. the device report (each worker's hello);
//   2. the DRAM bandwidth, the measured arithmetic peaks and the bench of the kernels
//      (kernels/bench.h: each next to its same-run cuBLAS call, verified before timing) on the
//      sizes, after each worker checked that the counters can be read; a worker lost here gives
//      its size to the others and the record says so in one line;
//   3. per kernel (cuBLAS references and kernels of yours included), on the first size: a source
//      profile (profiling/source/source_collector.h: stall samples and counts per instruction, the
//      SASS and the CUDA source text), so the Source panel opens without a GPU or a toolkit;
//      each in a fresh worker of the same kind (source_in_fresh_worker says why);
//   4. per traced rung (kernels/trace_capture.h) on the first size: the warp timeline of its
//      first kRecordTraceBlocks blocks, so the Timeline panel opens without a GPU;
//   5. per kernel on the first size: a profile of the default metric set
//      (profiling/metric_catalogue.h) and a short PM-sampling timeline;
//   6. each kernel's SASS instruction mix.
// Checks first, so a long run never ends in a usage error: arguments (exit 2), the output path
// (exit 1, nothing created), a GPU where the worker runs and the counter permission (exit 3).
// The file is written once, at the end, atomically, on this machine (gzipped when its name ends in
// .gz: a whole ladder with its sources and traces is ~56 MB of JSON, ~4 MB gzipped). Progress goes
// to stderr; a summary line to stdout, then one line per part that could not be taken. Exits 1 when
// a kernel failed verification, errored or was refused (the recording keeps its row) or a part is
// missing, like `tclens bench`.

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/usage_error.h"
#include "app/cli/worker_calls.h"
#include "app/exit_codes.h"
#include "app/worker/bench_spread.h"
#include "app/worker/client.h"
#include "app/worker/results.h"
#include "app/worker/worker_mix.h"
#include "common/one_line.h"
#include "common/text.h"
#include "kernels/bench_selection.h"
#include "kernels/problem_text.h"
#include "kernels/registry.h"
#include "profiling/device_info.h"
#include "profiling/metric_catalogue.h"
#include "profiling/recorded_mix.h"
#include "profiling/recording.h"
#include "tclens_version.h"

namespace tclens::cli {
namespace {

// The default sizes: every rung at 4096^3 (the README's column, and the size profiled), then
// three rows of the lab's table (M = 3072, 512, 16 with N = K = 3072). With profiles and
// timelines: 49 s on an H100 (tests/gpu/results/2026-11-22_h100_session3/record.log), before
// source profiles were added; they add one source profile per kernel.
const std::vector<kernels::GemmProblem> kDefaultProblems = {
    {4096, 4096, 4096}, {3072, 3072, 3072}, {512, 3072, 3072}, {16, 3072, 3072}};

struct RecordOptions {
    std::string path;
    std::vector<std::string> kernels;
    std::vector<std::string> sizes;
    std::string preset;
    bool no_timelines = false;
    bool no_sources = false;
    bool no_traces = false;
    int timeline_ms = 300;
    CLI::Option* timeline_ms_option = nullptr;
    std::vector<std::string> user_kernels;  // --kernel path.cu[:NAME][:TYPE]
    int workers = 1;                        // --workers N
    SpreadWorkerOptions worker;             // --worker CMD ..., --remote host ..., --time-limit S
};

// The command line that `options` stands for, for the recording's "command".
std::string command_text(const RecordOptions& options) {
    std::string text = "tclens record " + options.path;
    if (!options.preset.empty()) text += " --preset " + options.preset;
    for (const std::string& size : options.sizes) text += " --mnk " + size;
    if (!options.kernels.empty()) {
        text += " --kernels ";
        for (std::size_t i = 0; i < options.kernels.size(); ++i) {
            text += (i == 0 ? "" : ",") + options.kernels[i];
        }
    }
    for (const std::string& kernel : options.user_kernels) text += " --kernel " + kernel;
    if (options.no_timelines) text += " --no-timelines";
    if (!options.no_timelines) text += " --timeline-ms " + std::to_string(options.timeline_ms);
    if (options.no_sources) text += " --no-sources";
    if (options.no_traces) text += " --no-traces";
    if (options.workers > 1) text += " --workers " + std::to_string(options.workers);
    return text;
}

// "" when `path` can be written (its folder exists and takes files), else why not. Creates and
// removes the temporary file the atomic write will use, so nothing is left either way.
std::string check_writable(const std::string& path) {
    std::error_code ignored;
    if (std::filesystem::is_directory(path, ignored)) return "it is a directory";
    const std::string probe = path + ".tmp";
    std::FILE* file = std::fopen(probe.c_str(), "wb");
    if (file == nullptr) return std::strerror(errno);
    std::fclose(file);
    std::remove(probe.c_str());
    return "";
}

// Progress on stderr: overwritten in place on a terminal, one line each otherwise.
class Progress {
  public:
    Progress() : tty_(isatty(fileno(stderr)) != 0) {}
    void line(const std::string& text) const {
        std::fprintf(stderr, "record: %s%s%s", text.c_str(), tty_ ? "\x1b[K" : "",
                     tty_ ? "\r" : "\n");
    }
    void done() const {
        if (tty_) std::fprintf(stderr, "\x1b[K");
    }

  private:
    bool tty_;
};

// Whether `kernel_id` ran at `problem` in the recording's bench (a skipped row says why not).
bool ran_in_bench(const profiling::Recording& recording, const std::string& kernel_id,
                  const kernels::GemmProblem& problem) {
    for (const kernels::BenchRow& row : recording.bench) {
        const kernels::GemmProblem& p = row.result.problem;
        if (row.result.kernel_id == kernel_id && p.m == problem.m && p.n == problem.n &&
            p.k == problem.k && row.result.skipped.empty()) {
            return true;
        }
    }
    return false;
}

// "[2/5] wmma.f16 4096x4096x4096"
std::string step_text(int index, std::size_t total, const std::string& kernel_id,
                      const kernels::GemmProblem& problem) {
    return "[" + std::to_string(index) + "/" + std::to_string(total) + "] " + kernel_id + " " +
           kernels::problem_text(problem);
}

// A kernel the recording profiles in the worker: its id and input type.
struct WorkerKernel {
    std::string id;
    kernels::Precision precision = kernels::Precision::kF32;
    bool traced = false;  // a rung with trace points (kernels/trace_capture.h)
    std::string ref;      // a kernel of yours: its path.cu[:NAME][:TYPE]; "" for the registry's
};

// A failed worker call as the profiler error a recorded part keeps.
profiling::ProfilerError failed_call(const worker::Reply& reply) {
    profiling::ProfilerError error;
    error.problem = reply_exit_code(reply) == kExitNeedsResource
                        ? profiling::ProfilerProblem::kUnsupported
                        : profiling::ProfilerProblem::kFailed;
    error.message = reply.message;
    return error;
}

// A part (profile, timeline, source profile) of `kernel` at `problem` that could not be taken:
// what was asked, and why not (`reply`, a failed worker call).
template <typename Part>
Part failed_part(const WorkerKernel& kernel, const kernels::GemmProblem& problem,
                 const std::string& device, const worker::Reply& reply) {
    Part part;
    part.kernel_id = kernel.id;
    part.precision = kernel.precision;
    part.problem = problem;
    part.device = device;
    part.error = failed_call(reply);
    return part;
}

// Step 5: a profile of the default set and (unless `timeline_ms` is 0) a timeline of each kernel
// that ran at `problem` in the bench. A request the worker could not answer (it failed, crashed
// or hung: one line) is kept as that kernel's failed profile or timeline.
void profile_in_worker(worker::WorkerClient& client, const std::vector<WorkerKernel>& kernels,
                       const kernels::GemmProblem& problem, int timeline_ms,
                       profiling::Recording& recording, const Progress& progress) {
    const std::string& device = recording.system.devices.front().name;
    int index = 0;
    for (const WorkerKernel& kernel : kernels) {
        ++index;
        const std::string step = step_text(index, kernels.size(), kernel.id, problem);
        if (!ran_in_bench(recording, kernel.id, problem)) continue;  // its row says why not
        progress.line("profile " + step);
        worker::WorkerProfileRequest request;
        request.kernel = kernel.id;
        request.problem = problem;
        request.metrics = profiling::metric_set("default");
        request.drop_unavailable = true;  // a set: names this chip lacks are listed, not fatal
        worker::Reply reply = client.call(request);
        worker::ProfileResult result;
        if (!worker::read_result(reply, "profile", worker::profile_from_json, result) ||
            !result.profile) {
            recording.profiles.push_back(
                failed_part<profiling::KernelProfile>(kernel, problem, device, reply));
            continue;
        }
        recording.profiles.push_back(std::move(*result.profile));
        if (timeline_ms <= 0) continue;
        progress.line("timeline " + step);
        request.metrics.clear();
        request.timeline = worker::TimelineSettings{};
        request.timeline->duration_ms = timeline_ms;
        reply = client.call(request);
        result = {};
        if (worker::read_result(reply, "timeline", worker::profile_from_json, result) &&
            result.timeline) {
            recording.timelines.push_back(std::move(*result.timeline));
        } else {
            recording.timelines.push_back(
                failed_part<profiling::KernelTimeline>(kernel, problem, device, reply));
        }
    }
}

// Step 2: the peaks, the DRAM bandwidth and the bench of `kernels` (registry ids and loaded
// ones) on `problems`, spread over `workers` (one size at a time; each worker first checks that
// the counters can be read, so a long run does not end in "no permission"). Fills the bench, the
// workers and their notes (a line each on stderr too) and sets `main` to the first worker that
// was not lost. kExitOk, or the exit code of a bench that could not finish (one line).
int bench_in_workers(const std::vector<worker::SpreadWorker*>& workers,
                     const std::vector<std::string>& kernels,
                     const std::vector<kernels::GemmProblem>& problems,
                     profiling::Recording& recording, std::size_t& main) {
    worker::BenchRequest bench;
    bench.kernels = kernels;
    bench.problems = problems;
    bench.dram = true;
    bench.check_counters = true;
    std::vector<ProgressLines> lines;
    for (std::size_t w = 0; w < workers.size(); ++w) {
        lines.emplace_back(workers.size() > 1 ? "record w" + std::to_string(w + 1)
                                              : std::string("record"));
    }
    const worker::SpreadBench spread = worker::spread_bench(
        workers, bench, [&](int w, const worker::Progress& p) { lines[std::size_t(w)](p); });
    lines.front().done();
    for (const std::string& note : spread.notes) std::fprintf(stderr, "tclens: %s\n", note.c_str());
    if (spread.failure) return report_failure(*spread.failure);
    recording.peaks = spread.report.peaks;
    recording.peak_error = spread.report.peak_error;
    recording.bench = spread.report.rows;
    recording.bench_worker = spread.row_worker;
    recording.notes = spread.notes;
    for (const worker::HelloResult& hello : spread.workers)
        recording.workers.push_back({hello.host, hello.system});
    if (spread.dram) recording.dram_bandwidth = *spread.dram;
    if (!spread.dram_error.empty()) {
        std::fprintf(stderr, "tclens: %s (the recording will have no DRAM bandwidth)\n",
                     spread.dram_error.c_str());
    }
    main =
        std::size_t(std::find(spread.lost.begin(), spread.lost.end(), false) - spread.lost.begin());
    recording.system = recording.workers.at(main).system;
    return kExitOk;
}

// A source profile of `kernel` at `problem`, taken in a worker of its own (`options`): in a
// process where the kernel already ran, CUPTI 13.0 gives it no PC samples (measured on an H200
// after a bench, a profile or a timeline of it, tests/gpu/results/2026-11-29_h200_session15/).
// A failed call is kept as the kernel's failed source profile.
profiling::SourceProfile source_in_fresh_worker(const worker::ClientOptions& options,
                                                const WorkerKernel& kernel,
                                                const kernels::GemmProblem& problem,
                                                const std::string& device) {
    worker::WorkerClient client(options);
    worker::WorkerSourceRequest request;
    request.kernel = kernel.id;
    request.problem = problem;
    worker::Reply reply;
    if (!kernel.ref.empty()) {
        worker::LoadRequest load;
        load.ref = kernel.ref;
        reply = client.call(load);
        worker::LoadResult loaded;
        if (worker::read_result(reply, "load", worker::load_from_json, loaded))
            request.kernel = loaded.id;
    }
    if (reply.ok() || kernel.ref.empty()) reply = client.call(request);
    worker::SourceResult result;
    if (worker::read_result(reply, "source", worker::source_from_json, result))
        return std::move(result.profile);
    return failed_part<profiling::SourceProfile>(kernel, problem, device, reply);
}

// Step 3: a source profile of each kernel that ran at `problem` in the bench, each in a fresh
// worker (source_in_fresh_worker).
void source_profiles(const worker::ClientOptions& options, const std::vector<WorkerKernel>& kernels,
                     const kernels::GemmProblem& problem, profiling::Recording& recording,
                     const Progress& progress) {
    int index = 0;
    for (const WorkerKernel& kernel : kernels) {
        ++index;
        if (!ran_in_bench(recording, kernel.id, problem)) continue;
        progress.line("source " + step_text(index, kernels.size(), kernel.id, problem));
        recording.sources.push_back(source_in_fresh_worker(options, kernel, problem,
                                                           recording.system.devices.front().name));
    }
}

// Blocks whose warps a recording's traces hold: enough for a few SMs' worth, small in the file.
constexpr int kRecordTraceBlocks = 8;

// Step 4: the warp timeline of each kernel with trace points that ran at `problem` in the bench;
// recording.traces_missing says why there are none. Returns a line per kernel that could not be
// traced.
std::vector<std::string> traces_in_worker(worker::WorkerClient& client,
                                          const std::vector<WorkerKernel>& kernels,
                                          const kernels::GemmProblem& problem,
                                          profiling::Recording& recording,
                                          const Progress& progress) {
    std::vector<std::string> failures;
    int index = 0;
    for (const WorkerKernel& kernel : kernels) {
        ++index;
        if (!kernel.traced || !ran_in_bench(recording, kernel.id, problem)) continue;
        progress.line("trace " + step_text(index, kernels.size(), kernel.id, problem));
        worker::TraceRequest request;
        request.kernel = kernel.id;
        request.problem = problem;
        request.blocks = kRecordTraceBlocks;
        worker::Reply reply = client.call(request);
        worker::TraceResult result;
        if (worker::read_result(reply, "trace", worker::trace_from_json, result)) {
            recording.traces.push_back(std::move(result.trace));
        } else {
            failures.push_back("trace of " + kernel.id + ": " + reply.message);
        }
    }
    if (recording.traces.empty()) {
        recording.traces_missing = !failures.empty()
                                       ? "tracing failed: " + failures.back()
                                       : "no kernel with trace points (rungs 8-12) ran at " +
                                             kernels::problem_text(problem);
    }
    return failures;
}

// Step 6: each kernel's SASS instruction mix for this GPU's cubin, from the census of the build
// of the worker that ran it (its `hello`; this build's for a worker that sends none,
// worker/worker_mix.h), else from the SASS of its source profile, so the recording shows it
// where the build has none (profiling/recorded_mix.h); kernels of yours, from the cubin the
// worker built (`yours_mixes`).
void add_instruction_mixes(const worker::HelloResult& hello, const std::vector<std::string>& ids,
                           const std::vector<profiling::RecordedInstructionMix>& yours_mixes,
                           profiling::Recording& recording) {
    const int sm = worker::mix_sm(recording.system);
    recording.instruction_mixes =
        worker::worker_mixes(&hello, ids, sm, recording.instruction_mixes_missing);
    profiling::add_missing_mixes(recording.instruction_mixes,
                                 profiling::mixes_from_sources(recording.sources, sm));
    profiling::add_missing_mixes(recording.instruction_mixes, yours_mixes);
    if (!recording.instruction_mixes.empty()) recording.instruction_mixes_missing.clear();
    if (!recording.instruction_mixes_missing.empty()) {
        std::fprintf(stderr, "tclens: the recording has no instruction mixes: %s\n",
                     recording.instruction_mixes_missing.c_str());
    }
}

// Why a source profile is incomplete ("" when it is not): no profile, no PC samples, or no
// per-instruction counts. SASS text cuBLAS does not ship is not a gap.
std::string source_gap(const profiling::SourceProfile& source) {
    if (!source.ok()) return source.error.message;
    if (!source.sampling_missing.empty()) return "no PC samples: " + source.sampling_missing;
    if (source.total_samples() == 0) return "PC sampling gave no samples";
    if (!source.counters_missing.empty()) return "no counts: " + source.counters_missing;
    return "";
}

// One line on stderr per part of `recording` that could not be taken (a profile, a timeline, a
// source profile, a trace: `trace_failures`); returns how many.
int report_failed_parts(const profiling::Recording& recording,
                        const std::vector<std::string>& trace_failures) {
    std::vector<std::string> lines = trace_failures;
    for (const profiling::KernelProfile& p : recording.profiles) {
        if (!p.ok()) lines.push_back("profile of " + p.kernel_id + ": " + p.error.message);
    }
    for (const profiling::KernelTimeline& t : recording.timelines) {
        if (!t.ok()) lines.push_back("timeline of " + t.kernel_id + ": " + t.error.message);
    }
    for (const profiling::SourceProfile& source : recording.sources) {
        const std::string gap = source_gap(source);
        if (!gap.empty()) lines.push_back("source profile of " + source.kernel_id + ": " + gap);
    }
    for (const std::string& line : lines)
        std::fprintf(stderr, "tclens: record: %s\n", common::one_line(line).c_str());
    return static_cast<int>(lines.size());
}

// "; the bench over 2 workers: w1 host: GPU (bus), w2 ..." with more than one worker, else "".
std::string spread_text(const profiling::Recording& recording) {
    if (recording.workers.size() < 2) return "";
    std::string text = "; the bench over " + std::to_string(recording.workers.size()) + " workers:";
    for (std::size_t w = 0; w < recording.workers.size(); ++w) {
        text += (w == 0 ? " w" : ", w") + std::to_string(w + 1) + " " +
                profiling::worker_gpu_text(recording.workers[w].host, recording.workers[w].system);
    }
    return text;
}

// The line saying what `recording`, written to `path`, holds; kExitFailure (with a line on
// stderr) when a run failed verification, errored or was refused, or a part could not be taken
// (a line each), else kExitOk.
int print_summary(const std::string& path, const profiling::Recording& recording,
                  const std::vector<std::string>& trace_failures) {
    int counted = 0;
    int failed = 0;
    for (const kernels::BenchRow& row : recording.bench) {
        const kernels::RunResult& r = row.result;
        counted += r.counts() ? 1 : 0;
        failed += r.failed() ? 1 : 0;
    }
    int profiles_ok = 0;
    for (const profiling::KernelProfile& p : recording.profiles) profiles_ok += p.ok() ? 1 : 0;
    int timelines_ok = 0;
    for (const profiling::KernelTimeline& t : recording.timelines) timelines_ok += t.ok() ? 1 : 0;
    std::size_t trace_phases = 0;
    for (const viz::WarpTrace& t : recording.traces) trace_phases += t.phases.size();
    int sources_whole = 0;
    for (const profiling::SourceProfile& p : recording.sources)
        sources_whole += source_gap(p).empty() ? 1 : 0;
    std::printf(
        "wrote %s: %zu bench rows (%d verified and timed), %d of %zu profiles, %d of %zu "
        "timelines, %d of %zu source profiles whole, %zu instruction mixes, %zu traces (%zu "
        "phases), DRAM %.2f TB/s, on %s%s\n",
        path.c_str(), recording.bench.size(), counted, profiles_ok, recording.profiles.size(),
        timelines_ok, recording.timelines.size(), sources_whole, recording.sources.size(),
        recording.instruction_mixes.size(), recording.traces.size(), trace_phases,
        recording.dram_bandwidth.bytes_per_s / 1e12, recording.system.devices.front().name.c_str(),
        spread_text(recording).c_str());
    const int failed_parts = report_failed_parts(recording, trace_failures);
    if (failed > 0) {
        std::fprintf(stderr,
                     "tclens: %s failed verification, errored or was refused; the recording "
                     "keeps their rows\n",
                     common::count_text(failed, "run").c_str());
    }
    return failed > 0 || failed_parts > 0 ? kExitFailure : kExitOk;
}

// Starts the worker: kExitOk, or the exit code of a worker that does not answer or sees no GPU
// (one line).
int start_worker(worker::WorkerClient& client) {
    const worker::Reply hello = client.connect();
    if (!hello.ok()) return report_failure(hello);
    const profiling::SystemReport& system = client.worker().system;
    if (system.has_gpu()) return kExitOk;
    const std::string reason = common::one_line(system.no_gpu_reason);
    if (client.options().remote) {
        std::fprintf(stderr, "tclens: no GPU on %s (%s)\n", client.where().c_str(), reason.c_str());
    } else {
        std::fprintf(stderr, "tclens: record needs an NVIDIA GPU (%s); run it on a GPU machine\n",
                     reason.c_str());
    }
    return kExitNeedsResource;
}

// The kernels to profile, trace and source-profile: the registry's `registry_kernels` and the
// kernels of yours `loaded` from `refs` (in order).
std::vector<WorkerKernel> worker_kernels(
    const std::vector<const kernels::KernelDescriptor*>& registry_kernels,
    const std::vector<worker::LoadResult>& loaded, const std::vector<std::string>& refs) {
    std::vector<WorkerKernel> out;
    for (const kernels::KernelDescriptor* kernel : registry_kernels)
        out.push_back({kernel->id, kernel->precision, kernel->traced.traceable(), ""});
    for (std::size_t i = 0; i < loaded.size() && i < refs.size(); ++i)
        out.push_back({loaded[i].id, loaded[i].precision, false, refs[i]});
    return out;
}

// Steps 1-6 in the workers (fresh ones, started here), into `recording`. kExitOk, or the exit
// code of a failure that stops the recording (one line).
int record_in_workers(const RecordOptions& options, const std::vector<std::string>& ids,
                      const std::vector<kernels::GemmProblem>& problems,
                      profiling::Recording& recording, std::vector<std::string>& trace_failures) {
    std::vector<worker::ClientOptions> commands;
    if (const std::string bad =
            spread_worker_commands(options.worker, options.workers, -1, commands);
        !bad.empty())
        return usage_error(bad);
    std::vector<std::unique_ptr<worker::ClientSpreadWorker>> workers;
    std::vector<worker::SpreadWorker*> spread_over;
    for (const worker::ClientOptions& command : commands) {
        workers.push_back(std::make_unique<worker::ClientSpreadWorker>(command));
        spread_over.push_back(workers.back().get());
        if (const int code = start_worker(workers.back()->client()); code != kExitOk) return code;
    }
    std::vector<worker::LoadResult> loaded;
    if (const int code = load_on_every_worker(options.user_kernels, workers, "record", loaded);
        code != kExitOk)
        return code;
    std::vector<std::string> benched = ids;
    std::vector<std::string> registry_ids = ids;  // and the references of the kernels of yours
    std::vector<profiling::RecordedInstructionMix> yours_mixes;
    for (const worker::LoadResult& kernel : loaded) {
        benched.push_back(kernel.id);
        registry_ids.push_back(kernel.reference_id);
        if (kernel.instruction_mix) yours_mixes.push_back(*kernel.instruction_mix);
    }
    std::size_t main = 0;
    if (const int code = bench_in_workers(spread_over, benched, problems, recording, main);
        code != kExitOk)
        return code;
    worker::WorkerClient& client = workers.at(main)->client();
    std::string unknown;  // an id bench_kernels does not know is not profiled
    const std::vector<WorkerKernel> kernels =
        worker_kernels(kernels::bench_kernels(registry_ids, unknown), loaded, options.user_kernels);
    const Progress progress;
    const kernels::GemmProblem& first = problems.front();
    if (options.no_sources) {
        recording.sources_missing = "recorded with --no-sources";
    } else {
        source_profiles(commands.at(main), kernels, first, recording, progress);
    }
    if (options.no_traces) {
        recording.traces_missing = "recorded with --no-traces";
    } else {
        trace_failures = traces_in_worker(client, kernels, first, recording, progress);
    }
    profile_in_worker(client, kernels, first, options.no_timelines ? 0 : options.timeline_ms,
                      recording, progress);
    progress.done();
    add_instruction_mixes(client.worker(), ids, yours_mixes, recording);
    return kExitOk;
}

int run_record(const RecordOptions& options) {
    if (options.no_timelines && options.timeline_ms_option->count() > 0) {
        return usage_error(
            "--timeline-ms sets the timelines that --no-timelines leaves out: "
            "give one of them");
    }
    std::string size_error;
    std::vector<kernels::GemmProblem> problems =
        kernels::parse_problems(options.sizes, options.preset, size_error);
    if (!size_error.empty()) return usage_error(size_error);
    if (problems.empty()) problems = kDefaultProblems;
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

    error = check_writable(options.path);
    if (!error.empty()) {
        std::fprintf(stderr, "tclens: cannot write %s: %s\n", options.path.c_str(), error.c_str());
        return kExitFailure;
    }
    profiling::Recording recording;
    recording.tclens_version = TCLENS_VERSION;
    recording.created_utc = profiling::utc_now();
    recording.command = command_text(options);
    std::vector<std::string> trace_failures;
    const int code = record_in_workers(options, ids, problems, recording, trace_failures);
    if (code != kExitOk) return code;
    error = profiling::save_recording(options.path, recording);
    if (!error.empty()) {
        std::fprintf(stderr, "tclens: %s\n", error.c_str());
        return kExitFailure;
    }
    return print_summary(options.path, recording, trace_failures);
}

}  // namespace

void add_record_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "record",
        "Write a recording (device, peaks, DRAM bandwidth, bench, source profiles, warp traces, "
        "profiles, PM timelines) that the GUI opens without a GPU; taken in a worker (local, "
        "--worker or --remote) that needs a GPU and profiling permission. Default: every rung "
        "and its cuBLAS reference at 4096x4096x4096 plus 3072, 512 and 16 x 3072 x 3072, "
        "profiles, 300 ms timelines and source profiles at 4096^3 (without source profiles: 49 s "
        "on an H100)");
    auto options = std::make_shared<RecordOptions>();
    command
        ->add_option("FILE", options->path,
                     "Recording to write (JSON; gzipped when FILE ends in .gz)")
        ->required();
    command
        ->add_option("--kernels", options->kernels,
                     "Kernel ids, comma-separated (default: every rung; see tclens kernels)")
        ->delimiter(',');
    command->add_option("--mnk", options->sizes,
                        "Problem size MxNxK (repeatable); the first one is profiled");
    command->add_option("--preset", options->preset,
                        "Sizes of a preset: " + kernels::preset_names());
    command->add_option("--kernel", options->user_kernels,
                        "A kernel of yours, path.cu[:NAME][:TYPE] (docs/your-kernel.md; "
                        "repeatable): benched, source-profiled and profiled next to --kernels "
                        "(none by default) and its cuBLAS reference");
    command
        ->add_option("--workers", options->workers,
                     "Spread the bench's sizes over N workers (1-64): N GPUs of this host (or of "
                     "each --remote host), one each, or N of each --worker CMD (e.g. srun); each "
                     "row names its worker; profiles, timelines, sources and traces are taken on "
                     "the first (docs/many-gpus.md)")
        ->check(CLI::Range(1, 64));
    add_spread_worker_options(*command, options->worker);
    command->add_flag("--no-timelines", options->no_timelines, "Record no PM-sampling timelines");
    command->add_flag("--no-sources", options->no_sources,
                      "Record no source profiles (per-instruction stalls and counts, SASS)");
    command->add_flag("--no-traces", options->no_traces,
                      "Record no warp traces (the traced rungs' per-warp timelines)");
    options->timeline_ms_option =
        command
            ->add_option("--timeline-ms", options->timeline_ms,
                         "Length of each kernel's PM-sampling timeline in ms (50-10000)")
            ->capture_default_str()
            ->check(CLI::Range(50, 10000));
    command->callback([options, &exit_code] { exit_code = run_record(*options); });
}

}  // namespace tclens::cli
