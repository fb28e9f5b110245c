#include "profiling/range_profiler.h"

#include <cupti_range_profiler.h>

#include <chrono>
#include <cstdint>
#include <utility>

#include "common/elapsed.h"
#include "common/text.h"
#include "profiling/chip_counters.h"
#include "profiling/cupti_call.h"

namespace tclens::profiling {
namespace {

using detail::build_config;
using detail::c_names;
using detail::ChipCounters;
using detail::from_cuda;
using detail::from_cupti;
using detail::HostObject;
using Clock = std::chrono::steady_clock;

constexpr CUpti_ProfilerType kRange = CUPTI_PROFILER_TYPE_RANGE_PROFILER;

// The range profiler enabled on a context; disabled when it goes out of scope.
class EnabledRangeProfiler {
  public:
    EnabledRangeProfiler() = default;
    ~EnabledRangeProfiler() {
        if (object_ != nullptr) {
            auto params = TCLENS_PARAMS(CUpti_RangeProfiler_Disable_Params);
            params.pRangeProfilerObject = object_;
            cuptiRangeProfilerDisable(&params);
        }
    }
    EnabledRangeProfiler(const EnabledRangeProfiler&) = delete;
    EnabledRangeProfiler& operator=(const EnabledRangeProfiler&) = delete;

    ProfilerError enable(CUcontext context) {
        auto params = TCLENS_PARAMS(CUpti_RangeProfiler_Enable_Params);
        params.ctx = context;
        const ProfilerError error =
            from_cupti(cuptiRangeProfilerEnable(&params), "cuptiRangeProfilerEnable");
        object_ = error.ok() ? params.pRangeProfilerObject : nullptr;
        return error;
    }

    CUpti_RangeProfiler_Object* get() const { return object_; }

  private:
    CUpti_RangeProfiler_Object* object_ = nullptr;
};

// Why profiling is unsupported on `device`, from cuptiProfilerDeviceSupported; "" when it is
// supported or the query itself failed.
std::string unsupported_reason(CUdevice device) {
    auto params = TCLENS_PARAMS(CUpti_Profiler_DeviceSupported_Params);
    params.cuDevice = device;
    params.api = CUPTI_PROFILER_RANGE_PROFILING;
    if (cuptiProfilerDeviceSupported(&params) != CUPTI_SUCCESS ||
        params.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED ||
        params.isSupported == CUPTI_PROFILER_CONFIGURATION_UNKNOWN) {
        return "";
    }
    std::vector<std::string> reasons;
    auto add = [&reasons](CUpti_Profiler_Support_Level level, const char* reason) {
        if (level == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED ||
            level == CUPTI_PROFILER_CONFIGURATION_DISABLED) {
            reasons.push_back(reason);
        }
    };
    add(params.architecture, "the GPU architecture (needs compute capability 7.5 or newer)");
    add(params.sli, "SLI");
    add(params.vGpu, "a vGPU without profiling enabled by the hypervisor");
    add(params.confidentialCompute, "confidential computing mode");
    add(params.cmp, "a crypto-mining processor");
    add(params.wsl, "WSL");
    return "the range profiler cannot run on this GPU: " +
           (reasons.empty() ? std::string("CUPTI reports it unsupported")
                            : common::join(reasons, ", "));
}

}  // namespace

// ---- RangeProfiler ------------------------------------------------------------------------

struct RangeProfiler::State {
    // Declared first, so it goes last: CUPTI's profiler initialisation outlives every object.
    ChipCounters counters;
    CUcontext context = nullptr;
    // Why cuptiProfilerDeviceSupported says profiling cannot work here, or "". Only used to
    // explain a failure, never to refuse: a configuration it flags might still profile.
    std::string unsupported_hint;
    std::vector<std::string> base_metrics;  // cached base_metrics(); empty until asked
    // The config of the last metric list (a live view profiles the same list again and again);
    // `host` also evaluates that list's counter data.
    std::vector<std::string> config_metrics;
    std::unique_ptr<HostObject> host;
    std::vector<std::uint8_t> config;
    std::size_t config_passes = 0;
    // The range profiler a user-replay profile() left enabled, for the next call with the same
    // metrics, mode and max_ranges. Declared last: it is disabled before `host` and `counters`.
    struct Session {
        EnabledRangeProfiler profiler;
        std::vector<std::string> metrics;
        RangeMode mode = RangeMode::kUserRange;
        int max_ranges = 0;
        std::vector<std::uint8_t> counter_data;
    };
    std::unique_ptr<Session> session;
    // A PassGate once timed out with the host still inside the pass: CUPTI waits for the GPU
    // in push or pop here, so gating only adds the gate's time-out. Not gated again.
    bool gate_blocks = false;

