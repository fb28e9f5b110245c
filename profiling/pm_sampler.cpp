#include "profiling/pm_sampler.h"

#include <cupti_pmsampling.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <utility>

#include "profiling/chip_counters.h"
#include "profiling/cupti_call.h"
#include "profiling/metric_catalogue.h"

namespace tclens::profiling {
namespace {

using detail::ChipCounters;
using detail::from_cuda;
using detail::from_cupti;
using detail::HostObject;

constexpr CUpti_ProfilerType kPm = CUPTI_PROFILER_TYPE_PM_SAMPLING;
// Hardware buffer sizes to try, largest first; 512 MiB was accepted on the H100 (docs/cupti.md).
constexpr std::size_t kHardwareBufferBytes[] = {std::size_t{512} << 20, std::size_t{64} << 20,
                                                std::size_t{4} << 20};

}  // namespace

// ---- SampleRing and pure helpers ----------------------------------------------------------

SampleRing::SampleRing(std::size_t capacity) : capacity_(std::max<std::size_t>(1, capacity)) {}

void SampleRing::push(PmSample sample) {
    sample.sequence = pushed_++;
    samples_.push_back(std::move(sample));
    while (samples_.size() > capacity_) {
        samples_.pop_front();
        ++dropped_;
    }
}

std::vector<PmSample> SampleRing::since(std::uint64_t first_sequence) const {
    std::vector<PmSample> out;
    if (samples_.empty() || first_sequence >= pushed_) {
        return out;
    }
    const std::uint64_t oldest = samples_.front().sequence;
    const std::size_t skip =
        first_sequence > oldest ? static_cast<std::size_t>(first_sequence - oldest) : 0;
    out.assign(samples_.begin() + static_cast<std::ptrdiff_t>(skip), samples_.end());
    return out;
}

std::uint64_t pm_interval_setting(PmTrigger trigger, std::uint64_t interval_ns, int clock_khz) {
    if (trigger == PmTrigger::kGpuTime) {
        return interval_ns;
    }
    // cycles = ns * kHz / 1e6, rounded to the nearest cycle, at least 1.
    const double cycles = static_cast<double>(interval_ns) * clock_khz / 1e6;
    return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(cycles + 0.5));
}

std::uint32_t pm_max_samples(std::uint64_t interval_ns, std::uint64_t decode_period_ns) {
    const std::uint64_t per_pass =
        (decode_period_ns + interval_ns - 1) / std::max<std::uint64_t>(1, interval_ns);
    return static_cast<std::uint32_t>(std::clamp<std::uint64_t>(10 * per_pass, 256, 4000));
}

// ---- PmSampler ----------------------------------------------------------------------------

struct PmSampler::State {
    // Declared first, so it goes last: CUPTI's profiler initialisation outlives every object.
    ChipCounters counters;
    int device = 0;
    int clock_khz = 0;

    // The session between start() and stop(). The decode thread and stop() both call CUPTI on
    // `object` and `host`: cupti_mutex serialises them (CUPTI does not promise that concurrent
    // calls on one sampling object are safe).
    std::mutex cupti_mutex;
    std::unique_ptr<HostObject> host;
    std::vector<std::string> metrics;
    std::vector<const char*> names;
    std::vector<std::uint8_t> config;
    CUpti_PmSampling_Object* object = nullptr;
    bool started = false;  // cuptiPmSamplingStart succeeded and Stop is still due
    std::vector<std::uint8_t> counter_data;
    std::uint64_t decode_period_ns = 0;
    std::thread decoder;
    std::mutex wake_mutex;
    std::condition_variable wake;
    bool stop_requested = false;  // guarded by wake_mutex

    // What snapshot() reads, guarded by ring_mutex.
    mutable std::mutex ring_mutex;
    SampleRing ring{1};
    std::vector<std::string> ring_metrics;
    std::uint64_t lost = 0;
    bool overflow = false;
    bool running = false;
    ProfilerError session_error;
    PmTrigger trigger = PmTrigger::kGpuTime;
    std::uint64_t interval_ns = 0;

    explicit State(int device_index)
        : counters(kPm, device_index, "cannot be PM-sampled on"), device(device_index) {}

