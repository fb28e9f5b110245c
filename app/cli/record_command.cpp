// `tclens record FILE [--preset NAME | --mnk MxNxK ...] [--kernels a,b,...] [--no-timelines]
// [--timeline-ms N] [--no-sources] [--no-traces]`: everything one run learns on this GPU, written
// as one recording (profiling/recording.h) that the GUI opens later on any machine, GPU or not:
//   1. the device report, the measured arithmetic peaks and the measured DRAM bandwidth;
//   2. the bench of the kernels (kernels/bench.h: each next to its same-run cuBLAS call,
//      verified before timing) on the sizes;
//   3. per kernel (cuBLAS references included), on the first size: a profile of the default
//      metric set (profiling/metric_catalogue.h) and a short PM-sampling timeline;
//   4. per kernel on the first size: a source profile (profiling/source/source_collector.h:
//      stall samples and counts per instruction, the SASS and the CUDA source text), so the
//      Source panel opens without a GPU or a toolkit;
//   5. per traced rung (kernels/trace_capture.h) on the first size: the warp timeline of its
//      first kRecordTraceBlocks blocks, so the Timeline panel opens without a GPU.
// Checks first, so a long run never ends in a usage error: arguments (exit 2), the output
// path (exit 1, nothing created), a GPU and the counter permission (exit 3). The file is written
// once, at the end, atomically. Progress goes to stderr; a summary line to stdout. Exits 1 when a
// kernel failed verification, errored or was refused (the recording keeps its row), like
// `tclens bench`.
// With --kernel path.cu[:NAME][:TYPE] (users' kernels, docs/your-kernel.md), steps 2 and 3 run
// in a worker process (app/worker/): the users' kernels, the --kernels rungs (none by default)
// and the cuBLAS references, benched and profiled there; the DRAM bandwidth and the checks are
// still measured here (so this machine needs the GPU, as without --kernel).

#include <unistd.h>

#include <CLI/CLI.hpp>
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
#include "kernels/bench.h"
#include "kernels/dram_probe.h"
#include "kernels/problem_text.h"
#include "kernels/registry.h"
#include "kernels/trace_capture.h"
#include "profiling/device_info.h"
#include "profiling/kernel_profile.h"
#include "profiling/metric_catalogue.h"
#include "profiling/recorded_mix.h"
#include "profiling/recording.h"
#include "profiling/source/source_collector.h"
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
    WorkerOptions worker;
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

// A profile that could not be taken: what was asked and why not.
profiling::KernelProfile failed_profile(const std::string& kernel_id, kernels::Precision precision,
                                        const kernels::GemmProblem& problem,
                                        const std::string& device,
                                        const profiling::ProfilerError& error) {
    profiling::KernelProfile profile;
    profile.kernel_id = kernel_id;
    profile.precision = precision;
    profile.problem = problem;
    profile.device = device;
    profile.error = error;
    return profile;
}

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

// Step 3: a profile and (unless `timeline_ms` is 0) a timeline of each kernel that ran at
// `problem` in the bench.
void profile_kernels(const std::vector<const kernels::KernelDescriptor*>& kernels,
                     const kernels::GemmProblem& problem, int timeline_ms,
                     profiling::Recording& recording, const Progress& progress) {
    const std::vector<std::string> metrics = profiling::metric_set("default");
    const std::string& device = recording.system.devices.front().name;
    profiling::KernelProfiler profiler;
    int index = 0;
    for (const kernels::KernelDescriptor* kernel : kernels) {
        ++index;
        const std::string step = step_text(index, kernels.size(), kernel->id, problem);
        if (!ran_in_bench(recording, kernel->id, problem)) continue;  // its row says why not
        progress.line("profile " + step);
        const profiling::ProfilerError prepared = profiler.prepare(kernel->id, problem);
        if (!prepared.ok()) {
            recording.profiles.push_back(
                failed_profile(kernel->id, kernel->precision, problem, device, prepared));
            continue;
        }
        profiling::ProfileOptions options;
        options.drop_unavailable = true;  // a set: names this chip lacks are listed, not fatal
        recording.profiles.push_back(profiler.profile(metrics, options));
        if (timeline_ms <= 0) continue;
        progress.line("timeline " + step);
        profiling::TimelineOptions timeline;
        timeline.duration_ms = timeline_ms;
        recording.timelines.push_back(profiler.timeline(timeline));
    }
}

