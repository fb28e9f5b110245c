#pragma once
// Profiling one ladder kernel (or cuBLAS reference) on one GEMM size: the metrics of the
// catalogue (or any CUPTI name) over one run, and a PM-sampling timeline over a loop of runs.
// Shared by `tclens profile` and the GUI's profile jobs; plain result structs out
// (profile_result.h, what a client reads).
//
// A profile:
//   1. resolve: every name is checked against the chip (range profiler) or the catalogue's
//      launch facts; a rejected name gets suggestions (metric_catalogue.h);
//   2. prepare: the kernel is verified first (kernels/runner.h, no number without a check), then
//      fresh random inputs are filled and the kernel's launch facts are read from CUPTI activity
//      records of one launch (launch_facts.h);
//   3. profile: a run of one launch is profiled in CUPTI's range around that launch
//      (RangeMode::kPerKernelUserReplay: the kernel's GPU time only, as Nsight Compute sees it);
//      a run of several launches in one CUPTI user range named after the kernel, so cuBLAS's
//      internal kernels add up under one name (RangeMode::kUserRange). The run is replayed once
//      per pass; before each pass the L2 cache is flushed (l2_flush.h), as Nsight Compute's
//      default --cache-control all does, so every pass does identical GPU work from the same
//      cache state. Clocks are not locked (Nsight Compute locks them to base by default).
// A timeline: the kernel runs back to back for a while under PmSampler (pm_sampler.h); its time
// per launch is measured with and without sampling, so the overhead is known. Launches go in
// batches of ~10 ms behind a closed StreamGate (kernels/stream_gate.h), so the events time GPU work
// only, not host hiccups such as the decode thread holding the driver while the batch is queued.
// A KernelProfiler that profiled keeps the range profiler enabled between profile() calls (its
// costly set-up is paid once per metric list); prepare() and timeline() end that session first.
//
// Verification runs on the runner's own inputs; profiling launches the same kernel on inputs
// filled here from the same seed (the runner hands out no buffers; a GemmRunner hook that did
// would let both share them). A GEMM's work does not depend on its values.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kernels/gemm.h"
#include "kernels/runner.h"
#include "profiling/pm_sampler.h"
#include "profiling/profile_result.h"
#include "profiling/profiler_error.h"

namespace tclens::profiling {

class RangeProfiler;

// Which requested names can be collected on this GPU.
struct MetricResolution {
    ProfilerError error;  // the profiler could not open (no GPU, permission ...); else ok
    std::vector<std::string> usable;          // request order
    std::vector<UnavailableMetric> rejected;  // request order
};

struct ProfileOptions {
    bool drop_unavailable = false;  // leave rejected names out (sets) instead of failing (names)
    bool flush_l2 = true;
};

struct TimelineOptions {
    std::vector<std::string> metrics;  // empty: metric_set("timeline")
    std::uint64_t interval_ns = 1'000'000;
    double duration_ms = 500;  // of the sampled loop; <= 0: until progress says stop
    // Of the loops without sampling: a warm-up of baseline_ms / 2, then baseline_ms / 2 before
    // sampling and baseline_ms / 2 after it. 0 skips them.
    double baseline_ms = 100;
};

// Called on the timeline's thread after each batch of launches (~10 ms of GPU work) with the
// samples decoded since the previous call (PmSampler::snapshot(next)); returns false to stop
// the loop early (pause, stop, cancel). A GUI job publishes these to its panels.
using TimelineProgress = std::function<bool(const PmSnapshot& newest)>;

// One GPU, one kernel at a time, for a caller that profiles repeatedly (a GUI "Live" job):
// prepare() once, then profile() or timeline() as often as wanted. Not thread-safe: create, use
// and destroy it on one thread (the one that launches the work).
class KernelProfiler {
  public:
    explicit KernelProfiler(int device = 0);
    // Profilers made with one `range` take turns on that CUPTI range profiler: a live view that
    // profiles several kernels in turn keeps one session (set up once per metric list) instead
    // of tearing one down and enabling another for every kernel. All on one thread.
    KernelProfiler(int device, std::shared_ptr<RangeProfiler> range);
    ~KernelProfiler();
    KernelProfiler(const KernelProfiler&) = delete;
    KernelProfiler& operator=(const KernelProfiler&) = delete;

    // Checks `names` for profile(): launch__* names of the catalogue are always usable; any
    // other name must be accepted by the chip's range profiler. A name given twice counts once.
    // Opens the range profiler.
    MetricResolution resolve_metrics(const std::vector<std::string>& names);
    // The same for timeline(): every name must be accepted by PM sampling. Opens a PmSampler.
    MetricResolution resolve_timeline_metrics(const std::vector<std::string>& names);

    // Verifies `kernel_id` on `problem` and keeps fresh inputs for it, replacing any earlier
    // preparation; reads the kernel's launch facts. Errors: kInvalidRequest (unknown kernel, a
    // size it cannot run, not enough memory or shared memory), kFailed (not verified: no
    // number is shown for it; a CUDA error), kNoGpu, or an injected CUPTI fault
    // (fault_injection.h), checked before the GPU.
    ProfilerError prepare(const std::string& kernel_id, const kernels::GemmProblem& problem,
                          std::uint64_t seed = 1);
    // The same for a kernel outside the registry (a user's kernel the worker loaded), which must
    // outlive the preparation (until the next prepare() or the profiler's end).
    ProfilerError prepare(const kernels::KernelDescriptor& kernel,
                          const kernels::GemmProblem& problem, std::uint64_t seed = 1);
    bool prepared() const;

    // Collects `metrics` on the prepared kernel. Names the range profiler rejects fail the call
    // (kBadMetric, with suggestions) unless options.drop_unavailable, which lists them in
    // `unavailable` instead. Precondition: prepared().
    KernelProfile profile(const std::vector<std::string>& metrics,
                          const ProfileOptions& options = {});

    // One launch of the prepared kernel on the profiler's stream, for another CUPTI owner to
    // measure (PC sampling, SASS metrics: profiling/source/); returns "" or the launch error and
    // leaves synchronising to the caller. Valid while this profiler lives and stays prepared with
    // the same kernel. Precondition: prepared().
    std::function<std::string()> launch_once();

    // Runs the prepared kernel back to back for options.duration_ms (or until `progress` returns
    // false) under PM sampling; the result holds every sample. Precondition: prepared(); with
    // duration_ms <= 0, a `progress`.
    KernelTimeline timeline(const TimelineOptions& options, const TimelineProgress& progress = {});

  private:
    struct State;
    std::unique_ptr<State> state_;
};

struct KernelProfileRequest {
    std::string kernel_id;
    const kernels::KernelDescriptor* kernel = nullptr;  // when set, used instead of kernel_id
    kernels::GemmProblem problem;
    std::vector<std::string> metrics;  // CUPTI names
    ProfileOptions options;
    std::uint64_t seed = 1;
    int device = 0;
};

// resolve, prepare and profile in one call, in that order, so an unknown metric is reported
// before the kernel runs. On failure, the fields known by then are filled.
KernelProfile profile_kernel(const KernelProfileRequest& request);

struct KernelTimelineRequest {
    std::string kernel_id;
    const kernels::KernelDescriptor* kernel = nullptr;  // when set, used instead of kernel_id
    kernels::GemmProblem problem;
    TimelineOptions options;
    std::uint64_t seed = 1;
    int device = 0;
};

// resolve, prepare and timeline in one call.
KernelTimeline record_timeline(const KernelTimelineRequest& request);

}  // namespace tclens::profiling
