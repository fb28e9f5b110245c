#pragma once
// Profiling one ladder kernel (or cuBLAS reference) on one GEMM size: the metrics of the
// catalogue (or any CUPTI name) over one run, and a PM-sampling timeline over a loop of runs.
// Shared by `tclens profile` and the GUI's profile jobs; plain result structs out.
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
// batches of ~10 ms behind a closed StreamGate (stream_gate.h), so the events time GPU work
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
#include "profiling/cupti_errors.h"
#include "profiling/launch_facts.h"
#include "profiling/pm_sampler.h"
#include "profiling/profiled_run.h"

namespace tclens::profiling {

class RangeProfiler;

struct MetricValue {
    std::string name;   // CUPTI name
    std::string label;  // from the catalogue; the name itself for metrics outside it
    std::string unit;   // from the catalogue; "" for metrics outside it
    double value = 0;
};

struct UnavailableMetric {
    std::string name;
    std::string reason;  // one line, with suggestions for an unknown name
};

// Which requested names can be collected on this GPU.
struct MetricResolution {
    ProfilerError error;  // the profiler could not open (no GPU, permission ...); else ok
    std::vector<std::string> usable;          // request order
    std::vector<UnavailableMetric> rejected;  // request order
};

struct KernelProfile : ProfiledRun {
    ProfilerError error;     // ok when every requested metric that is not in `unavailable` was read
    std::size_t passes = 0;  // replay passes of the range (0: launch facts only)
    std::vector<MetricValue> metrics;  // request order
    std::vector<UnavailableMetric> unavailable;
    std::vector<KernelLaunch> launches;  // of one run, from CUPTI activity records
    Occupancy occupancy;                 // of the main (longest) launch
    std::string launch_error;            // why `launches` is empty, or ""
    bool l2_flushed = false;             // before each pass
    double prepare_ms = 0;               // verification, inputs and launch facts
    double profile_ms = 0;               // metric collection, all passes, from request to values
    // profile_ms in parts (not serialised): CUPTI set-up, the passes, decoding; and whether the
    // range profiler session of the previous profile() was reused (RangeProfiler::profile).
    double setup_ms = 0;
    double passes_ms = 0;
    double decode_ms = 0;
    bool reused_session = false;
    // The range was CUPTI's own around the run's one launch (RangeMode::kPerKernelUserReplay):
    // it held that kernel's GPU work only, as Nsight Compute's does. False: a user range around
    // the run's launches (several, or none were captured), gated or not as below.
    bool per_kernel_range = false;
    // Every pass's user range held the kernel's GPU work only: the stream was held while the range
    // was pushed, the kernel enqueued and the range popped (RangeProfiler's PassGate). False:
    // the range also saw the GPU idle while the host launched (gpu__time_duration too long).
    bool gated = false;

    bool ok() const { return error.ok(); }
    // The value named `name`, or nullptr.
    const MetricValue* find(const std::string& name) const;
};

struct KernelTimeline : ProfiledRun {
    ProfilerError error;
    std::vector<std::string> metrics;  // the names the sample values follow
    std::vector<PmSample> samples;     // oldest first, GPU timestamps in ns
    PmTrigger trigger = PmTrigger::kGpuTime;
    std::uint64_t interval_ns = 0;    // requested
    double measured_interval_ns = 0;  // median of the samples' lengths
    std::uint64_t lost = 0;           // samples CUPTI returned without timestamps
    std::uint64_t dropped = 0;        // samples pushed out of the ring
    bool overflow = false;
    std::uint64_t launches = 0;  // kernel runs while sampling
    // Mean GPU time per launch without sampling: the mean of a run just before sampling starts
    // and one just after it stops (after an unmeasured warm-up), so a clock that drifts while
    // the GPU heats up affects both sides alike.
    double kernel_ms_alone = 0;
    double kernel_ms_sampled = 0;  // mean GPU time per launch while sampling
    double prepare_ms = 0;
    double run_ms = 0;  // wall time of the sampled loop

    bool ok() const { return error.ok(); }
    // 100 * (sampled / alone - 1); 0 when either is unknown.
    double overhead_pct() const;
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