    // open()'s own steps after the chip name: the availability image and the SM clock.
    ProfilerError open_steps();
    ProfilerError configure(const PmSamplerConfig& config);
    ProfilerError set_config(std::uint64_t interval_ns);
    // One decode pass into a freshly initialised image; `more` is set when the image filled up
    // before the hardware buffer was drained. Caller holds cupti_mutex.
    ProfilerError decode_pass(bool& more);
    ProfilerError drain();  // decode passes until the buffer is empty; caller holds cupti_mutex
    void decode_loop();
    void record_error(const ProfilerError& error);
    // Stop (if started), last drain, Disable; caller holds cupti_mutex. First error wins.
    ProfilerError finish();
};

ProfilerError PmSampler::State::open_steps() {
    auto available = TCLENS_PARAMS(CUpti_PmSampling_GetCounterAvailability_Params);
    available.deviceIndex = static_cast<std::size_t>(device);
    const ProfilerError error = detail::read_availability(
        available, cuptiPmSamplingGetCounterAvailability,
        "cuptiPmSamplingGetCounterAvailability(&available)", counters.availability());
    if (!error.ok()) {
        return error;
    }
    return from_cuda(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device),
                     "cudaDeviceGetAttribute(ClockRate)");
}

ProfilerError PmSampler::State::set_config(std::uint64_t interval) {
    ProfilerError last;
    for (const PmTrigger candidate : {PmTrigger::kGpuTime, PmTrigger::kSysClock}) {
        for (const std::size_t buffer_bytes : kHardwareBufferBytes) {
            auto params = TCLENS_PARAMS(CUpti_PmSampling_SetConfig_Params);
            params.pPmSamplingObject = object;
            params.configSize = config.size();
            params.pConfig = config.data();
            params.hardwareBufferSize = buffer_bytes;
            params.samplingInterval = pm_interval_setting(candidate, interval, clock_khz);
            params.triggerMode = candidate == PmTrigger::kGpuTime
                                     ? CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL
                                     : CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_SYSCLK_INTERVAL;
            params.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
            last = from_cupti(cuptiPmSamplingSetConfig(&params), "cuptiPmSamplingSetConfig");
            if (last.ok()) {
                std::lock_guard<std::mutex> lock(ring_mutex);
                trigger = candidate;
                return last;
            }
        }
    }
    return last;
}

ProfilerError PmSampler::State::configure(const PmSamplerConfig& request) {
    metrics = request.metrics.empty() ? metric_set("timeline") : request.metrics;
    names = detail::c_names(metrics);
    decode_period_ns = std::max<std::uint64_t>(request.decode_period_ns, 1'000'000);

    host = std::make_unique<HostObject>();
    ProfilerError error = host->create(kPm, counters.chip(), counters.availability());
    std::size_t passes = 0;
    if (error.ok()) error = detail::build_config(*host, names, config, passes);
    if (!error.ok()) {
        return error;
    }
    if (passes != 1) {
        return profiler_error(ProfilerProblem::kBadMetric,
                              "PM sampling takes metric sets that need one pass; these need " +
                                  std::to_string(passes) + ": sample fewer metrics at a time");
    }

    auto enable = TCLENS_PARAMS(CUpti_PmSampling_Enable_Params);
    enable.deviceIndex = static_cast<std::size_t>(device);
    TCLENS_CUPTI(cuptiPmSamplingEnable(&enable));
    object = enable.pPmSamplingObject;

    error = set_config(request.interval_ns);
    if (!error.ok()) {
        return error;
    }

    auto data_size = TCLENS_PARAMS(CUpti_PmSampling_GetCounterDataSize_Params);
    data_size.pPmSamplingObject = object;
    data_size.pMetricNames = names.data();
    data_size.numMetrics = names.size();
    data_size.maxSamples = pm_max_samples(request.interval_ns, decode_period_ns);
    TCLENS_CUPTI(cuptiPmSamplingGetCounterDataSize(&data_size));
    counter_data.assign(data_size.counterDataSize, 0);

    auto data_init = TCLENS_PARAMS(CUpti_PmSampling_CounterDataImage_Initialize_Params);
    data_init.pPmSamplingObject = object;
    data_init.counterDataSize = counter_data.size();
    data_init.pCounterData = counter_data.data();
    TCLENS_CUPTI(cuptiPmSamplingCounterDataImageInitialize(&data_init));

    auto start = TCLENS_PARAMS(CUpti_PmSampling_Start_Params);
    start.pPmSamplingObject = object;
    TCLENS_CUPTI(cuptiPmSamplingStart(&start));
    started = true;
    return ProfilerError{};
}

