#include "app/worker/version_build.h"

#include <chrono>

#include "kernels/problem_text.h"
#include "profiling/metric_catalogue.h"

namespace tclens::worker {
namespace {

bool needs_resource(const Reply& reply) {
    return reply.outcome == Reply::Outcome::kCannotStart ||
           (reply.outcome == Reply::Outcome::kError &&
            reply.error.kind == ErrorKind::kNeedsResource);
}

}  // namespace

VersionBuild build_version(WorkerClient& client, int number, const VersionBuildOptions& options,
                           const ProgressHandler& progress, const std::atomic<bool>* cancel,
                           const std::function<void(WatchVersion&)>& benched) {
    VersionBuild build;
    WatchVersion& v = build.version;
    v.number = number;
    // Ends the build on a reply that is no result: cancelled, no resource, or the version's line.
    auto ended = [&](const Reply& reply) {
        if (reply.outcome == Reply::Outcome::kCancelled) {
            build.end = VersionBuild::End::kCancelled;
        } else if (needs_resource(reply)) {
            build.end = VersionBuild::End::kNeedsResource;
            build.stop = reply;
        } else {
            v.error = reply.message;
            if (reply.worker_lost()) v.error += "; a fresh worker starts at the next save";
        }
        return build;
    };

    LoadRequest load;
    load.ref = options.ref;
    load.problems = {options.problem};
    Reply reply = client.call(load, progress, cancel);
    if (!read_result(reply, "load", load_from_json, build.loaded)) return ended(reply);
    const LoadResult& loaded = build.loaded;
    v.compile_s = loaded.compile_ms / 1e3;
    v.load_s = loaded.load_ms / 1e3;
    v.mix = loaded.instruction_mix;
    v.mix_missing = loaded.instruction_mix_missing;
    if (!loaded.can_run.empty() && !loaded.can_run.front().reason.empty()) {
        v.error = loaded.id + " cannot run " + kernels::problem_text(options.problem) + ": " +
                  loaded.can_run.front().reason;
        return build;
    }

    BenchRequest bench;
    bench.kernels = {loaded.id};
    bench.problems = {options.problem};
    bench.runs = options.runs;
    bench.warmup = options.warmup;
    bench.peaks = false;
    reply = client.call(bench, progress, cancel);
    BenchResult result;
    if (!read_result(reply, "bench", bench_from_json, result)) return ended(reply);
    for (std::size_t i = 0; i < result.report.rows.size(); ++i) {
        const kernels::BenchRow& row = result.report.rows[i];
        if (row.result.kernel_id == loaded.id) {
            v.row = row;
            v.verify_s = result.times[i].verify_ms / 1e3;
            v.time_s = result.times[i].time_ms / 1e3;
        } else if (row.result.kernel_id == loaded.reference_id) {
            v.reference = row;
        }
    }
    if (benched) benched(v);
    if (!options.profile || !v.good()) return build;

    WorkerProfileRequest profile;
    profile.kernel = loaded.id;
    profile.problem = options.problem;
    profile.metrics = profiling::metric_set("default");
    profile.drop_unavailable = true;
    const auto started = std::chrono::steady_clock::now();
    reply = client.call(profile, progress, cancel);
    v.profile_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (reply.outcome == Reply::Outcome::kCancelled || needs_resource(reply)) return ended(reply);
    ProfileResult profiled;
    if (read_result(reply, "profile", profile_from_json, profiled) && profiled.profile) {
        v.profile = std::move(profiled.profile);
    } else {
        v.profile_error = reply.message;
    }
    if (!options.timeline) return build;

    WorkerProfileRequest sampled;
    sampled.kernel = loaded.id;
    sampled.problem = options.problem;
    sampled.timeline = TimelineSettings{profiling::metric_set("timeline"),
                                        options.timeline_interval_ns, options.timeline_duration_ms};
    const auto sampling = std::chrono::steady_clock::now();
    reply = client.call(sampled, progress, cancel);
    v.profile_s +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - sampling).count();
    if (reply.outcome == Reply::Outcome::kCancelled) return ended(reply);
    ProfileResult timeline;
    if (read_result(reply, "timeline", profile_from_json, timeline) && timeline.timeline) {
        v.timeline = std::move(timeline.timeline);
    } else {
        v.timeline_error = reply.ok() ? "the worker sent a profile, not a timeline" : reply.message;
    }
    return build;
}

}  // namespace tclens::worker
