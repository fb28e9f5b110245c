#include "app/gui/jobs/profile_job.h"

#include <chrono>
#include <thread>

#include "app/gui/app_context.h"
#include "kernels/problem_text.h"
#include "kernels/registry.h"
#include "profiling/metric_catalogue.h"

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
        if (control.paused && !stopped(progress, control)) {
            active_ += Clock::now() - resumed_;
            live_.paused = true;
            publish();
            while (control.paused && !stopped(progress, control)) std::this_thread::sleep_for(kPausePoll);
            live_.paused = false;
            resumed_ = Clock::now();
            publish();
        }
        return !stopped(progress, control);
    }
    static bool stopped(const JobProgress& progress, const LiveControl& control) {
        return control.stop || progress.cancelled();
    }

private:
    AppContext& context_;
    LiveProfile& live_;
    Clock::duration active_{};
    Clock::time_point resumed_ = Clock::now();
};

std::string request_error(const ProfileRequest& request) {
    if (kernels::find_kernel(request.kernel_id) == nullptr) {
        return "unknown kernel '" + request.kernel_id + "'";
    }
    if (request.problem.m < 1 || request.problem.n < 1 || request.problem.k < 1) {
        return "size " + kernels::problem_text(request.problem) + ": M, N and K must be >= 1";
    }
    if (request.mode == ProfileMode::kMetrics && profiling::metric_set(request.metric_set).empty()) {
        return "unknown metric set '" + request.metric_set + "'; sets: " +
               profiling::metric_set_names();
    }
    return "";
}

void run_metrics(profiling::KernelProfiler& profiler, LiveProfile& live, Publisher& out,
                 JobProgress& progress, const LiveControl& control) {
    const std::vector<std::string> names = profiling::metric_set(live.request.metric_set);
    profiling::ProfileOptions options;
    options.drop_unavailable = true;
    while (out.wait_while_paused(progress, control)) {
        auto profile = std::make_shared<const profiling::KernelProfile>(profiler.profile(names, options));
        if (!profile->ok()) {
            live.error = profile->error.message;
            live.latest = std::move(profile);
            return;
        }
        if (live.history.size() != profile->metrics.size()) {
            live.history.assign(profile->metrics.size(), {});
        }
        for (size_t i = 0; i < profile->metrics.size(); ++i) {
            push_capped(live.history[i], profile->metrics[i].value, live.request.history);
        }
        live.latest = std::move(profile);
        out.count_update();
        out.publish();
        progress.report(0.0f, std::to_string(live.updates) + " updates");
        if (live.request.max_updates > 0 && live.updates >= live.request.max_updates) return;
    }
}

void run_timeline(profiling::KernelProfiler& profiler, LiveProfile& live, Publisher& out,
                  JobProgress& progress, const LiveControl& control) {
    profiling::TimelineOptions options;
    options.duration_ms = live.request.timeline_ms;
    options.interval_ns = live.request.interval_ns;
    auto timeline = std::make_shared<const profiling::KernelTimeline>(profiler.timeline(
        options, [&](const profiling::PmSnapshot& newest) {
            if (!out.wait_while_paused(progress, control)) return false;
            if (live.timeline_metrics != newest.metrics) {
                live.timeline_metrics = newest.metrics;
                live.timeline_history.assign(newest.metrics.size(), {});
            }
            if (newest.samples.empty()) return true;
            for (const profiling::PmSample& sample : newest.samples) {
                for (size_t i = 0; i < sample.values.size() && i < live.timeline_history.size(); ++i) {
                    push_capped(live.timeline_history[i], sample.values[i], live.request.history);
                }
            }
            live.samples += newest.samples.size();
            out.count_update();
            out.publish();
            progress.report(0.0f, std::to_string(live.samples) + " samples");
            return !Publisher::stopped(progress, control);
        }));
    if (!timeline->ok()) live.error = timeline->error.message;
    live.timeline = std::move(timeline);
}

}  // namespace

void push_capped(std::vector<double>& values, double value, std::size_t capacity) {
    values.push_back(value);
    if (values.size() > capacity) {
        values.erase(values.begin(), values.begin() + std::ptrdiff_t(values.size() - capacity));
    }
}

std::uint64_t request_live_profile(AppContext& context, ProfileRequest request,
                                   std::shared_ptr<LiveControl> control) {
    if (!control) control = std::make_shared<LiveControl>();
    return context.jobs.post(kProfileJobTitle, [&context, request, control](JobProgress& progress) {
        LiveProfile live;
        live.request = request;
        const auto system = context.system.latest();
        if (system && system->has_gpu()) live.device = system->devices.front().name;
        Publisher out(context, live);
        live.error = request_error(request);
        if (!live.error.empty()) {
            out.publish();
            return;
        }
        live.running = true;
        out.publish();
        progress.report(0.0f, "verifying " + request.kernel_id + " " +
                                  kernels::problem_text(request.problem));
        profiling::KernelProfiler profiler;
        const profiling::ProfilerError prepared = profiler.prepare(request.kernel_id, request.problem);
        if (!prepared.ok()) {
            live.error = prepared.message;
        } else if (request.mode == ProfileMode::kMetrics) {
            run_metrics(profiler, live, out, progress, *control);
        } else {
            run_timeline(profiler, live, out, progress, *control);
        }
        live.running = false;
        live.paused = false;
        out.publish();
    });
}

}  // namespace tclens::gui