ProfilerError PmSampler::State::decode_pass(bool& more) {
    more = false;
    auto data_init = TCLENS_PARAMS(CUpti_PmSampling_CounterDataImage_Initialize_Params);
    data_init.pPmSamplingObject = object;
    data_init.counterDataSize = counter_data.size();
    data_init.pCounterData = counter_data.data();
    TCLENS_CUPTI(cuptiPmSamplingCounterDataImageInitialize(&data_init));

    auto decode = TCLENS_PARAMS(CUpti_PmSampling_DecodeData_Params);
    decode.pPmSamplingObject = object;
    decode.pCounterDataImage = counter_data.data();
    decode.counterDataImageSize = counter_data.size();
    const CUptiResult decoded = cuptiPmSamplingDecodeData(&decode);
    if (decoded == CUPTI_ERROR_OUT_OF_MEMORY || decode.overflow != 0) {
        std::lock_guard<std::mutex> lock(ring_mutex);
        overflow = true;
    }
    if (decoded == CUPTI_ERROR_OUT_OF_MEMORY) {
        return profiler_error(ProfilerProblem::kFailed,
                              "cuptiPmSamplingDecodeData: the PM sampling hardware buffer "
                              "overflowed, samples were lost (CUPTI_ERROR_OUT_OF_MEMORY); use a "
                              "longer interval");
    }
    TCLENS_CUPTI(decoded);
    more = decode.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL;

    auto info = TCLENS_PARAMS(CUpti_PmSampling_GetCounterDataInfo_Params);
    info.pCounterDataImage = counter_data.data();
    info.counterDataImageSize = counter_data.size();
    TCLENS_CUPTI(cuptiPmSamplingGetCounterDataInfo(&info));

    std::vector<PmSample> decoded_samples;
    std::uint64_t without_time = 0;
    for (std::size_t index = 0; index < info.numCompletedSamples; ++index) {
        auto sample_info = TCLENS_PARAMS(CUpti_PmSampling_CounterData_GetSampleInfo_Params);
        sample_info.pPmSamplingObject = object;
        sample_info.pCounterDataImage = counter_data.data();
        sample_info.counterDataImageSize = counter_data.size();
        sample_info.sampleIndex = index;
        TCLENS_CUPTI(cuptiPmSamplingCounterDataGetSampleInfo(&sample_info));
        if (sample_info.startTimestamp == 0 && sample_info.endTimestamp == 0) {
            ++without_time;
            continue;
        }
        PmSample sample;
        sample.start_ns = sample_info.startTimestamp;
        sample.end_ns = sample_info.endTimestamp;
        sample.values.assign(names.size(), 0.0);
        const ProfilerError error =
            detail::evaluate_metrics(*host, counter_data, index, names, sample.values.data());
        if (!error.ok()) {
            return error;
        }
        decoded_samples.push_back(std::move(sample));
    }
    std::lock_guard<std::mutex> lock(ring_mutex);
    lost += without_time;
    for (PmSample& sample : decoded_samples) {
        ring.push(std::move(sample));
    }
    return ProfilerError{};
}

ProfilerError PmSampler::State::drain() {
    bool more = true;
    for (int pass = 0; more && pass < 64; ++pass) {
        const ProfilerError error = decode_pass(more);
        if (!error.ok()) return error;
    }
    return ProfilerError{};
}

void PmSampler::State::record_error(const ProfilerError& error) {
    std::lock_guard<std::mutex> lock(ring_mutex);
    if (session_error.ok()) session_error = error;
}

void PmSampler::State::decode_loop() {
    cudaSetDevice(device);
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(wake_mutex);
            wake.wait_for(lock, std::chrono::nanoseconds(decode_period_ns),
                          [this] { return stop_requested; });
            if (stop_requested) return;
        }
        ProfilerError error;
        {
            std::lock_guard<std::mutex> lock(cupti_mutex);
            error = drain();
        }
        if (!error.ok()) {
            record_error(error);
            return;
        }
    }
}

ProfilerError PmSampler::State::finish() {
    ProfilerError first;
    auto keep = [&first](const ProfilerError& error) {
        if (first.ok() && !error.ok()) first = error;
    };
    if (started) {
        auto stop = TCLENS_PARAMS(CUpti_PmSampling_Stop_Params);
        stop.pPmSamplingObject = object;
        keep(from_cupti(cuptiPmSamplingStop(&stop), "cuptiPmSamplingStop"));
        started = false;
        bool failed_before = false;
        {
            std::lock_guard<std::mutex> lock(ring_mutex);
            failed_before = !session_error.ok();
        }
        if (!failed_before) keep(drain());
    }
    if (object != nullptr) {
        auto disable = TCLENS_PARAMS(CUpti_PmSampling_Disable_Params);
        disable.pPmSamplingObject = object;
        keep(from_cupti(cuptiPmSamplingDisable(&disable), "cuptiPmSamplingDisable"));
        object = nullptr;
    }
    host.reset();
    return first;
}

