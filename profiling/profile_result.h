#pragma once
// What profiling one kernel on one size gives (kernel_profile.h makes them): the metrics of a
// profile, its launches and occupancy, and a PM-sampling timeline. Plain C++
// (tclens_profiling_model): a client reads them from a worker's JSON (profile_json.h),
// holds them in recordings and draws them.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "profiling/launch_facts.h"
#include "profiling/pm_sample.h"
#include "profiling/profiled_run.h"
#include "profiling/profiler_error.h"

namespace tclens::profiling {

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

}  // namespace tclens::profiling
