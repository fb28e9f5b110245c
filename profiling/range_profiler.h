#pragma once
// RangeProfiler: the one owner of the CUPTI Range Profiler in tclens (docs/architecture.md).
//
// It wraps the CUDA 13 API (cupti_range_profiler.h + cupti_profiler_host.h) in the call order
// seen to work on an H100 (docs/cupti.md):
//   cuptiProfilerInitialize -> cuptiDeviceGetChipName -> cuptiProfilerGetCounterAvailability
//   (size, then image) -> cuptiProfilerHostInitialize -> ConfigAddMetrics -> GetConfigImage ->
//   GetNumOfPasses -> cuptiRangeProfilerEnable -> GetCounterDataSize ->
//   CounterDataImageInitialize -> SetConfig -> Start -> workload -> Stop -> DecodeData ->
//   per range GetRangeInfo + cuptiProfilerHostEvaluateToGpuValues -> Disable.
// Every CUPTI and CUDA return code is checked; a failure becomes a ProfilerError whose message
// is one line with the fix (profiling/cupti_errors.h). Results are plain structs: metric name ->
// value. Nothing here throws, and no CUPTI type appears in this header.
//
// Not thread-safe: use one RangeProfiler at a time per process (CUPTI allows one profiling
// session per context), and call open() and profile() on the thread that launches the workload
// (open() makes the device's primary context current on the calling thread). It never needs libcuda
// at link time: the current CUcontext is found through the CUDA runtime's driver entry point, so a
// machine without a driver still starts the binary and gets a kNoGpu error.

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "profiling/profiler_error.h"

namespace tclens::profiling {

// Whether CUPTI accepts one metric name on this chip for the range profiler.
struct MetricCheck {
    std::string name;
    bool accepted = false;
    std::string reason;  // "" when accepted, else one line (CUPTI's answer or why none came)
};

enum class RangeMode {
    // One range per kernel launch (CUPTI_AutoRange + CUPTI_KernelReplay). CUPTI replays each
    // kernel once per pass and saves/restores device memory around it, so the workload runs
    // once whatever the pass count. This is the mode seen to work on the H100.
    kPerKernel,
    // One range per kernel launch, the workload called once per pass (CUPTI_AutoRange +
    // CUPTI_UserReplay): each range holds its kernel's own GPU time, as Nsight Compute measures
    // it, and `before_each_pass` runs between passes (to flush the L2 as ncu's --cache-control
    // all does). The workload must redo exactly the same GPU work each time, as for kUserRange.
    kPerKernelUserReplay,
    // One range named `range_name` around the whole workload (CUPTI_UserRange +
    // CUPTI_UserReplay). The workload is called once per pass, so it must redo exactly the same
    // GPU work each time (device memory is not restored between calls).
    kUserRange,
};

// The metrics of one range, by CUPTI metric name.
struct RangeValues {
    std::string name;  // the kernel's name (per-kernel modes) or range_name (kUserRange)
    std::map<std::string, double> metrics;
};

struct ProfileResult {
    ProfilerError error;              // ok() when every call succeeded
    std::size_t passes = 0;           // replay passes the metric set needed
    std::size_t dropped_ranges = 0;   // ranges beyond max_ranges, not in `ranges`
    std::vector<RangeValues> ranges;  // in launch order (per kernel) or one entry (kUserRange)
    // Where the call's wall time went, so a slow live view can be explained.
    bool reused_session = false;  // the enabled range profiler of the previous call was kept
    double setup_ms = 0;   // config, enable (a new session only), counter data image, SetConfig
    double passes_ms = 0;  // before_each_pass + workload + Start/Stop, all passes
    double decode_ms = 0;  // DecodeData + evaluation
    // Every pass ran behind a PassGate: the ranges hold GPU work only.
    bool gated = false;
};

// The GPU work to profile. It launches kernels on the current device and returns "" or one line
// saying what failed; RangeProfiler synchronises the device after it.
using Workload = std::function<std::string()>;

// Holds the workload's stream while a user range is pushed, its work enqueued and the range
// popped, then lets it all run: the GPU side of the range then opens right before the first
// kernel and closes right after the last, whatever the host did in between (function
// attributes, tensor-map encoding, CUPTI's own launch work). Without it the range opens on the
// GPU at push time and the GPU idles inside it while the host prepares the launch, which adds
// ~0.1 ms to gpu__time_duration and dilutes every *_elapsed metric.
struct PassGate {
    // Enqueues a wait on the workload's stream that lasts until open() or `timeout_ms`;
    // "" or one line saying what failed.
    std::function<std::string()> close;
    std::function<void()> open;
    double timeout_ms = 0;
    explicit operator bool() const { return close && open && timeout_ms > 0; }
};

// What one RangeProfiler::profile() call collects, over what.
struct RangeProfileRequest {
    std::vector<std::string> metrics;  // each accepted by check_metrics
    Workload workload;                 // the GPU work profiled, once or once per pass (RangeMode)
    RangeMode mode = RangeMode::kPerKernel;
    int max_ranges = 64;                // >= 1: ranges kept; later ones are dropped
    std::string range_name = "tclens";  // kUserRange: the range's name
    // When given, runs before each pass outside the profiling session (so its GPU work is not
    // counted), e.g. to flush the L2 cache so every pass starts alike; "" or one line saying
    // what failed. The device is synchronised after it.
    Workload before_each_pass;
    // When given (kUserRange only), closed before each push and opened after the pop.
    PassGate gate;
};

class RangeProfiler {
  public:
    // Binds to CUDA device `device`; makes no CUDA or CUPTI call yet.
    explicit RangeProfiler(int device = 0);
    // Releases every CUPTI object this profiler made (host objects, range profiler, CUPTI's
    // profiler initialisation).
    ~RangeProfiler();
    RangeProfiler(const RangeProfiler&) = delete;
    RangeProfiler& operator=(const RangeProfiler&) = delete;

