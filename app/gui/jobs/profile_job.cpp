#include "app/gui/jobs/profile_job.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "app/gui/jobs/app_context.h"
#include "app/gui/jobs/gui_worker.h"
#include "app/worker/gpu_calls.h"
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

// The worker's request for what is left of `request` after `done` updates (a resumed Live asks
// again: its kernels are verified and prepared again).
worker::LiveProfileRequest worker_request(const ProfileRequest& request, std::uint64_t done) {
    worker::LiveProfileRequest asked;
    asked.kernels = request.kernel_ids;
    asked.problem = request.problem;
    if (request.mode == ProfileMode::kTimeline) {
        asked.kernels.resize(1);
        worker::LiveTimelineSettings timeline;
        timeline.interval_ns = request.interval_ns;
        timeline.duration_ms =
            request.timeline_ms > 0 ? std::max(1, static_cast<int>(request.timeline_ms)) : 0;
        asked.timeline = timeline;
    } else {
        asked.metrics = profiling::metric_set(request.metric_set);
    }
    if (request.max_updates > 0) asked.max_updates = request.max_updates - done;
    return asked;
}

// The kind of a failure the worker named, as the panel tells them apart.
profiling::ProfilerProblem problem_of(worker::ErrorKind kind, const worker::WorkerClient& client) {
    switch (kind) {
        case worker::ErrorKind::kUsage:
            return profiling::ProfilerProblem::kInvalidRequest;
        case worker::ErrorKind::kNeedsResource:
            return client.worker().system.has_gpu() ? profiling::ProfilerProblem::kPermission
                                                    : profiling::ProfilerProblem::kNoGpu;
        default:
            return profiling::ProfilerProblem::kFailed;
    }
}

// Takes one update into `live`; true when it counts as an update (a profile, or samples).
bool take_update(LiveProfile& live, const worker::LiveUpdate& update,
                 const worker::WorkerClient& client) {
    if (update.kind == worker::LiveUpdate::Kind::kSamples) {
        if (live.timeline_metrics != update.metrics) {
            live.timeline_metrics = update.metrics;
            live.timeline_history.assign(update.metrics.size(), {});
        }
        for (const profiling::PmSample& sample : update.samples) {
            for (size_t i = 0; i < sample.values.size() && i < live.timeline_history.size(); ++i)
                push_capped(live.timeline_history[i], sample.values[i], live.request.history);
        }
        live.samples += update.samples.size();
        return !update.samples.empty();
    }
    // Timeline mode keeps no KernelLive: its one kernel's error ends the request, said there.
    if (std::size_t(update.kernel) >= live.kernels.size()) return false;
    KernelLive& kernel = live.kernels[std::size_t(update.kernel)];
    if (update.kind == worker::LiveUpdate::Kind::kKernelError) {
        kernel.error = update.error;
        kernel.problem = problem_of(update.error_kind, client);
        return false;
    }
    auto profile = std::make_shared<const profiling::KernelProfile>(update.profile);
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

// Streams the request from the GUI's worker until it ends (max_updates, the timeline's length, a
// failure) or Stop. Pause stops the stream; Resume sends the request again.
void run_live(AppContext& context, LiveProfile& live, Publisher& out, JobProgress& progress,
              const LiveControl& control) {
    worker::WorkerClient& client = worker_client(context);
    for (;;) {
        progress.report(0.0f, "starting the worker");
        worker::LiveProfileResult result;
        const worker::Reply reply = worker::profile_live(
            client, worker_request(live.request, live.updates),
            [&](const worker::LiveUpdate& update) {
                live.device = worker_gpu_name(client);
                if (take_update(live, update, client)) {
                    out.count_update();
                    progress.report(0.0f, std::to_string(live.updates) + " updates");
                }
                out.publish();
            },
            [&] { return progress.cancelled() || control.paused; }, result, job_progress(progress));
        live.device = worker_gpu_name(client);  // the worker's GPU, wherever it runs
        if (!reply.ok()) {
            live.error = failure_line(reply);
            live.problem = reply.outcome == worker::Reply::Outcome::kError
                               ? problem_of(reply.error.kind, client)
                               : profiling::ProfilerProblem::kFailed;
            // Kernels not heard of yet failed for the same reason (no GPU, no permission).
            for (KernelLive& kernel : live.kernels) {
                if (kernel.error.empty() && !kernel.latest) {
                    kernel.error = live.error;
                    kernel.problem = live.problem;
                }
            }
            return;
        }
        if (result.timeline)
            live.timeline = std::make_shared<const profiling::KernelTimeline>(*result.timeline);
        if (!result.stopped || progress.cancelled()) return;
        if (!out.wait_while_paused(progress, control)) return;
    }
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
        Publisher out(context, live);
        live.error = request_error(request);
        if (!live.error.empty()) {
            live.problem = profiling::ProfilerProblem::kInvalidRequest;
            out.publish();
            return;
        }
        live.running = true;
        out.publish();
        run_live(context, live, out, progress, *control);
        live.running = false;
        live.paused = false;
        out.publish();
    });
}

}  // namespace tclens::gui