    explicit State(int device) : counters(kRange, device, "is not available on") {}

    // open()'s own steps after the chip name: the context, the support hint, the availability.
    ProfilerError open_steps();
    // Makes `host` and `config` those of `metrics` (kept from the last call when it is the same
    // list); kBadMetric names every metric the chip rejects.
    ProfilerError configure(RangeProfiler& profiler, const std::vector<std::string>& metrics);
    // `error`, with the unsupported hint in front when there is one and the error is vague.
    ProfilerError explained(ProfilerError error) const;

    // One profile() attempt, in three steps. Each fills its part of `result`.
    ProfilerError attempt(RangeProfiler& profiler, const RangeProfileRequest& request,
                          ProfileResult& result);
    // Config of the metrics, the session (kept or enabled), a fresh counter data image and
    // SetConfig: passes, reused_session, setup_ms.
    ProfilerError set_up(RangeProfiler& profiler, const RangeProfileRequest& request,
                         ProfileResult& result);
    // Every replay pass of the workload: gated, passes_ms.
    ProfilerError run_passes(const RangeProfileRequest& request, ProfileResult& result);
    // One pass (Start, push, workload, pop, Stop); `all_passes` is CUPTI's "all submitted".
    ProfilerError run_pass(const RangeProfileRequest& request, bool use_gate, ProfileResult& result,
                           bool& all_passes);
    // DecodeData and the metric values of every range: ranges, dropped_ranges, decode_ms.
    ProfilerError decode(const RangeProfileRequest& request, ProfileResult& result);
};

ProfilerError RangeProfiler::State::explained(ProfilerError error) const {
    if (unsupported_hint.empty() || (error.problem != ProfilerProblem::kFailed &&
                                     error.problem != ProfilerProblem::kUnsupported)) {
        return error;
    }
    return profiler_error(ProfilerProblem::kUnsupported,
                          unsupported_hint + " (" + error.message + ")");
}

ProfilerError RangeProfiler::State::open_steps() {
    CUdevice cu_device = 0;
    const ProfilerError error = detail::current_context(context, cu_device);
    if (!error.ok()) {
        return error;
    }
    unsupported_hint = unsupported_reason(cu_device);
    auto available = TCLENS_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
    available.ctx = context;
    return detail::read_availability(available, cuptiProfilerGetCounterAvailability,
                                     "cuptiProfilerGetCounterAvailability(&available)",
                                     counters.availability());
}

RangeProfiler::RangeProfiler(int device) : state_(std::make_unique<State>(device)) {}

RangeProfiler::~RangeProfiler() = default;

ProfilerError RangeProfiler::open() {
    State& s = *state_;
    return s.counters.open([&s] { return s.open_steps(); },
                           [&s](ProfilerError error) { return s.explained(error); });
}

const std::string& RangeProfiler::chip_name() const { return state_->counters.chip(); }

std::vector<MetricCheck> RangeProfiler::check_metrics(const std::vector<std::string>& metrics) {
    const ProfilerError opened = open();
    return state_->counters.check_metrics(opened, metrics);
}

ProfilerError RangeProfiler::count_passes(const std::vector<std::string>& metrics,
                                          std::size_t& passes) {
    const ProfilerError error = state_->configure(*this, metrics);
    if (error.ok()) {
        passes = state_->config_passes;
    }
    return error;
}

ProfilerError RangeProfiler::State::configure(RangeProfiler& profiler,
                                              const std::vector<std::string>& metrics) {
    if (metrics.empty()) {
        return profiler_error(ProfilerProblem::kFailed, "no metrics to profile");
    }
    const ProfilerError opened = profiler.open();
    if (!opened.ok()) {
        return opened;
    }
    if (host && metrics == config_metrics) {
        return ProfilerError{};
    }
    const std::string rejected = ChipCounters::rejected_names(profiler.check_metrics(metrics));
    if (!rejected.empty()) {
        return profiler_error(ProfilerProblem::kBadMetric, "CUPTI does not accept metric(s) " +
                                                               rejected + " on " + counters.chip() +
                                                               "; check the names for this chip");
    }
    session.reset();  // enabled with the old config
    host.reset();
    config_metrics.clear();
    auto fresh = std::make_unique<HostObject>();
    ProfilerError error = fresh->create(kRange, counters.chip(), counters.availability());
    if (error.ok()) {
        error = build_config(*fresh, c_names(metrics), config, config_passes);
    }
    if (error.ok()) {
        host = std::move(fresh);
        config_metrics = metrics;
    }
    return error;
}

ProfilerError RangeProfiler::base_metrics(std::vector<std::string>& names) {
    names.clear();
    const ProfilerError opened = open();
    if (!opened.ok()) {
        return opened;
    }
    State& s = *state_;
    if (s.base_metrics.empty()) {
        const ProfilerError error = detail::list_base_metrics(
            kRange, s.counters.chip(), s.counters.availability(), s.base_metrics);
        if (!error.ok()) {
            return error;
        }
    }
    names = s.base_metrics;
    return ProfilerError{};
}

void RangeProfiler::end_session() { state_->session.reset(); }

ProfilerError RangeProfiler::State::set_up(RangeProfiler& profiler,
                                           const RangeProfileRequest& request,
                                           ProfileResult& result) {
    const Clock::time_point setup_start = Clock::now();
    if (request.max_ranges < 1) {
        return profiler_error(ProfilerProblem::kFailed, "max_ranges must be at least 1");
    }
    ProfilerError error = configure(profiler, request.metrics);
    if (!error.ok()) {
        return error;
    }
    result.passes = config_passes;

    const Session* kept = session.get();
    result.reused_session = kept != nullptr && kept->metrics == request.metrics &&
                            kept->mode == request.mode && kept->max_ranges == request.max_ranges;
    if (!result.reused_session) {
        session.reset();
        auto fresh = std::make_unique<Session>();
        fresh->metrics = request.metrics;
        fresh->mode = request.mode;
        fresh->max_ranges = request.max_ranges;
        error = fresh->profiler.enable(context);
        if (!error.ok()) {
            return error;
        }
        const std::vector<const char*> names = c_names(request.metrics);
        auto data_size = TCLENS_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
        data_size.pRangeProfilerObject = fresh->profiler.get();
        data_size.pMetricNames = const_cast<const char**>(names.data());
        data_size.numMetrics = names.size();
        data_size.maxNumOfRanges = static_cast<std::size_t>(request.max_ranges);
        data_size.maxNumRangeTreeNodes = static_cast<std::uint32_t>(request.max_ranges);
        TCLENS_CUPTI(cuptiRangeProfilerGetCounterDataSize(&data_size));
        fresh->counter_data.assign(data_size.counterDataSize, 0);
        session = std::move(fresh);
    }
    CUpti_RangeProfiler_Object* const object = session->profiler.get();
    std::vector<std::uint8_t>& counter_data = session->counter_data;

    // A fresh image and SetConfig on every call, reused session or not: the pass state of the
    // last call is over and this call's ranges must not add to the last call's.
    auto data_init = TCLENS_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
    data_init.pRangeProfilerObject = object;
    data_init.counterDataSize = counter_data.size();
    data_init.pCounterData = counter_data.data();
    TCLENS_CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&data_init));

    const bool per_kernel = request.mode != RangeMode::kUserRange;
    const bool kernel_replay = request.mode == RangeMode::kPerKernel;
    auto set_config = TCLENS_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
    set_config.pRangeProfilerObject = object;
    set_config.configSize = config.size();
    set_config.pConfig = config.data();
    set_config.counterDataImageSize = counter_data.size();
    set_config.pCounterDataImage = counter_data.data();
    set_config.range = per_kernel ? CUPTI_AutoRange : CUPTI_UserRange;
    set_config.replayMode = kernel_replay ? CUPTI_KernelReplay : CUPTI_UserReplay;
    set_config.maxRangesPerPass = static_cast<std::size_t>(request.max_ranges);
    set_config.numNestingLevels = 1;
    set_config.minNestingLevel = 1;
    TCLENS_CUPTI(cuptiRangeProfilerSetConfig(&set_config));
    result.setup_ms = common::ms_since(setup_start);
    return ProfilerError{};
}

