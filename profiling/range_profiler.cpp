#include "profiling/range_profiler.h"

#include <cupti_range_profiler.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <utility>

#include "profiling/cupti_call.h"

namespace tclens::profiling {
namespace {

using detail::build_config;
using detail::c_names;
using detail::from_cuda;
using detail::from_cupti;
using detail::HostObject;

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
    std::string reasons;
    auto add = [&reasons](CUpti_Profiler_Support_Level level, const char* reason) {
        if (level == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED ||
            level == CUPTI_PROFILER_CONFIGURATION_DISABLED) {
            reasons += (reasons.empty() ? "" : ", ") + std::string(reason);
        }
    };
    add(params.architecture, "the GPU architecture (needs compute capability 7.5 or newer)");
    add(params.sli, "SLI");
    add(params.vGpu, "a vGPU without profiling enabled by the hypervisor");
    add(params.confidentialCompute, "confidential computing mode");
    add(params.cmp, "a crypto-mining processor");
    add(params.wsl, "WSL");
    return "the range profiler cannot run on this GPU: " +
           (reasons.empty() ? std::string("CUPTI reports it unsupported") : reasons);
}

}  // namespace

// ---- RangeProfiler ------------------------------------------------------------------------

struct RangeProfiler::State {
    int device = 0;
    bool opened = false;
    std::unique_ptr<detail::CuptiProfilerUse> cupti;  // CUPTI profiler initialisation, from open()
    ProfilerError open_error;  // the first open() failure, returned again by later calls
    CUcontext context = nullptr;
    std::string chip;
    std::vector<std::uint8_t> availability;
    // Why cuptiProfilerDeviceSupported says profiling cannot work here, or "". Only used to
    // explain a failure, never to refuse: a configuration it flags might still profile.
    std::string unsupported_hint;
    std::map<std::string, MetricCheck> checked;  // check_metrics answers by name
    std::vector<std::string> base_metrics;       // cached base_metrics(); empty until asked
    // The config of the last metric list (a live view profiles the same list again and again);
    // `host` also evaluates that list's counter data.
    std::vector<std::string> config_metrics;
    std::unique_ptr<HostObject> host;
    std::vector<std::uint8_t> config;
    std::size_t config_passes = 0;
    // The range profiler a user-replay profile() left enabled, for the next call with the same
    // metrics, mode and max_ranges. Declared last: it is disabled before `host` and `cupti` go.
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

    ProfilerError open_once();
    // Makes `host` and `config` those of `metrics` (kept from the last call when it is the same
    // list); kBadMetric names every metric the chip rejects.
    ProfilerError configure(RangeProfiler& profiler, const std::vector<std::string>& metrics);
    // `error`, with the unsupported hint in front when there is one and the error is vague.
    ProfilerError explained(ProfilerError error) const;
};

ProfilerError RangeProfiler::State::explained(ProfilerError error) const {
    if (unsupported_hint.empty() || (error.problem != ProfilerProblem::kFailed &&
                                     error.problem != ProfilerProblem::kUnsupported)) {
        return error;
    }
    return profiler_error(ProfilerProblem::kUnsupported,
                          unsupported_hint + " (" + error.message + ")");
}

ProfilerError RangeProfiler::State::open_once() {
    ProfilerError error = detail::start_cuda(device);
    CUdevice cu_device = 0;
    if (error.ok()) {
        error = detail::current_context(context, cu_device);
    }
    if (error.ok()) {
        error = detail::CuptiProfilerUse::acquire(cupti);
    }
    if (!error.ok()) {
        return error;
    }

    unsupported_hint = unsupported_reason(cu_device);

    error = detail::chip_name(device, chip);
    if (!error.ok()) {
        return error;
    }

    auto available = TCLENS_PARAMS(CUpti_Profiler_GetCounterAvailability_Params);
    available.ctx = context;
    TCLENS_CUPTI(cuptiProfilerGetCounterAvailability(&available));
    availability.assign(available.counterAvailabilityImageSize, 0);
    available.pCounterAvailabilityImage = availability.data();
    TCLENS_CUPTI(cuptiProfilerGetCounterAvailability(&available));
    return ProfilerError{};
}