// Step 2 in this process: peaks and the bench of the registry's kernels on `runner`.
void bench_in_process(const std::vector<std::string>& ids,
                      const std::vector<kernels::GemmProblem>& problems,
                      kernels::GemmRunner& runner, profiling::Recording& recording,
                      const Progress& progress) {
    progress.line("measuring peaks on " + recording.system.devices.front().name);
    kernels::BenchRequest request;
    request.kernel_ids = ids;
    request.problems = problems;
    kernels::BenchReport report = kernels::run_bench(
        request, runner,
        [&progress](int index, int total, const kernels::KernelDescriptor& kernel,
                    const kernels::GemmProblem& p) {
            progress.line("bench [" + std::to_string(index + 1) + "/" + std::to_string(total) +
                          "] " + kernel.id + " " + kernels::problem_text(p));
        });
    recording.peaks = std::move(report.peaks);
    recording.peak_error = std::move(report.peak_error);
    recording.bench = std::move(report.rows);
}

// A kernel to profile in the worker: its id and input type.
struct WorkerKernel {
    std::string id;
    kernels::Precision precision = kernels::Precision::kF32;
};

// Step 3 in the worker: a profile of the default set and (unless `timeline_ms` is 0) a timeline
// of each kernel that ran at `problem` in the bench. A request the worker could not answer (it
// failed, crashed or hung: one line) is kept as that kernel's failed profile or timeline.
void profile_in_worker(worker::WorkerClient& client, const std::vector<WorkerKernel>& kernels,
                       const kernels::GemmProblem& problem, int timeline_ms,
                       profiling::Recording& recording, const Progress& progress) {
    const std::string& device = recording.system.devices.front().name;
    auto failed = [&](const worker::Reply& reply) {
        profiling::ProfilerError error;
        error.problem = reply_exit_code(reply) == kExitNeedsResource
                            ? profiling::ProfilerProblem::kUnsupported
                            : profiling::ProfilerProblem::kFailed;
        error.message = reply.message;
        return error;
    };
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
                failed_profile(kernel.id, kernel.precision, problem, device, failed(reply)));
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
            profiling::KernelTimeline timeline;
            timeline.kernel_id = kernel.id;
            timeline.precision = kernel.precision;
            timeline.problem = problem;
            timeline.device = device;
            timeline.error = failed(reply);
            recording.timelines.push_back(std::move(timeline));
        }
    }
}

// Steps 2 and 3 with users' kernels, in a worker: fills the recording's peaks, bench, profiles
// and timelines, and `yours_mixes` with the SASS instruction mix of each kernel's cubin (as the
// worker's load read it). Returns kExitOk, or the exit code of a failure that stops the recording
// (a kernel that does not load, a bench the worker could not finish: one line on stderr).
int bench_and_profile_in_worker(const RecordOptions& options,
                                const std::vector<kernels::GemmProblem>& problems,
                                const std::vector<std::string>& ids,
                                profiling::Recording& recording, const Progress& progress,
                                std::vector<profiling::RecordedInstructionMix>& yours_mixes) {
    worker::WorkerClient client(client_options(options.worker));
    if (const int code = check_remote_gpu(client, options.worker); code != kExitOk) return code;
    const ProgressLines lines("record");
    std::vector<worker::LoadResult> loaded;
    const int load_code = load_kernels(client, options.user_kernels, {}, false, lines, loaded);
    if (load_code != kExitOk) return load_code;
    worker::BenchRequest bench;
    bench.kernels = ids;
    std::vector<std::string> registry_ids = ids;
    for (const worker::LoadResult& kernel : loaded) {
        bench.kernels.push_back(kernel.id);
        registry_ids.push_back(kernel.reference_id);
        if (kernel.instruction_mix) yours_mixes.push_back(*kernel.instruction_mix);
    }
    bench.problems = problems;
    progress.line("measuring peaks on " + recording.system.devices.front().name);
    worker::Reply reply = client.call(bench, lines);
    lines.done();
    worker::BenchResult result;
    if (!worker::read_result(reply, "bench", worker::bench_from_json, result))
        return report_failure(reply);
    recording.peaks = std::move(result.report.peaks);
    recording.peak_error = std::move(result.report.peak_error);
    recording.bench = std::move(result.report.rows);
    std::vector<WorkerKernel> profiled;
    std::string unknown;  // an id bench_kernels does not know is not profiled
    for (const kernels::KernelDescriptor* kernel : kernels::bench_kernels(registry_ids, unknown))
        profiled.push_back({kernel->id, kernel->precision});
    for (const worker::LoadResult& kernel : loaded)
        profiled.push_back({kernel.id, kernel.precision});
    profile_in_worker(client, profiled, problems.front(),
                      options.no_timelines ? 0 : options.timeline_ms, recording, progress);
    return kExitOk;
}

