#include "app/gui/jobs/profile_job.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "app/gui/jobs/app_context.h"
#include "kernels/problem_text.h"
#include "kernels/registry.h"
#include "profiling/metric_catalogue.h"
#include "profiling/range_profiler.h"

namespace tclens::gui {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kPausePoll = std::chrono::milliseconds(20);

// Publishes copies of one mutable LiveProfile, and keeps the update rate.
class Publisher {
  public:
    Publisher(AppContext& context, LiveProfile& live) : context_(context), live_(live) {}
    void publish() { context_.live_profile.publish(std::make_shared<const LiveProfile>(live_)); }
    void count_update() {
        ++live_.updates;
        const double seconds = std::chrono::duration<double>(active_).count() +
                               std::chrono::duration<double>(Clock::now() - resumed_).count();
        live_.updates_per_s = seconds > 0 ? double(live_.updates) / seconds : 0;
    }
    // Waits while paused; false when stopped meanwhile (or already).
    bool wait_while_paused(const JobProgress& progress, const LiveControl& control) {
        if (control.paused && !progress.cancelled()) {
            active_ += Clock::now() - resumed_;
            live_.paused = true;
            publish();
            while (control.paused && !progress.cancelled()) std::this_thread::sleep_for(kPausePoll);
            live_.paused = false;
            resumed_ = Clock::now();
            publish();
        }
        return !progress.cancelled();
    }

  private:
    AppContext& context_;
    LiveProfile& live_;
    Clock::duration active_{};
    Clock::time_point resumed_ = Clock::now();
};

std::string request_error(const ProfileRequest& request) {
    if (request.kernel_ids.empty()) return "no kernel chosen";
    for (const std::string& id : request.kernel_ids) {
        if (kernels::find_kernel(id) == nullptr) return "unknown kernel '" + id + "'";
    }
    if (request.problem.m < 1 || request.problem.n < 1 || request.problem.k < 1) {
        return "size " + kernels::problem_text(request.problem) + ": M, N and K must be >= 1";
    }
    if (request.mode == ProfileMode::kMetrics &&
        profiling::metric_set(request.metric_set).empty()) {
        return "unknown metric set '" + request.metric_set +
               "'; sets: " + profiling::metric_set_names();
    }
    return "";
}

// One profile of kernel `index`, into its KernelLive; false when it failed.
bool profile_once(profiling::KernelProfiler& profiler, const std::vector<std::string>& names,
                  LiveProfile& live, std::size_t index) {
    profiling::ProfileOptions options;
    options.drop_unavailable = true;
    KernelLive& kernel = live.kernels[index];
    auto profile =
        std::make_shared<const profiling::KernelProfile>(profiler.profile(names, options));
    if (!profile->ok()) {
        kernel.error = profile->error.message;
        kernel.problem = profile->error.problem;
        kernel.latest = std::move(profile);
        return false;
    }
    if (kernel.history.size() != profile->metrics.size()) {
        kernel.history.assign(profile->metrics.size(), {});
    }
    for (size_t i = 0; i < profile->metrics.size(); ++i) {
        push_capped(kernel.history[i], profile->metrics[i].value, live.request.history);
    }
    kernel.latest = std::move(profile);
    ++kernel.updates;
    return true;
}

// Prepares every kernel (a kernel that fails keeps its error), then profiles the prepared ones
// in turn until stopped, max_updates (of all kernels) or a profile fails: a failed profile is a
// CUPTI or GPU problem, not the kernel's, so it ends the job with the kernel's error.
void run_metrics(LiveProfile& live, Publisher& out, JobProgress& progress,
                 const LiveControl& control) {
    const std::vector<std::string> names = profiling::metric_set(live.request.metric_set);
    auto range = std::make_shared<profiling::RangeProfiler>(0);
    std::vector<std::unique_ptr<profiling::KernelProfiler>> profilers;
    const std::size_t count = live.request.kernel_ids.size();
    for (std::size_t i = 0; i < count; ++i) {
        if (progress.cancelled()) return;
        const std::string& id = live.request.kernel_ids[i];
        const std::string of_count =
            count > 1 ? " (" + std::to_string(i + 1) + "/" + std::to_string(count) + ")" : "";
        progress.report(
            float(i) / float(count),
            "verifying " + id + " " + kernels::problem_text(live.request.problem) + of_count);
        profilers.push_back(std::make_unique<profiling::KernelProfiler>(0, range));
        const profiling::ProfilerError prepared =
            profilers.back()->prepare(id, live.request.problem);
        if (!prepared.ok()) {
            live.kernels[i].error = prepared.message;
            live.kernels[i].problem = prepared.problem;
            profilers.back().reset();
            out.publish();
        }
    }
    const bool any = std::any_of(profilers.begin(), profilers.end(),
                                 [](const auto& profiler) { return profiler != nullptr; });
    if (!any) {
        // One reason for all (no GPU, no permission) is said once; else each kernel says its own.
        const bool same =
            std::all_of(live.kernels.begin(), live.kernels.end(),
                        [&](const KernelLive& k) { return k.error == live.kernels.front().error; });
        const bool same_problem = std::all_of(
            live.kernels.begin(), live.kernels.end(),
            [&](const KernelLive& k) { return k.problem == live.kernels.front().problem; });
        live.error =
            same ? live.kernels.front().error : "none of the chosen kernels could be profiled";
        live.problem =
            same_problem ? live.kernels.front().problem : profiling::ProfilerProblem::kFailed;
        return;
    }
    while (true) {
        for (std::size_t i = 0; i < count; ++i) {
            if (!profilers[i]) continue;
            if (!out.wait_while_paused(progress, control)) return;
            if (!profile_once(*profilers[i], names, live, i)) {
                live.error = live.request.kernel_ids[i] + ": " + live.kernels[i].error;
                live.problem = live.kernels[i].problem;
                return;
            }
            out.count_update();
            out.publish();
            progress.report(0.0f, std::to_string(live.updates) + " updates");
            if (live.request.max_updates > 0 && live.updates >= live.request.max_updates) return;
        }
    }
}

void run_timeline(LiveProfile& live, Publisher& out, JobProgress& progress,
                  const LiveControl& control) {
    const std::string& id = live.request.kernel_ids.front();
    progress.report(0.0f, "verifying " + id + " " + kernels::problem_text(live.request.problem));
    profiling::KernelProfiler profiler;
    const profiling::ProfilerError prepared = profiler.prepare(id, live.request.problem);
    if (!prepared.ok()) {
        live.error = prepared.message;
        live.problem = prepared.problem;
        return;
    }
    profiling::TimelineOptions options;
    options.duration_ms = live.request.timeline_ms;
    options.interval_ns = live.request.interval_ns;
    auto timeline = std::make_shared<const profiling::KernelTimeline>(
        profiler.timeline(options, [&](const profiling::PmSnapshot& newest) {
            if (!out.wait_while_paused(progress, control)) return false;
            if (live.timeline_metrics != newest.metrics) {
                live.timeline_metrics = newest.metrics;
                live.timeline_history.assign(newest.metrics.size(), {});
            }
            if (newest.samples.empty()) return true;
            for (const profiling::PmSample& sample : newest.samples) {
                for (size_t i = 0; i < sample.values.size() && i < live.timeline_history.size();
                     ++i) {
                    push_capped(live.timeline_history[i], sample.values[i], live.request.history);
                }
            }
            live.samples += newest.samples.size();
            out.count_update();
            out.publish();
            progress.report(0.0f, std::to_string(live.samples) + " samples");
            return !progress.cancelled();
        }));
    if (!timeline->ok()) {
        live.error = timeline->error.message;
        live.problem = timeline->error.problem;
    }
    live.timeline = std::move(timeline);
}

}  // namespace