RangeProfiler::RangeProfiler(int device) : state_(std::make_unique<State>()) {
    state_->device = device;
}

RangeProfiler::~RangeProfiler() = default;

ProfilerError RangeProfiler::open() {
    if (state_->opened) {
        return ProfilerError{};
    }
    if (!state_->open_error.ok()) {
        return state_->open_error;
    }
    const ProfilerError error = state_->explained(state_->open_once());
    if (error.ok()) {
        state_->opened = true;
    } else {
        state_->open_error = error;
    }
    return error;
}

const std::string& RangeProfiler::chip_name() const { return state_->chip; }

std::vector<MetricCheck> RangeProfiler::check_metrics(const std::vector<std::string>& metrics) {
    std::vector<MetricCheck> checks;
    const ProfilerError opened = open();
    for (const std::string& name : metrics) {
        MetricCheck check;
        check.name = name;
        if (!opened.ok()) {
            check.reason = opened.message;
            checks.push_back(check);
            continue;
        }
        const auto cached = state_->checked.find(name);
        if (cached != state_->checked.end()) {
            checks.push_back(cached->second);
            continue;
        }
        const ProfilerError error =
            detail::check_one_metric(kRange, state_->chip, state_->availability, name);
        check.accepted = error.ok();
        if (!check.accepted) {
            check.reason =
                "metric " + name + " is not available on " + state_->chip + ": " + error.message;
        }
        if (check.accepted || error.problem == ProfilerProblem::kBadMetric) {
            state_->checked[name] = check;  // an answer about the metric, not a passing failure
        }
        checks.push_back(check);
    }
    return checks;
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
    std::string rejected;
    for (const MetricCheck& check : profiler.check_metrics(metrics)) {
        if (!check.accepted) {
            rejected += (rejected.empty() ? "" : ", ") + check.name;
        }
    }
    if (!rejected.empty()) {
        return profiler_error(ProfilerProblem::kBadMetric, "CUPTI does not accept metric(s) " +
                                                               rejected + " on " + chip +
                                                               "; check the names for this chip");
    }
    session.reset();  // enabled with the old config
    host.reset();
    config_metrics.clear();
    auto fresh = std::make_unique<HostObject>();
    ProfilerError error = fresh->create(kRange, chip, availability);
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
    if (state_->base_metrics.empty()) {
        const ProfilerError error = detail::list_base_metrics(
            kRange, state_->chip, state_->availability, state_->base_metrics);
        if (!error.ok()) {
            return error;
        }
    }
    names = state_->base_metrics;
    return ProfilerError{};
}

void RangeProfiler::end_session() { state_->session.reset(); }

