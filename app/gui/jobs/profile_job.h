#pragma once
// "Live" of the Profile panel on the job runner, through the GUI's worker (gui_worker.h; the
// worker's streaming live_profile request, docs/worker-protocol.md): no CUPTI runs in the GUI's
// process. In metrics mode the worker prepares every chosen kernel once, then profiles them in
// turn, again and again; the job publishes an immutable LiveProfile after every update until the
// panel stops it (its JobHandle's cancel: the worker is asked to stop). In timeline mode the
// worker runs the first chosen kernel under PM sampling and streams its samples. Pause stops the
// stream (no kernel runs while paused; the job waits, publishing that it is paused) and Resume
// asks again, so the kernels are verified and prepared again before their next update.
// A request that cannot run (unknown kernel or set, no GPU, no worker) publishes one LiveProfile
// with `error` set and ends: never an exception into the runner. A kernel that fails its check
// (or cannot run the size) gets its own error while the other kernels go on.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/jobs/job_runner.h"
#include "kernels/gemm.h"
#include "profiling/profile_result.h"

namespace tclens::gui {

struct AppContext;

enum class ProfileMode {
    kMetrics,   // repeated profiles of a metric set
    kTimeline,  // one PM-sampling timeline until stopped
};

struct ProfileRequest {
    ProfileMode mode = ProfileMode::kMetrics;
    // Metrics mode: each is profiled in turn, in this order; timeline mode: the first.
    std::vector<std::string> kernel_ids;
    kernels::GemmProblem problem;
    std::string metric_set = "default";  // metrics mode: a profiling::metric_set name
    std::size_t history = 120;           // values kept per metric (metrics mode: per update;
                                         // timeline mode: per PM sample)
    std::uint64_t max_updates = 0;       // metrics mode: stop after this many; 0: until stopped
    double timeline_ms = 0;              // timeline mode: stop after this long; <= 0: until stopped
    std::uint64_t interval_ns = 1'000'000;  // timeline mode: PM sampling interval
};

// Shared by the panel and its job: set by the panel, polled by the job between updates.
struct LiveControl {
    std::atomic<bool> paused{false};
};

// Metrics mode: the updates of one kernel of the request.
struct KernelLive {
    std::string kernel_id;
    std::string error;  // one line: why this kernel is not (any more) profiled; "" while it is
    profiling::ProfilerProblem problem = profiling::ProfilerProblem::kNone;  // the kind of `error`
    std::uint64_t updates = 0;
    // The newest profile and, per entry of latest->metrics, its last `history` values, oldest
    // first.
    std::shared_ptr<const profiling::KernelProfile> latest;
    std::vector<std::vector<double>> history;
};

struct LiveProfile {
    ProfileRequest request;
    std::string device;    // GPU name; "" when there is none
    std::string recorded;  // "" when live; a recording's: when it was made, recording_date
    std::string error;     // one line: why nothing (more) is measured; "" while all is well
    bool running = false;  // the job still runs (false in its last snapshot)
    bool paused = false;
    // The kind of `error` (kInvalidRequest for a request that cannot run), so a caller can tell
    // what the machine lacks (ProfilerError::needs_resource) from a failure.
    profiling::ProfilerProblem problem = profiling::ProfilerProblem::kNone;
    // Profiles taken, of all kernels (metrics), or progress calls with samples (timeline).
    std::uint64_t updates = 0;
    double updates_per_s = 0;  // over the updates so far, pauses excluded

    // Metrics mode: one entry per kernel of the request, in request order.
    std::vector<KernelLive> kernels;
    // The entry of `kernel_id`, or nullptr.
    const KernelLive* find(const std::string& kernel_id) const;
    // Some kernel has a profile.
    bool has_profile() const;

    // Timeline mode: the PM-sampling metric names, and per name its last `history` sample values.
    std::vector<std::string> timeline_metrics;
    std::vector<std::vector<double>> timeline_history;
    std::uint64_t samples = 0;                                  // samples received so far
    std::shared_ptr<const profiling::KernelTimeline> timeline;  // set in the last snapshot
};

// Appends `value`, dropping the oldest values beyond `capacity` (capacity 0 keeps nothing).
void push_capped(std::vector<double>& values, double value, std::size_t capacity);

// Posts the job ("Profile live"); cancelling its handle stops it. `control` may be shared with
// the caller; the job publishes to context.live_profile.
JobHandle request_live_profile(AppContext& context, ProfileRequest request,
                               std::shared_ptr<LiveControl> control);

}  // namespace tclens::gui