// Step 4: a source profile of each kernel that ran at `problem` in the bench.
void source_profile_kernels(const std::vector<const kernels::KernelDescriptor*>& kernels,
                            const kernels::GemmProblem& problem, profiling::Recording& recording,
                            const Progress& progress) {
    int index = 0;
    for (const kernels::KernelDescriptor* kernel : kernels) {
        ++index;
        if (!ran_in_bench(recording, kernel->id, problem)) continue;
        progress.line("source " + step_text(index, kernels.size(), kernel->id, problem));
        profiling::SourceRequest request;
        request.kernel_id = kernel->id;
        request.problem = problem;
        recording.sources.push_back(profiling::collect_source_profile(request));
    }
}

// Blocks whose warps a recording's traces hold: enough for a few SMs' worth, small in the file.
constexpr int kRecordTraceBlocks = 8;

// Step 5: the warp timeline of each kernel with trace points that ran at `problem` in the bench;
// recording.traces_missing says why there are none.
void trace_kernels(const std::vector<const kernels::KernelDescriptor*>& kernels,
                   const kernels::GemmProblem& problem, profiling::Recording& recording,
                   const Progress& progress) {
    kernels::GemmRunner runner;
    std::string last_error;
    int index = 0;
    for (const kernels::KernelDescriptor* kernel : kernels) {
        ++index;
        if (!kernel->traced.launch || !ran_in_bench(recording, kernel->id, problem)) continue;
        progress.line("trace " + step_text(index, kernels.size(), kernel->id, problem));
        std::string error = kernels::trace_blocks_error(*kernel, problem, kRecordTraceBlocks);
        if (error.empty()) {
            kernels::TraceCapture capture =
                kernels::capture_trace(runner, *kernel, problem, kRecordTraceBlocks, {});
            error = capture.error;
            if (error.empty()) recording.traces.push_back(std::move(capture.trace));
        }
        if (!error.empty()) {
            last_error = kernel->id + ": " + error;
            std::fprintf(stderr, "tclens: no trace of %s\n", last_error.c_str());
        }
    }
    if (!recording.traces.empty()) return;
    recording.traces_missing =
        !last_error.empty()
            ? "tracing failed: " + last_error
            : "no kernel with trace points (rungs 8-12) ran at " + kernels::problem_text(problem);
}

// Step 6: each kernel's SASS instruction mix for this GPU's cubin, from this build's census,
// else from the SASS of its source profile, so the recording shows it where the build has none
// (profiling/recorded_mix.h); kernels of yours, from the cubin the worker built (`yours_mixes`).
void add_instruction_mixes(const std::vector<std::string>& ids,
                           const std::vector<profiling::RecordedInstructionMix>& yours_mixes,
                           profiling::Recording& recording) {
    const profiling::DeviceFacts& gpu = recording.system.devices.front();
    const int sm = gpu.cc_major * 10 + gpu.cc_minor;
    recording.instruction_mixes =
        profiling::built_in_mixes(ids, sm, recording.instruction_mixes_missing);
    profiling::add_missing_mixes(recording.instruction_mixes,
                                 profiling::mixes_from_sources(recording.sources, sm));
    profiling::add_missing_mixes(recording.instruction_mixes, yours_mixes);
    if (!recording.instruction_mixes.empty()) recording.instruction_mixes_missing.clear();
    if (!recording.instruction_mixes_missing.empty()) {
        std::fprintf(stderr, "tclens: the recording has no instruction mixes: %s\n",
                     recording.instruction_mixes_missing.c_str());
    }
}