PmSampler::PmSampler(int device) : state_(std::make_unique<State>(device)) {}

PmSampler::~PmSampler() { stop(); }

ProfilerError PmSampler::open() {
    State& s = *state_;
    return s.counters.open([&s] { return s.open_steps(); });
}

const std::string& PmSampler::chip_name() const { return state_->counters.chip(); }

std::vector<MetricCheck> PmSampler::check_metrics(const std::vector<std::string>& metrics) {
    const ProfilerError opened = open();
    return state_->counters.check_metrics(opened, metrics);
}

ProfilerError PmSampler::start(const PmSamplerConfig& config) {
    State& s = *state_;
    if (s.object != nullptr || s.decoder.joinable()) {
        return profiler_error(ProfilerProblem::kInvalidRequest,
                              "PM sampling is already running; stop it first");
    }
    if (config.interval_ns < kMinPmIntervalNs || config.interval_ns > kMaxPmIntervalNs) {
        return profiler_error(ProfilerProblem::kInvalidRequest,
                              "PM sampling interval " + std::to_string(config.interval_ns) +
                                  " ns is outside 100 us .. 10 ms");
    }
    const ProfilerError opened = open();
    if (!opened.ok()) return opened;
    const std::vector<std::string> wanted =
        config.metrics.empty() ? metric_set("timeline") : config.metrics;
    const std::string rejected = ChipCounters::rejected_names(check_metrics(wanted));
    if (!rejected.empty()) {
        return profiler_error(
            ProfilerProblem::kBadMetric,
            "PM sampling on " + s.counters.chip() + " does not accept metric(s) " + rejected);
    }
    {
        std::lock_guard<std::mutex> lock(s.ring_mutex);
        s.ring = SampleRing(config.ring_capacity);
        s.ring_metrics = wanted;
        s.lost = 0;
        s.overflow = false;
        s.session_error = ProfilerError{};
        s.interval_ns = config.interval_ns;
    }
    ProfilerError error;
    {
        std::lock_guard<std::mutex> lock(s.cupti_mutex);
        error = s.configure(PmSamplerConfig{wanted, config.interval_ns, config.ring_capacity,
                                            config.decode_period_ns});
        if (!error.ok()) {
            s.finish();
            return error;
        }
    }
    {
        std::lock_guard<std::mutex> lock(s.wake_mutex);
        s.stop_requested = false;
    }
    {
        std::lock_guard<std::mutex> lock(s.ring_mutex);
        s.running = true;
    }
    s.decoder = std::thread([&s] { s.decode_loop(); });
    return ProfilerError{};
}

ProfilerError PmSampler::stop() {
    State& s = *state_;
    if (s.decoder.joinable()) {
        {
            std::lock_guard<std::mutex> lock(s.wake_mutex);
            s.stop_requested = true;
        }
        s.wake.notify_all();
        s.decoder.join();
    }
    ProfilerError finished;
    {
        std::lock_guard<std::mutex> lock(s.cupti_mutex);
        finished = s.finish();
    }
    if (!finished.ok()) s.record_error(finished);
    std::lock_guard<std::mutex> lock(s.ring_mutex);
    s.running = false;
    return s.session_error;
}

bool PmSampler::running() const {
    std::lock_guard<std::mutex> lock(state_->ring_mutex);
    return state_->running && state_->session_error.ok();
}

PmSnapshot PmSampler::snapshot(std::uint64_t first_sequence) const {
    const State& s = *state_;
    std::lock_guard<std::mutex> lock(s.ring_mutex);
    PmSnapshot snap;
    snap.metrics = s.ring_metrics;
    snap.samples = s.ring.since(first_sequence);
    snap.next_sequence = s.ring.pushed();
    snap.skipped = first_sequence < s.ring.oldest() ? s.ring.oldest() - first_sequence : 0;
    snap.dropped = s.ring.dropped();
    snap.lost = s.lost;
    snap.overflow = s.overflow;
    snap.running = s.running && s.session_error.ok();
    snap.error = s.session_error;
    snap.trigger = s.trigger;
    snap.interval_ns = s.interval_ns;
    return snap;
}

}  // namespace tclens::profiling
