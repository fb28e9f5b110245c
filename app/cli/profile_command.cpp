// `tclens profile --kernel K [--mnk MxNxK] [--metrics a,b,... | --set default|all] [--json]`:
// verifies the kernel, then collects metrics of one run under the CUPTI Range Profiler
// (profiling/kernel_profile.h) and prints them with their labels and units, the pass count and the
// launch facts (registers, shared memory, blocks per SM).
// `tclens profile --kernel K [--mnk MxNxK] --timeline [--interval-us N] [--duration-ms N]
// [--metrics ...] [--json]`: runs the kernel back to back for a while under PM sampling and prints
// the samples (tensor pipe %, DRAM %, FMA % by default) and the sampling overhead.
// `tclens profile --list-metrics [--json]`: the metric catalogue.
// `tclens profile --kernel K [--mnk MxNxK] [--timeline] --live-updates N`: the streaming request
// the GUI's Profile panel "Live" sends (live_profile), until N updates (profiles, or batches of
// PM samples), and the rate they came at: "200 updates in 3.210 s: 62.0 updates/s", timed from
// the first update (CUPTI's set-up is done) to the last. Through --worker or --remote it is the
// rate over that link (scripts/live_rate.sh compares it with profiling in one process).
// Every profile is taken in a worker (app/worker/, the one path to the GPU; --worker, --remote,
// --time-limit say which and how long a run may take): a registry id goes there as a `profile`
// request; a kernel of yours, `--kernel path.cu[:NAME][:TYPE]` (docs/your-kernel.md), is loaded
// there first. Ids, sizes, sets and metric names the CLI can check are checked before a worker
// starts. Exit codes: 2 for an unknown kernel, size, set or metric (with suggestions), 3 when
// there is no GPU or no profiling permission or the counters are busy (with the fix) or the
// worker cannot start, 1 when the kernel fails verification, CUPTI fails otherwise or the worker
// crashed, hung or faulted.

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "app/cli/profiler_args.h"
#include "app/cli/usage_error.h"
#include "app/cli/worker_calls.h"
#include "app/exit_codes.h"
#include "app/worker/gpu_calls.h"
#include "kernels/problem_text.h"
#include "kernels/registry.h"
#include "kernels/user/kernel_ref.h"
#include "profiling/metric_catalogue.h"
#include "profiling/profile_json.h"