ProfilerError RangeProfiler::State::run_passes(const RangeProfileRequest& request,
                                               ProfileResult& result) {
    const Clock::time_point passes_start = Clock::now();
    // Kernel replay finishes every pass inside each launch: one round. User replay needs one
    // round per pass; the bound only guards against a CUPTI that never says "done".
    const std::size_t max_rounds = request.mode == RangeMode::kPerKernel ? 1 : result.passes + 1;
    const bool use_gate = static_cast<bool>(request.gate) && !gate_blocks;
    result.gated = request.mode == RangeMode::kUserRange && use_gate;
    bool all_passes = false;
    for (std::size_t round = 0; round < max_rounds && !all_passes; ++round) {
        const ProfilerError error = run_pass(request, use_gate, result, all_passes);
        if (!error.ok()) {
            return error;
        }
    }
    if (!all_passes) {
        return profiler_error(ProfilerProblem::kFailed,
                              "cuptiRangeProfilerStop never reported all " +
                                  std::to_string(result.passes) + " passes submitted");
    }
    result.passes_ms = common::ms_since(passes_start);
    return ProfilerError{};
}

ProfilerError RangeProfiler::State::run_pass(const RangeProfileRequest& request, bool use_gate,
                                             ProfileResult& result, bool& all_passes) {
    CUpti_RangeProfiler_Object* const object = session->profiler.get();
    const bool per_kernel = request.mode != RangeMode::kUserRange;
    if (request.before_each_pass) {
        std::string failure = request.before_each_pass();
        const cudaError_t synced = cudaDeviceSynchronize();
        if (failure.empty() && synced != cudaSuccess) {
            failure = from_cuda(synced, "cudaDeviceSynchronize before a pass").message;
        }
        if (!failure.empty()) {
            return profiler_error(ProfilerProblem::kFailed,
                                  "preparing a profiling pass failed: " + failure);
        }
    }
    auto start = TCLENS_PARAMS(CUpti_RangeProfiler_Start_Params);
    start.pRangeProfilerObject = object;
    TCLENS_CUPTI(cuptiRangeProfilerStart(&start));
    // With a gate, the stream waits (outside the range, after Start so that Start never waits
    // on it) while push, the workload's host work and launches, and pop happen; then the GPU
    // runs push marker, kernels and pop marker back to back. Without one, the GPU range opens
    // at push, and the device is synchronised before the pop.
    const bool gating = !per_kernel && use_gate;
    const PassGate& gate = request.gate;
    const Clock::time_point gate_closed = Clock::now();
    std::string failure;
    if (gating) {
        failure = gate.close();
        if (!failure.empty()) failure = "closing the pass gate: " + failure;
    }
    bool pushed = false;
    if (!per_kernel && failure.empty()) {
        auto push = TCLENS_PARAMS(CUpti_RangeProfiler_PushRange_Params);
        push.pRangeProfilerObject = object;
        push.pRangeName = request.range_name.c_str();
        const ProfilerError pushed_error =
            from_cupti(cuptiRangeProfilerPushRange(&push), "cuptiRangeProfilerPushRange");
        if (!pushed_error.ok()) {
            if (gating) gate.open();
            return pushed_error;
        }
        pushed = true;
    }
    if (failure.empty()) failure = request.workload ? request.workload() : "no workload given";
    ProfilerError popped;
    const auto pop = [&] {
        auto params = TCLENS_PARAMS(CUpti_RangeProfiler_PopRange_Params);
        params.pRangeProfilerObject = object;
        popped = from_cupti(cuptiRangeProfilerPopRange(&params), "cuptiRangeProfilerPopRange");
    };
    if (gating && pushed) pop();
    if (gating) {
        gate.open();
        // The host took as long as the gate waits at most: CUPTI (or the workload) blocked on
        // the closed stream, the gate gave up, and the range saw the idle time anyway. Not
        // worth the wait on later passes.
        if (common::ms_since(gate_closed) >= 0.9 * gate.timeout_ms) {
            gate_blocks = true;
            result.gated = false;
        }
    }
    const cudaError_t synced = cudaDeviceSynchronize();
    if (failure.empty() && synced != cudaSuccess) {
        failure = from_cuda(synced, "cudaDeviceSynchronize after the workload").message;
    }
    if (!gating && pushed) pop();
    if (failure.empty() && !popped.ok()) {
        return popped;
    }
    auto stop = TCLENS_PARAMS(CUpti_RangeProfiler_Stop_Params);
    stop.pRangeProfilerObject = object;
    const ProfilerError stopped =
        from_cupti(cuptiRangeProfilerStop(&stop), "cuptiRangeProfilerStop");
    if (!failure.empty()) {
        return profiler_error(ProfilerProblem::kFailed, "the profiled workload failed: " + failure);
    }
    if (!stopped.ok()) {
        return stopped;
    }
    all_passes = stop.isAllPassSubmitted != 0;
    return ProfilerError{};
}

