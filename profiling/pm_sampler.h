#pragma once
// PmSampler: the one owner of CUPTI PM sampling in tclens (docs/architecture.md): a live,
// device-wide timeline of a one-pass metric set (tensor pipe %, DRAM %, FMA % by default).
//
// Call order, as seen to work on an H100 (docs/cupti.md):
//   open():  cuptiProfilerInitialize -> cuptiDeviceGetChipName ->
//            cuptiPmSamplingGetCounterAvailability (size, then image)
//   start(): cuptiProfilerHostInitialize(PM_SAMPLING) -> ConfigAddMetrics -> GetConfigImage ->
//            GetNumOfPasses (must be 1) -> cuptiPmSamplingEnable -> SetConfig ->
//            GetCounterDataSize -> CounterDataImageInitialize -> Start; then a decode thread
//            repeats DecodeData -> GetCounterDataInfo -> per completed sample GetSampleInfo +
//            cuptiProfilerHostEvaluateToGpuValues, into a ring of samples
//   stop():  Stop -> a last decode -> Disable.
// SetConfig tries the GPU-time trigger first (the interval in ns; Ampere GA10x and newer), then
// the SYSCLK trigger the probe used (the interval converted to cycles at the SM clock, so the
// real interval drifts with the clock; samples carry their own timestamps), with the hardware
// buffer sizes of the probe (512, 64, 4 MiB) and KEEP_OLDEST.
// The decode thread re-initialises the counter data image before each pass (sized for several
// passes' worth of samples), so a pass never fills it; samples whose timestamps came back 0
// (CUPTI lost them) are counted, not kept.
//
// PM sampling sees the whole device, other processes included. It cannot run together with a
// Range Profiler session on the same device (CUPTI answers "hardware busy"); a RangeProfiler and
// a PmSampler may exist side by side, as long as only one of them profiles at a time.
// snapshot() and running() are thread-safe; open/start/stop belong to one thread. No CUPTI type
// appears in this header; nothing here throws.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "profiling/pm_sample.h"
#include "profiling/profiler_error.h"
#include "profiling/range_profiler.h"

namespace tclens::profiling {

// The newest `capacity` samples, oldest first. Not thread-safe on its own (PmSampler locks it).
class SampleRing {
  public:
    explicit SampleRing(std::size_t capacity);
    // Appends `sample`, giving it the next sequence number; drops the oldest when full.
    void push(PmSample sample);
    // Samples with sequence >= `first_sequence` still held, oldest first.
    std::vector<PmSample> since(std::uint64_t first_sequence) const;
    // Sequence number of the oldest sample still held (== pushed() when empty).
    std::uint64_t oldest() const { return pushed_ - samples_.size(); }
    std::uint64_t pushed() const { return pushed_; }    // samples ever pushed
    std::uint64_t dropped() const { return dropped_; }  // pushed out by newer ones
    std::size_t size() const { return samples_.size(); }
    std::size_t capacity() const { return capacity_; }

  private:
    std::size_t capacity_;
    std::deque<PmSample> samples_;
    std::uint64_t pushed_ = 0;
    std::uint64_t dropped_ = 0;
};

inline constexpr std::uint64_t kMinPmIntervalNs = 100'000;     // 0.1 ms
inline constexpr std::uint64_t kMaxPmIntervalNs = 10'000'000;  // 10 ms

// The value of CUpti_PmSampling_SetConfig_Params::samplingInterval for `interval_ns`: the
// nanoseconds themselves for kGpuTime; cycles at `clock_khz` for kSysClock (1 ms at 1,755,000
// kHz -> 1,755,000 cycles).
std::uint64_t pm_interval_setting(PmTrigger trigger, std::uint64_t interval_ns, int clock_khz);

// Samples the counter data image must hold for one decode pass: ten passes' worth of samples at
// `interval_ns` when decoding every `decode_period_ns`, within [256, 4000].
std::uint32_t pm_max_samples(std::uint64_t interval_ns, std::uint64_t decode_period_ns);

struct PmSamplerConfig {
    std::vector<std::string> metrics;       // empty: metric_set("timeline")
    std::uint64_t interval_ns = 1'000'000;  // [kMinPmIntervalNs, kMaxPmIntervalNs]
    std::size_t ring_capacity = 20'000;     // samples kept; the oldest go first
    // How often the decode thread drains the buffer: 20 updates/s for a scrolling chart, and
    // few enough CUPTI calls that the thread seldom holds the driver while work is launched.
    std::uint64_t decode_period_ns = 50'000'000;
};

class PmSampler {
  public:
    // Binds to CUDA device `device`; makes no CUDA or CUPTI call yet.
    explicit PmSampler(int device = 0);
    // Stops sampling if it runs, then releases every CUPTI object.
    ~PmSampler();
    PmSampler(const PmSampler&) = delete;
    PmSampler& operator=(const PmSampler&) = delete;

    // Starts CUDA on the device, initialises CUPTI's profiler, reads the chip name and the PM
    // counter availability. Again after success: nothing; after a failure: the same error.
    ProfilerError open();
    const std::string& chip_name() const;

    // Whether PM sampling accepts each metric alone (fresh host object each). Opens first.
    std::vector<MetricCheck> check_metrics(const std::vector<std::string>& metrics);

    // Starts sampling `config` and the decode thread. Errors: kBadMetric (a metric rejected, or
    // the set needs more than one pass; the message names them), kInvalidRequest (interval out
    // of range, already running), the open() errors, kBusy when a profiler holds the counters.
    ProfilerError start(const PmSamplerConfig& config);

    // Stops sampling, decodes what is left and disables PM sampling; the samples stay readable
    // through snapshot() until the next start(). Returns the first error of the session, if any.
    ProfilerError stop();

    bool running() const;

    // Thread-safe copy of the ring: samples with sequence >= `first_sequence`.
    PmSnapshot snapshot(std::uint64_t first_sequence = 0) const;

  private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace tclens::profiling