// The line saying what `recording`, written to `path`, holds; kExitFailure (with a line on
// stderr) when a run failed verification, errored or was refused, else kExitOk.
int print_summary(const std::string& path, const profiling::Recording& recording) {
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
    int sources_ok = 0;
    for (const profiling::SourceProfile& p : recording.sources) sources_ok += p.ok() ? 1 : 0;
    std::printf(
        "wrote %s: %zu bench rows (%d verified and timed), %d of %zu profiles, %d of %zu "
        "timelines, %d of %zu source profiles, %zu instruction mixes, %zu traces (%zu phases), "
        "DRAM %.2f TB/s, on %s\n",
        path.c_str(), recording.bench.size(), counted, profiles_ok, recording.profiles.size(),
        timelines_ok, recording.timelines.size(), sources_ok, recording.sources.size(),
        recording.instruction_mixes.size(), recording.traces.size(), trace_phases,
        recording.dram_bandwidth.bytes_per_s / 1e12, recording.system.devices.front().name.c_str());
    if (failed > 0) {
        std::fprintf(stderr,
                     "tclens: %d run%s failed verification, errored or was refused; the "
                     "recording keeps their rows\n",
                     failed, failed == 1 ? "" : "s");
        return kExitFailure;
    }
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
    const bool yours = !options.user_kernels.empty();
    std::vector<std::string> ids = options.kernels;
    if (ids.empty() && !yours) {
        for (const kernels::KernelDescriptor& k : kernels::all_kernels()) {
            if (k.rung > 0) ids.push_back(k.id);
        }
    }
    std::string error;
    const std::vector<const kernels::KernelDescriptor*> profiled =
        kernels::bench_kernels(ids, error);
    if (!ids.empty() && profiled.empty()) return usage_error(error);

    error = check_writable(options.path);
    if (!error.empty()) {
        std::fprintf(stderr, "tclens: cannot write %s: %s\n", options.path.c_str(), error.c_str());
        return kExitFailure;
    }
    profiling::Recording recording;
    recording.system = profiling::query_system();
    if (!recording.system.has_gpu()) {
        std::fprintf(stderr, "tclens: record needs an NVIDIA GPU (%s); run it on a GPU machine\n",
                     recording.system.no_gpu_reason.c_str());
        return kExitNeedsResource;
    }
    {
        // Fail now, not after the bench, when the counters cannot be read.
        profiling::KernelProfiler check;
        const profiling::MetricResolution resolution =
            check.resolve_metrics(profiling::metric_set("default"));
        if (!resolution.error.ok()) {
            std::fprintf(stderr, "tclens: %s\n", resolution.error.message.c_str());
            return resolution.error.needs_resource() ? kExitNeedsResource : kExitFailure;
        }
    }
    recording.tclens_version = TCLENS_VERSION;
    recording.created_utc = profiling::utc_now();
    recording.command = command_text(options);

    const Progress progress;
    {
        kernels::GemmRunner runner;
        if (!runner.init_error().empty()) {
            std::fprintf(stderr, "tclens: %s\n", runner.init_error().c_str());
            return kExitNeedsResource;
        }
        progress.line("measuring DRAM bandwidth");
        kernels::DramMeasurement dram;
        const std::string dram_error = kernels::measure_dram_bandwidth(dram);
        if (dram_error.empty()) {
            recording.dram_bandwidth = {dram.bytes_per_s, dram.method};
        } else {
            std::fprintf(stderr, "tclens: %s (the recording will have no DRAM bandwidth)\n",
                         dram_error.c_str());
        }
        if (!yours) bench_in_process(ids, problems, runner, recording, progress);
    }
    std::vector<profiling::RecordedInstructionMix> yours_mixes;
    if (yours) {
        const int code =
            bench_and_profile_in_worker(options, problems, ids, recording, progress, yours_mixes);
        if (code != kExitOk) return code;
    } else {
        profile_kernels(profiled, problems.front(), options.no_timelines ? 0 : options.timeline_ms,
                        recording, progress);
    }
    // Source profiles run in this process: the registry's kernels get theirs, users' kernels
    // (which only ever run in a worker) none yet.
    if (options.no_sources) {
        recording.sources_missing = "recorded with --no-sources";
    } else {
        source_profile_kernels(profiled, problems.front(), recording, progress);
        if (recording.sources.empty() && yours) {
            recording.sources_missing =
                "kernels of yours (--kernel) run only in a worker, and source profiles are not "
                "taken there yet";
        }
    }
    if (options.no_traces) {
        recording.traces_missing = "recorded with --no-traces";
    } else {
        trace_kernels(profiled, problems.front(), recording, progress);
    }
    progress.done();
    add_instruction_mixes(ids, yours_mixes, recording);

    error = profiling::save_recording(options.path, recording);
    if (!error.empty()) {
        std::fprintf(stderr, "tclens: %s\n", error.c_str());
        return kExitFailure;
    }
    return print_summary(options.path, recording);
}

}  // namespace

void add_record_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "record",
        "Write a recording (device, peaks, DRAM bandwidth, bench, profiles, PM timelines) that "
        "the GUI opens without a GPU; needs a GPU and profiling permission. Default: every rung "
        "and its cuBLAS reference at 4096x4096x4096 plus 3072, 512 and 16 x 3072 x 3072, "
        "profiles, 300 ms timelines and source profiles at 4096^3 (without source profiles: 49 s "
        "on an H100)");
    auto options = std::make_shared<RecordOptions>();
    command->add_option("FILE", options->path, "Recording to write (JSON)")->required();
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
                        "repeatable): benched and profiled in a worker process next to --kernels "
                        "(none by default) and its cuBLAS reference");
    add_worker_options(*command, options->worker);
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