ProfilerError RangeProfiler::State::decode(const RangeProfileRequest& request,
                                           ProfileResult& result) {
    const Clock::time_point decode_start = Clock::now();
    std::vector<std::uint8_t>& counter_data = session->counter_data;
    auto decode = TCLENS_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
    decode.pRangeProfilerObject = session->profiler.get();
    TCLENS_CUPTI(cuptiRangeProfilerDecodeData(&decode));
    result.dropped_ranges = decode.numOfRangeDropped;

    auto info = TCLENS_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
    info.pCounterDataImage = counter_data.data();
    info.counterDataImageSize = counter_data.size();
    TCLENS_CUPTI(cuptiRangeProfilerGetCounterDataInfo(&info));

    const std::vector<const char*> names = c_names(request.metrics);
    for (std::size_t index = 0; index < info.numTotalRanges; ++index) {
        auto range = TCLENS_PARAMS(CUpti_RangeProfiler_CounterData_GetRangeInfo_Params);
        range.pCounterDataImage = counter_data.data();
        range.counterDataImageSize = counter_data.size();
        range.rangeIndex = index;
        range.rangeDelimiter = "/";
        TCLENS_CUPTI(cuptiRangeProfilerCounterDataGetRangeInfo(&range));

        std::vector<double> values(names.size(), 0.0);
        const ProfilerError error =
            detail::evaluate_metrics(*host, counter_data, index, names, values.data());
        if (!error.ok()) {
            return error;
        }
        RangeValues range_values;
        range_values.name = range.rangeName ? range.rangeName : "";
        for (std::size_t m = 0; m < request.metrics.size(); ++m) {
            range_values.metrics[request.metrics[m]] = values[m];
        }
        result.ranges.push_back(std::move(range_values));
    }
    result.decode_ms = common::ms_since(decode_start);
    return ProfilerError{};
}

ProfilerError RangeProfiler::State::attempt(RangeProfiler& profiler,
                                            const RangeProfileRequest& request,
                                            ProfileResult& result) {
    ProfilerError error = set_up(profiler, request, result);
    if (error.ok()) error = run_passes(request, result);
    if (error.ok()) error = decode(request, result);
    return error;
}

ProfileResult RangeProfiler::profile(const RangeProfileRequest& request) {
    State& s = *state_;
    ProfileResult result;
    result.error = s.explained(s.attempt(*this, request, result));
    if (!result.error.ok() && result.reused_session) {
        // A kept session that CUPTI no longer takes: once more on a fresh one. (The user-range
        // workload redoes the same GPU work on every call, so running it again is harmless.)
        s.session.reset();
        result = ProfileResult{};
        result.error = s.explained(s.attempt(*this, request, result));
    }
    if (!result.error.ok()) {
        result.ranges.clear();
    }
    if (!result.error.ok() || request.mode == RangeMode::kPerKernel) {
        s.session.reset();
    }
    return result;
}

}  // namespace tclens::profiling