    // Starts CUDA on the device (its primary context, made current), initialises the CUPTI
    // profiler and reads the chip name and the counter availability image. Calling it again
    // after success does nothing; after a failure it returns the same error.
    // Errors: kNoGpu, kPermission, kBusy, kOtherTool, kUnsupported, kFailed.
    ProfilerError open();

    // The chip CUPTI reports, e.g. "GH100"; "" until open() succeeded.
    const std::string& chip_name() const;

    // Asks CUPTI about each metric on a fresh host object (a host object whose ConfigAddMetrics
    // failed once is unusable afterwards). Opens first; if that fails every check carries the
    // open() error. One entry per name, in order. Answers are cached per name: the chip's
    // metrics do not change while the profiler lives (detail::ChipCounters, shared with the PM
    // sampler).
    std::vector<MetricCheck> check_metrics(const std::vector<std::string>& metrics);

    // How many replay passes `metrics` need together. Error kBadMetric names every rejected
    // metric; `passes` is set only on success.
    ProfilerError count_passes(const std::vector<std::string>& metrics, std::size_t& passes);

    // The chip's base metric names for the range profiler ("dram__bytes_read", without rollup
    // and submetric), sorted; for suggesting names close to a rejected one. Opens first; on an
    // error `names` is left empty. Asked once, then cached.
    ProfilerError base_metrics(std::vector<std::string>& names);

    // Collects request.metrics over request.workload (RangeProfileRequest says what each field
    // does). profile() may be called repeatedly with different metrics. With the user-replay modes
    // the range profiler stays enabled on the context after a successful call, with its config and
    // counter data image, and the next call with the same metrics, mode and max_ranges reuses
    // them (a live view profiles the same set again and again; enabling is the costly step).
    // kPerKernel calls, other metrics and any failure disable it again; a reused session that
    // fails is dropped and the call runs once more on a fresh one. While it is enabled, kernels
    // launched outside profile() are not counted. end_session() disables it.
    // Should CUPTI block the host while a PassGate is closed (push or pop waiting for the GPU),
    // the pass still completes once the gate times out; the profiler then stops gating for its
    // lifetime and says so in ProfileResult::gated.
    ProfileResult profile(const RangeProfileRequest& request);

    // Disables the range profiler kept enabled by the last user-replay profile(), if any. Call it
    // before another profiler (PM sampling) takes the device's counters.
    void end_session();

  private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace tclens::profiling
