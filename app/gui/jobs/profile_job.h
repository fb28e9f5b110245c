#pragma once
// "Live" of the Profile panel on the job runner: a KernelProfiler (profiling/kernel_profile.h)
// created on the runner's thread prepares the kernel once, then either profiles it again and
// again (metrics mode: one KernelProfile per update, the range profiler session reused) or runs
// it under PM sampling (timeline mode), publishing an immutable LiveProfile after every update
// until the panel stops it (LiveControl::stop or the runner's cancel). While paused the kernel
// does not run; the job waits, publishing that it is paused.
// A request that cannot run (unknown kernel or set, no GPU, the kernel fails its check) publishes
// one LiveProfile with `error` set and ends: never an exception into the runner.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/gemm.h"
#include "profiling/kernel_profile.h"

namespace tclens::gui {

struct AppContext;

// Title of the profile job in JobStatus, so a panel can tell its job from others.
inline constexpr const char* kProfileJobTitle = "Profile live";

enum class ProfileMode {
    kMetrics,   // repeated KernelProfiler::profile() of a metric set
    kTimeline,  // one KernelProfiler::timeline() until stopped
};

struct ProfileRequest {
    ProfileMode mode = ProfileMode::kMetrics;
    std::string kernel_id;
    kernels::GemmProblem problem;
    std::string metric_set = "default";  // metrics mode: a profiling::metric_set name
    std::size_t history = 120;           // values kept per metric (metrics mode: per update;
                                         // timeline mode: per PM sample)
    std::uint64_t max_updates = 0;       // metrics mode: stop after this many; 0: until stopped
    double timeline_ms = 0;              // timeline mode: stop after this long; <= 0: until stopped
    std::uint64_t interval_ns = 1'000'000;  // timeline mode: PM sampling interval
};

// Shared by the panel and its job: flags the panel sets and the job polls between updates.
struct LiveControl {
    std::atomic<bool> paused{false};
    std::atomic<bool> stop{false};
};

struct LiveProfile {
    ProfileRequest request;
    std::string device;  // GPU name; "" when there is none
    std::string error;   // one line: why nothing (more) is measured; "" while all is well
    bool running = false;  // the job still runs (false in its last snapshot)
    bool paused = false;
    std::uint64_t updates = 0;  // profiles taken (metrics) or progress calls with samples (timeline)
    double updates_per_s = 0;   // over the updates so far, pauses excluded

    // Metrics mode: the newest profile and, per entry of latest->metrics, its last `history`
    // values, oldest first.
    std::shared_ptr<const profiling::KernelProfile> latest;
    std::vector<std::vector<double>> history;

    // Timeline mode: the PM-sampling metric names, and per name its last `history` sample values.
    std::vector<std::string> timeline_metrics;
    std::vector<std::vector<double>> timeline_history;
    std::uint64_t samples = 0;  // samples received so far
    std::shared_ptr<const profiling::KernelTimeline> timeline;  // set in the last snapshot
};

// Appends `value`, dropping the oldest values beyond `capacity` (capacity 0 keeps nothing).
void push_capped(std::vector<double>& values, double value, std::size_t capacity);

// Posts the job; returns its id (JobRunner::post). `control` may be shared with the caller; the
// job publishes to context.live_profile.
std::uint64_t request_live_profile(AppContext& context, ProfileRequest request,
                                   std::shared_ptr<LiveControl> control);

}  // namespace tclens::gui