ProfileResult RangeProfiler::profile(const std::vector<std::string>& metrics,
                                     const Workload& workload, RangeMode mode, int max_ranges,
                                     const std::string& range_name,
                                     const Workload& before_each_pass, const PassGate& gate) {
    using Clock = std::chrono::steady_clock;
    const auto ms_since = [](Clock::time_point start) {
        return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    };
    ProfileResult result;
    auto run = [&]() -> ProfilerError {
        const Clock::time_point setup_start = Clock::now();
        if (max_ranges < 1) {
            return profiler_error(ProfilerProblem::kFailed, "max_ranges must be at least 1");
        }
        ProfilerError error = state_->configure(*this, metrics);
        if (!error.ok()) {
            return error;
        }
        const std::size_t passes = state_->config_passes;
        result.passes = passes;
        const std::vector<const char*> names = c_names(metrics);
        const HostObject& host = *state_->host;
        const std::vector<std::uint8_t>& config = state_->config;

        using Session = State::Session;
        const Session* kept = state_->session.get();
        result.reused_session = kept != nullptr && kept->metrics == metrics && kept->mode == mode &&
                                kept->max_ranges == max_ranges;
        if (!result.reused_session) {
            state_->session.reset();
            auto fresh = std::make_unique<Session>();
            fresh->metrics = metrics;
            fresh->mode = mode;
            fresh->max_ranges = max_ranges;
            error = fresh->profiler.enable(state_->context);
            if (!error.ok()) {
                return error;
            }
            auto data_size = TCLENS_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
            data_size.pRangeProfilerObject = fresh->profiler.get();
            data_size.pMetricNames = const_cast<const char**>(names.data());
            data_size.numMetrics = names.size();
            data_size.maxNumOfRanges = static_cast<std::size_t>(max_ranges);
            data_size.maxNumRangeTreeNodes = static_cast<std::uint32_t>(max_ranges);
            TCLENS_CUPTI(cuptiRangeProfilerGetCounterDataSize(&data_size));
            fresh->counter_data.assign(data_size.counterDataSize, 0);
            state_->session = std::move(fresh);
        }
        Session& session = *state_->session;
        CUpti_RangeProfiler_Object* const object = session.profiler.get();
        std::vector<std::uint8_t>& counter_data = session.counter_data;

        // A fresh image and SetConfig on every call, reused session or not: the pass state of the
        // last call is over and this call's ranges must not add to the last call's.
        auto data_init = TCLENS_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
        data_init.pRangeProfilerObject = object;
        data_init.counterDataSize = counter_data.size();
        data_init.pCounterData = counter_data.data();
        TCLENS_CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&data_init));

        const bool per_kernel = mode != RangeMode::kUserRange;
        const bool kernel_replay = mode == RangeMode::kPerKernel;
        auto set_config = TCLENS_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
        set_config.pRangeProfilerObject = object;
        set_config.configSize = config.size();
        set_config.pConfig = config.data();
        set_config.counterDataImageSize = counter_data.size();
        set_config.pCounterDataImage = counter_data.data();
        set_config.range = per_kernel ? CUPTI_AutoRange : CUPTI_UserRange;
        set_config.replayMode = kernel_replay ? CUPTI_KernelReplay : CUPTI_UserReplay;
        set_config.maxRangesPerPass = static_cast<std::size_t>(max_ranges);
        set_config.numNestingLevels = 1;
        set_config.minNestingLevel = 1;
        TCLENS_CUPTI(cuptiRangeProfilerSetConfig(&set_config));
        result.setup_ms = ms_since(setup_start);
        const Clock::time_point passes_start = Clock::now();

        // Kernel replay finishes every pass inside each launch: one round. User replay needs
        // one round per pass; the bound only guards against a CUPTI that never says "done".
        const std::size_t max_rounds = kernel_replay ? 1 : passes + 1;
        const bool use_gate = static_cast<bool>(gate) && !state_->gate_blocks;
        result.gated = !per_kernel && use_gate;
        bool all_passes = false;
        for (std::size_t round = 0; round < max_rounds && !all_passes; ++round) {
            if (before_each_pass) {
                std::string failure = before_each_pass();
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
            // With a gate, the stream waits (outside the range, after Start so that Start never
            // waits on it) while push, the workload's host work and launches, and pop happen;
            // then the GPU runs push marker, kernels and pop marker back to back. Without one,
            // the GPU range opens at push, and the device is synchronised before the pop.
            const bool gating = !per_kernel && use_gate;
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
                push.pRangeName = range_name.c_str();
                const ProfilerError pushed_error =
                    from_cupti(cuptiRangeProfilerPushRange(&push), "cuptiRangeProfilerPushRange");
                if (!pushed_error.ok()) {
                    if (gating) gate.open();
                    return pushed_error;
                }
                pushed = true;
            }
            if (failure.empty()) failure = workload ? workload() : "no workload given";
            ProfilerError popped;
            if (gating && pushed) {
                auto pop = TCLENS_PARAMS(CUpti_RangeProfiler_PopRange_Params);
                pop.pRangeProfilerObject = object;
                popped = from_cupti(cuptiRangeProfilerPopRange(&pop), "cuptiRangeProfilerPopRange");
            }
            if (gating) {
                gate.open();
                // The host took as long as the gate waits at most: CUPTI (or the workload)
                // blocked on the closed stream, the gate gave up, and the range saw the idle
                // time anyway. Not worth the wait on later passes.
                if (ms_since(gate_closed) >= 0.9 * gate.timeout_ms) {
                    state_->gate_blocks = true;
                    result.gated = false;
                }
            }
            const cudaError_t synced = cudaDeviceSynchronize();
            if (failure.empty() && synced != cudaSuccess) {
                failure = from_cuda(synced, "cudaDeviceSynchronize after the workload").message;
            }
            if (!gating && pushed) {
                auto pop = TCLENS_PARAMS(CUpti_RangeProfiler_PopRange_Params);
                pop.pRangeProfilerObject = object;
                popped = from_cupti(cuptiRangeProfilerPopRange(&pop), "cuptiRangeProfilerPopRange");
            }
            if (failure.empty() && !popped.ok()) {
                return popped;
            }
            auto stop = TCLENS_PARAMS(CUpti_RangeProfiler_Stop_Params);
            stop.pRangeProfilerObject = object;
            const ProfilerError stopped =
                from_cupti(cuptiRangeProfilerStop(&stop), "cuptiRangeProfilerStop");
            if (!failure.empty()) {
                return profiler_error(ProfilerProblem::kFailed,
                                      "the profiled workload failed: " + failure);
            }
            if (!stopped.ok()) {
                return stopped;
            }
            all_passes = stop.isAllPassSubmitted != 0;
        }
        if (!all_passes) {
            return profiler_error(ProfilerProblem::kFailed,
                                  "cuptiRangeProfilerStop never reported all " +
                                      std::to_string(passes) + " passes submitted");
        }

        result.passes_ms = ms_since(passes_start);
        const Clock::time_point decode_start = Clock::now();
        auto decode = TCLENS_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
        decode.pRangeProfilerObject = object;
        TCLENS_CUPTI(cuptiRangeProfilerDecodeData(&decode));
        result.dropped_ranges = decode.numOfRangeDropped;

        auto info = TCLENS_PARAMS(CUpti_RangeProfiler_GetCounterDataInfo_Params);
        info.pCounterDataImage = counter_data.data();
        info.counterDataImageSize = counter_data.size();
        TCLENS_CUPTI(cuptiRangeProfilerGetCounterDataInfo(&info));

        for (std::size_t index = 0; index < info.numTotalRanges; ++index) {
            auto range = TCLENS_PARAMS(CUpti_RangeProfiler_CounterData_GetRangeInfo_Params);
            range.pCounterDataImage = counter_data.data();
            range.counterDataImageSize = counter_data.size();
            range.rangeIndex = index;
            range.rangeDelimiter = "/";
            TCLENS_CUPTI(cuptiRangeProfilerCounterDataGetRangeInfo(&range));

            std::vector<double> values(names.size(), 0.0);
            auto evaluate = TCLENS_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
            evaluate.pHostObject = host.get();
            evaluate.pCounterDataImage = counter_data.data();
            evaluate.counterDataImageSize = counter_data.size();
            evaluate.rangeIndex = index;
            evaluate.ppMetricNames = const_cast<const char**>(names.data());
            evaluate.numMetrics = names.size();
            evaluate.pMetricValues = values.data();
            TCLENS_CUPTI(cuptiProfilerHostEvaluateToGpuValues(&evaluate));

            RangeValues range_values;
            range_values.name = range.rangeName ? range.rangeName : "";
            for (std::size_t m = 0; m < metrics.size(); ++m) {
                range_values.metrics[metrics[m]] = values[m];
            }
            result.ranges.push_back(std::move(range_values));
        }
        result.decode_ms = ms_since(decode_start);
        return ProfilerError{};
    };
    result.error = state_->explained(run());
    if (!result.error.ok() && result.reused_session) {
        // A kept session that CUPTI no longer takes: once more on a fresh one. (The user-range
        // workload redoes the same GPU work on every call, so running it again is harmless.)
        state_->session.reset();
        result = ProfileResult{};
        result.error = state_->explained(run());
    }
    if (!result.error.ok()) {
        result.ranges.clear();
    }
    if (!result.error.ok() || mode == RangeMode::kPerKernel) {
        state_->session.reset();
    }
    return result;
}

}  // namespace tclens::profiling