namespace tclens::cli {
namespace {

struct ProfileOptions {
    bool list_metrics = false;
    std::string kernel;
    std::string size = "4096x4096x4096";
    std::vector<std::string> metrics;
    std::string set;
    bool json = false;
    bool timeline = false;
    int interval_us = 1000;
    int duration_ms = 500;
    bool no_l2_flush = false;
    std::uint64_t seed = 1;
    std::uint64_t live_updates = 0;  // --live-updates N; 0: one profile
    CLI::Option* interval_option = nullptr;
    CLI::Option* duration_option = nullptr;
    WorkerOptions worker;
};

void print_catalogue(bool json) {
    if (json) {
        nlohmann::json out = nlohmann::json::array();
        for (const profiling::MetricInfo& info : profiling::metric_catalogue()) {
            out.push_back(profiling::to_json(info));
        }
        std::printf("%s\n", out.dump(2).c_str());
        return;
    }
    const char* headings[] = {"range profiler (tclens profile --metrics NAME,...)",
                              "launch facts (CUPTI activity records)",
                              "PM sampling (tclens profile --timeline --metrics NAME,...)"};
    const profiling::MetricSource sources[] = {profiling::MetricSource::kRangeProfiler,
                                               profiling::MetricSource::kLaunch,
                                               profiling::MetricSource::kPmSampling};
    for (int s = 0; s < 3; ++s) {
        std::printf("%s%s:\n", s == 0 ? "" : "\n", headings[s]);
        for (const profiling::MetricInfo& info : profiling::metric_catalogue()) {
            if (info.source != sources[s]) continue;
            std::printf("  %s%s\n      %s [%s]: %s\n", info.name.c_str(),
                        info.in_default_set ? "  (default)" : "", info.label.c_str(),
                        info.unit.c_str(), info.meaning.c_str());
        }
    }
    std::printf("\nsets (--set): %s. Any other CUPTI metric name may be given; the GPU decides.\n",
                profiling::metric_set_names().c_str());
}

void print_run_header(const std::string& kernel, const kernels::GemmProblem& problem,
                      kernels::Precision precision, const std::string& device,
                      const std::string& chip, const kernels::Verification& check) {
    std::printf("%s %s (%s) on %s (%s)\n", kernel.c_str(), kernels::problem_text(problem).c_str(),
                kernels::precision_name(precision), device.c_str(), chip.c_str());
    std::printf("verified: rel. RMS error %.1e vs %s (bound %.0e)\n", check.rel_rms_error,
                check.reference.c_str(), check.bound);
}

void print_profile(const profiling::KernelProfile& profile) {
    print_run_header(profile.kernel_id, profile.problem, profile.precision, profile.device,
                     profile.chip, profile.check);
    std::printf("%zu pass%s%s; prepare %.0f ms, profile %.0f ms\n\n", profile.passes,
                profile.passes == 1 ? "" : "es",
                profile.l2_flushed ? ", L2 flushed before each" : "", profile.prepare_ms,
                profile.profile_ms);
    std::printf("%-28s %18s  %s\n", "metric", "value", "CUPTI name");
    for (const profiling::MetricValue& metric : profile.metrics) {
        std::printf("%-28s %18s  %s\n", metric.label.c_str(),
                    profiling::format_metric_value(metric.value, metric.unit).c_str(),
                    metric.name.c_str());
    }
    for (const profiling::UnavailableMetric& metric : profile.unavailable) {
        std::printf("%-28s %18s  %s\n", "unavailable", "-", metric.reason.c_str());
    }
    if (profile.launches.empty()) {
        std::printf("\nlaunch facts: unavailable (%s)\n", profile.launch_error.c_str());
        return;
    }
    std::printf("\nlaunches (CUPTI activity records):\n");
    for (const profiling::KernelLaunch& launch : profile.launches) {
        std::printf(
            "  %s\n    grid %dx%dx%d, block %dx%dx%d, %d registers/thread, %d + %d bytes "
            "shared/block, %.3f ms\n",
            launch.name.c_str(), launch.grid[0], launch.grid[1], launch.grid[2], launch.block[0],
            launch.block[1], launch.block[2], launch.registers_per_thread,
            launch.static_shared_bytes, launch.dynamic_shared_bytes, launch.duration_ns / 1e6);
    }
    const profiling::Occupancy& o = profile.occupancy;
    std::printf(
        "blocks/SM: %d (limited by %s; registers %d, shared memory %d, warps %d, block "
        "slots %d), theoretical occupancy %.1f %%\n",
        o.blocks_per_sm, o.limiter.c_str(), o.limit_registers, o.limit_shared_mem, o.limit_warps,
        o.limit_blocks, o.theoretical_pct);
}

void print_timeline(const profiling::KernelTimeline& timeline) {
    print_run_header(timeline.kernel_id, timeline.problem, timeline.precision, timeline.device,
                     timeline.chip, timeline.check);
    std::printf("%zu samples, interval %.0f us requested (%s trigger), %.0f us measured",
                timeline.samples.size(), timeline.interval_ns / 1e3,
                profiling::pm_trigger_name(timeline.trigger), timeline.measured_interval_ns / 1e3);
    if (timeline.lost > 0 || timeline.dropped > 0 || timeline.overflow) {
        std::printf("; %llu lost, %llu dropped%s", static_cast<unsigned long long>(timeline.lost),
                    static_cast<unsigned long long>(timeline.dropped),
                    timeline.overflow ? ", hardware buffer overflowed" : "");
    }
    std::printf(
        "\nkernel: %.4f ms per launch alone, %.4f ms while sampling (%+.1f %%), %llu "
        "launches in %.0f ms\n\n",
        timeline.kernel_ms_alone, timeline.kernel_ms_sampled, timeline.overhead_pct(),
        static_cast<unsigned long long>(timeline.launches), timeline.run_ms);
    std::printf("%10s", "t ms");
    for (const std::string& name : timeline.metrics) {
        const profiling::MetricInfo* info = profiling::find_metric(name);
        std::string heading = info ? info->label + " " + info->unit : name;
        std::printf("  %24s", heading.c_str());
    }
    std::printf("\n");
    const std::uint64_t first = timeline.samples.empty() ? 0 : timeline.samples.front().start_ns;
    for (const profiling::PmSample& sample : timeline.samples) {
        std::printf("%10.3f", (sample.start_ns - first) / 1e6);
        for (double value : sample.values) std::printf("  %24.2f", value);
        std::printf("\n");
    }
    std::printf("\nPM sampling sees the whole GPU, other processes included.\n");
}

// The metric names to use, or a usage error in `error`.
std::vector<std::string> chosen_metrics(const ProfileOptions& options, std::string& error) {
    if (!options.metrics.empty() && !options.set.empty()) {
        error = "--metrics and --set are exclusive: give names or a set";
        return {};
    }
    std::vector<std::string> names;
    if (!options.set.empty()) {
        names = profiling::metric_set(options.set);
        if (names.empty()) {
            error =
                "unknown metric set '" + options.set + "'; valid: " + profiling::metric_set_names();
        } else if ((options.set == "timeline") != options.timeline) {
            error = options.timeline
                        ? "--timeline samples the 'timeline' set or --metrics names, not '" +
                              options.set + "'"
                        : "the 'timeline' set is for --timeline";
            names.clear();
        }
        return names;
    }
    std::set<std::string> seen;
    for (const std::string& name : options.metrics) {
        if (name.empty() || !seen.insert(name).second) continue;
        if (profiling::find_metric(name) == nullptr && !profiling::looks_like_metric_name(name)) {
            error = profiling::unknown_metric_message(name, profiling::suggest_metrics(name));
            return {};
        }
        names.push_back(name);
    }
    if (names.empty()) names = profiling::metric_set(options.timeline ? "timeline" : "default");
    return names;
}

// Prints a profile or timeline as --json or text.
void print_result(const ProfileOptions& options, const profiling::KernelProfile* profile,
                  const profiling::KernelTimeline* timeline) {
    if (timeline != nullptr) {
        if (options.json) {
            std::printf("%s\n", profiling::to_json(*timeline).dump(2).c_str());
        } else {
            print_timeline(*timeline);
        }
        return;
    }
    if (options.json) {
        nlohmann::json out = profiling::to_json(*profile);
        out["seed"] = options.seed;
        std::printf("%s\n", out.dump(2).c_str());
    } else {
        print_profile(*profile);
    }
}

// --live-updates: the live_profile request of `kernel` (an id the worker knows) until
// options.live_updates updates, then the rate they came at.
int measure_live_rate(worker::WorkerClient& client, const ProfileOptions& options,
                      const std::string& kernel, const kernels::GemmProblem& problem,
                      const std::vector<std::string>& metrics, const ProgressLines& progress) {
    using Clock = std::chrono::steady_clock;
    worker::LiveProfileRequest request;
    request.kernels = {kernel};
    request.problem = problem;
    request.seed = options.seed;
    request.max_updates = options.live_updates;
    if (options.timeline) {
        worker::LiveTimelineSettings timeline;
        timeline.metrics = metrics;
        timeline.interval_ns = static_cast<std::uint64_t>(options.interval_us) * 1000;
        request.timeline = timeline;
    } else {
        request.metrics = metrics;
    }
    std::uint64_t updates = 0;
    std::uint64_t samples = 0;
    Clock::time_point first;
    Clock::time_point last;
    worker::LiveProfileResult result;
    worker::Reply reply = worker::profile_live(
        client, request,
        [&](const worker::LiveUpdate& update) {
            if (update.kind == worker::LiveUpdate::Kind::kKernelError) return;
            last = Clock::now();
            if (updates++ == 0) first = last;
            samples += update.samples.size();
        },
        {}, result, terminal_only(progress));
    progress.done();
    if (!reply.ok()) return report_failure(reply);
    const double seconds = std::chrono::duration<double>(last - first).count();
    const double intervals = updates > 1 ? double(updates - 1) : 0.0;
    std::printf("%llu updates in %.3f s: %.1f updates/s\n",
                static_cast<unsigned long long>(updates), seconds,
                seconds > 0 ? intervals / seconds : 0.0);
    if (options.timeline) {
        std::printf("%llu PM samples: %.0f samples/s\n", static_cast<unsigned long long>(samples),
                    seconds > 0 ? double(samples) / seconds : 0.0);
    }
    return kExitOk;
}

// Every profile: in a worker, where a kernel of yours is loaded first; verified and profiled there.
int run_profile_in_worker(const ProfileOptions& options, const kernels::GemmProblem& problem,
                          const std::vector<std::string>& metrics, bool yours) {
    if (yours) {
        if (const std::string bad = check_kernel_refs({options.kernel}); !bad.empty())
            return usage_error(bad);
    }
    worker::WorkerClient client(client_options(options.worker));
    if (const int code = check_remote_gpu(client, options.worker); code != kExitOk) return code;
    const ProgressLines progress("profile");
    worker::WorkerProfileRequest request;
    request.kernel = options.kernel;
    if (yours) {
        std::vector<worker::LoadResult> loaded;
        const int load_code =
            load_kernels(client, {options.kernel}, {problem}, false, progress, loaded);
        if (load_code != kExitOk) return load_code;
        const worker::LoadResult& kernel = loaded.front();
        if (!kernel.can_run.empty() && !kernel.can_run.front().reason.empty()) {
            progress.done();
            return usage_error(kernel.id + " cannot run " + kernels::problem_text(problem) + ": " +
                               kernel.can_run.front().reason);
        }
        request.kernel = kernel.id;
    }
    if (options.live_updates > 0)
        return measure_live_rate(client, options, request.kernel, problem, metrics, progress);
    request.problem = problem;
    request.seed = options.seed;
    if (options.timeline) {
        worker::TimelineSettings timeline;
        timeline.metrics = metrics;
        timeline.interval_ns = static_cast<std::uint64_t>(options.interval_us) * 1000;
        timeline.duration_ms = options.duration_ms;
        request.timeline = timeline;
    } else {
        request.metrics = metrics;
        request.drop_unavailable = !options.set.empty() || options.metrics.empty();
        request.flush_l2 = !options.no_l2_flush;
    }
    worker::Reply reply = client.call(request, terminal_only(progress));
    progress.done();
    worker::ProfileResult result;
    if (!worker::read_result(reply, "profile", worker::profile_from_json, result))
        return report_failure(reply);
    print_result(options, result.profile ? &*result.profile : nullptr,
                 result.timeline ? &*result.timeline : nullptr);
    return kExitOk;
}

int run_profile(const ProfileOptions& options) {
    if (options.list_metrics) {
        print_catalogue(options.json);
        return kExitOk;
    }
    if (options.kernel.empty()) return usage_error("give --kernel K (tclens kernels lists them)");
    const bool yours = kernels::user::names_kernel_file(options.kernel);
    const kernels::KernelDescriptor* kernel =
        yours ? nullptr : kernels::find_kernel(options.kernel);
    if (!yours && kernel == nullptr) return usage_error(unknown_kernel_message(options.kernel));
    const auto problem = kernels::parse_problem(options.size);
    if (!problem) return usage_error(kernels::problem_error(options.size));
    const std::string cannot = yours ? "" : kernel->can_run(*problem);
    if (!cannot.empty()) {
        return usage_error(kernel->id + " cannot run " + kernels::problem_text(*problem) + ": " +
                           cannot);
    }
    if (!options.timeline &&
        (options.interval_option->count() > 0 || options.duration_option->count() > 0)) {
        return usage_error("--interval-us and --duration-ms need --timeline");
    }
    if (options.live_updates > 0 && (options.json || options.duration_option->count() > 0)) {
        return usage_error(
            "--live-updates prints the update rate: it takes neither --json nor --duration-ms");
    }
    std::string error;
    const std::vector<std::string> metrics = chosen_metrics(options, error);
    if (!error.empty()) return usage_error(error);
    return run_profile_in_worker(options, *problem, metrics, yours);
}

}  // namespace

void add_profile_command(CLI::App& app, int& exit_code) {
    auto* command = app.add_subcommand(
        "profile",
        "CUPTI metrics of one verified kernel run, or a PM-sampling timeline; needs a GPU and "
        "profiling permission");
    auto options = std::make_shared<ProfileOptions>();
    command->add_option("--kernel", options->kernel,
                        "Kernel id (see tclens kernels), or a kernel of yours, "
                        "path.cu[:NAME][:TYPE] (docs/your-kernel.md), profiled in a worker");
    command->add_option("--mnk", options->size, "Problem size MxNxK")->capture_default_str();
    command
        ->add_option("--metrics", options->metrics,
                     "CUPTI metric names, comma-separated (see --list-metrics)")
        ->delimiter(',');
    command->add_option("--set", options->set,
                        "Metric set: " + profiling::metric_set_names() +
                            " (default: 'default', or 'timeline' with --timeline)");
    command->add_flag("--json", options->json, "Machine-readable output");
    command->add_flag("--timeline", options->timeline,
                      "PM-sampling timeline of the kernel running back to back");
    options->interval_option = command
                                   ->add_option("--interval-us", options->interval_us,
                                                "PM sampling interval in us (100-10000)")
                                   ->capture_default_str()
                                   ->check(CLI::Range(100, 10000));
    options->duration_option = command
                                   ->add_option("--duration-ms", options->duration_ms,
                                                "Length of the sampled loop in ms (50-10000)")
                                   ->capture_default_str()
                                   ->check(CLI::Range(50, 10000));
    command->add_flag("--no-l2-flush", options->no_l2_flush,
                      "Do not flush the L2 cache before each profiling pass");
    command->add_option("--seed", options->seed, "Seed of the random inputs");
    command
        ->add_option("--live-updates", options->live_updates,
                     "Profile live (as the GUI's Live) until N updates and print their rate")
        ->check(CLI::Range(1, 1000000));
    command->add_flag("--list-metrics", options->list_metrics,
                      "List the metric catalogue and sets");
    add_worker_options(*command, options->worker);
    command->callback([options, &exit_code] { exit_code = run_profile(*options); });
}

}  // namespace tclens::cli