const KernelLive* LiveProfile::find(const std::string& kernel_id) const {
    for (const KernelLive& kernel : kernels) {
        if (kernel.kernel_id == kernel_id) return &kernel;
    }
    return nullptr;
}

bool LiveProfile::has_profile() const {
    return std::any_of(kernels.begin(), kernels.end(),
                       [](const KernelLive& k) { return k.latest && k.latest->ok(); });
}

void push_capped(std::vector<double>& values, double value, std::size_t capacity) {
    values.push_back(value);
    if (values.size() > capacity) {
        values.erase(values.begin(), values.begin() + std::ptrdiff_t(values.size() - capacity));
    }
}

JobHandle request_live_profile(AppContext& context, ProfileRequest request,
                               std::shared_ptr<LiveControl> control) {
    if (!control) control = std::make_shared<LiveControl>();
    return context.jobs.post("Profile live", [&context, request, control](JobProgress& progress) {
        LiveProfile live;
        live.request = request;
        if (request.mode == ProfileMode::kMetrics) {
            for (const std::string& id : request.kernel_ids) {
                live.kernels.emplace_back();
                live.kernels.back().kernel_id = id;
            }
        }
        const auto system = context.system.latest();
        if (system && system->has_gpu()) live.device = system->devices.front().name;
        Publisher out(context, live);
        live.error = request_error(request);
        if (!live.error.empty()) {
            live.problem = profiling::ProfilerProblem::kInvalidRequest;
            out.publish();
            return;
        }
        live.running = true;
        out.publish();
        if (request.mode == ProfileMode::kMetrics) {
            run_metrics(live, out, progress, *control);
        } else {
            run_timeline(live, out, progress, *control);
        }
        live.running = false;
        live.paused = false;
        out.publish();
    });
}

}  // namespace tclens::gui
