#include "profiling/range_profiler.h"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include <cstdint>
#include <utility>

namespace tclens::profiling {
namespace {

// ---- Errors -------------------------------------------------------------------------------

ProfilerError from_cupti(CUptiResult status, const char* call) {
    const char* text = nullptr;
    if (status != CUPTI_SUCCESS && cuptiGetResultString(status, &text) != CUPTI_SUCCESS) {
        text = nullptr;
    }
    return cupti_error(static_cast<int>(status), call, text ? text : "");
}

ProfilerError from_cuda(cudaError_t status, const std::string& call) {
    if (status == cudaSuccess) {
        return ProfilerError{};
    }
    const std::string what =
        std::string(cudaGetErrorName(status)) + " (" + cudaGetErrorString(status) + ")";
    cudaGetLastError();  // clear the runtime's last error so later calls start clean
    if (status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver) {
        return profiler_error(ProfilerProblem::kNoGpu,
                              "no usable GPU: " + call + " returned " + what +
                                  "; check nvidia-smi and CUDA_VISIBLE_DEVICES");
    }
    return profiler_error(ProfilerProblem::kFailed, call + " failed: " + what);
}

// A zeroed CUPTI parameter struct with structSize set: CUPTI reads the size to know which fields
// the caller's header version has.
template <typename Params>
Params cupti_params(std::size_t struct_size) {
    Params params{};
    params.structSize = struct_size;
    return params;
}
#define TCLENS_PARAMS(Type) cupti_params<Type>(Type##_STRUCT_SIZE)

// Returns the readable error of a failed CUPTI call from the enclosing function.
#define TCLENS_CUPTI(call)                                      \
    do {                                                        \
        const ProfilerError error_ = from_cupti((call), #call); \
        if (!error_.ok()) return error_;                        \
    } while (0)

// ---- CUPTI objects with owners ------------------------------------------------------------

// A profiler host object; deinitialised when it goes out of scope.
class HostObject {
  public:
    HostObject() = default;
    ~HostObject() { reset(); }
    HostObject(const HostObject&) = delete;
    HostObject& operator=(const HostObject&) = delete;

    ProfilerError create(const std::string& chip, const std::vector<std::uint8_t>& availability) {
        reset();
        auto params = TCLENS_PARAMS(CUpti_Profiler_Host_Initialize_Params);
        params.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
        params.pChipName = chip.c_str();
        params.pCounterAvailabilityImage = availability.data();
        const ProfilerError error =
            from_cupti(cuptiProfilerHostInitialize(&params), "cuptiProfilerHostInitialize");
        object_ = error.ok() ? params.pHostObject : nullptr;
        return error;
    }

    CUpti_Profiler_Host_Object* get() const { return object_; }

  private:
    void reset() {
        if (object_ != nullptr) {
            auto params = TCLENS_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
            params.pHostObject = object_;
            cuptiProfilerHostDeinitialize(&params);
            object_ = nullptr;
        }
    }

    CUpti_Profiler_Host_Object* object_ = nullptr;
};

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

std::vector<const char*> c_names(const std::vector<std::string>& names) {
    std::vector<const char*> pointers;
    for (const std::string& name : names) {
        pointers.push_back(name.c_str());
    }
    return pointers;
}

// Adds `names` to `host` and builds the config image; reports the passes it needs.
ProfilerError build_config(HostObject& host, const std::vector<const char*>& names,
                           std::vector<std::uint8_t>& config, std::size_t& passes) {
    auto add = TCLENS_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
    add.pHostObject = host.get();
    add.ppMetricNames = const_cast<const char**>(names.data());
    add.numMetrics = names.size();
    TCLENS_CUPTI(cuptiProfilerHostConfigAddMetrics(&add));

    auto size = TCLENS_PARAMS(CUpti_Profiler_Host_GetConfigImageSize_Params);
    size.pHostObject = host.get();
    TCLENS_CUPTI(cuptiProfilerHostGetConfigImageSize(&size));
    config.assign(size.configImageSize, 0);

    auto image = TCLENS_PARAMS(CUpti_Profiler_Host_GetConfigImage_Params);
    image.pHostObject = host.get();
    image.configImageSize = config.size();
    image.pConfigImage = config.data();
    TCLENS_CUPTI(cuptiProfilerHostGetConfigImage(&image));

    auto pass_count = TCLENS_PARAMS(CUpti_Profiler_Host_GetNumOfPasses_Params);
    pass_count.configImageSize = config.size();
    pass_count.pConfigImage = config.data();
    TCLENS_CUPTI(cuptiProfilerHostGetNumOfPasses(&pass_count));
    passes = pass_count.numOfPasses;
    return ProfilerError{};
}

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

// The runtime's current context, fetched through the driver entry point so that tclens does
// not link libcuda (it must start on machines without a driver). The symbols are asked for as of
// CUDA 12.0: CUDA 13 added cuCtxGetDevice_v13000 with another signature.
ProfilerError current_context(CUcontext& context, CUdevice& device) {
    using GetContext = PFN_cuCtxGetCurrent_v4000;
    using GetDevice = PFN_cuCtxGetDevice_v2000;
    void* get_context = nullptr;
    void* get_device = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    cudaError_t status = cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &get_context, 12000,
                                                          cudaEnableDefault, &found);
    if (status == cudaSuccess && found == cudaDriverEntryPointSuccess) {
        status = cudaGetDriverEntryPointByVersion("cuCtxGetDevice", &get_device, 12000,
                                                  cudaEnableDefault, &found);
    }
    if (status != cudaSuccess) {
        return from_cuda(status, "cudaGetDriverEntryPointByVersion");
    }
    if (found != cudaDriverEntryPointSuccess || get_context == nullptr || get_device == nullptr) {
        return profiler_error(ProfilerProblem::kFailed,
                              "the NVIDIA driver does not export cuCtxGetCurrent/cuCtxGetDevice; "
                              "update the driver to one that supports CUDA 12 or newer");
    }
    if (reinterpret_cast<GetContext>(get_context)(&context) != CUDA_SUCCESS || context == nullptr ||
        reinterpret_cast<GetDevice>(get_device)(&device) != CUDA_SUCCESS) {
        return profiler_error(ProfilerProblem::kFailed,
                              "no current CUDA context after cudaFree(0); cannot profile");
    }
    return ProfilerError{};
}

}  // namespace

// ---- RangeProfiler ------------------------------------------------------------------------

struct RangeProfiler::State {
    int device = 0;
    bool opened = false;
    bool cupti_initialized = false;
    ProfilerError open_error;  // the first open() failure, returned again by later calls
    CUcontext context = nullptr;
    std::string chip;
    std::vector<std::uint8_t> availability;
    // Why cuptiProfilerDeviceSupported says profiling cannot work here, or "". Only used to
    // explain a failure, never to refuse: a configuration it flags might still profile.
    std::string unsupported_hint;

    ProfilerError open_once();
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
    ProfilerError error = from_cuda(cudaSetDevice(device), "cudaSetDevice");
    if (error.ok()) {
        error = from_cuda(cudaFree(nullptr), "cudaFree(0)");  // creates the primary context
    }
    CUdevice cu_device = 0;
    if (error.ok()) {
        error = current_context(context, cu_device);
    }
    if (!error.ok()) {
        return error;
    }

    auto init = TCLENS_PARAMS(CUpti_Profiler_Initialize_Params);
    TCLENS_CUPTI(cuptiProfilerInitialize(&init));
    cupti_initialized = true;

    unsupported_hint = unsupported_reason(cu_device);

    auto chip_params = TCLENS_PARAMS(CUpti_Device_GetChipName_Params);
    chip_params.deviceIndex = static_cast<std::size_t>(device);
    TCLENS_CUPTI(cuptiDeviceGetChipName(&chip_params));
    chip = chip_params.pChipName ? chip_params.pChipName : "";

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

RangeProfiler::~RangeProfiler() {
    if (state_->cupti_initialized) {
        auto params = TCLENS_PARAMS(CUpti_Profiler_DeInitialize_Params);
        cuptiProfilerDeInitialize(&params);
    }
}

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
        HostObject host;
        ProfilerError error = host.create(state_->chip, state_->availability);
        if (error.ok()) {
            const char* one[] = {name.c_str()};
            auto add = TCLENS_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
            add.pHostObject = host.get();
            add.ppMetricNames = one;
            add.numMetrics = 1;
            error = from_cupti(cuptiProfilerHostConfigAddMetrics(&add),
                               "cuptiProfilerHostConfigAddMetrics");
        }
        check.accepted = error.ok();
        if (!check.accepted) {
            check.reason =
                "metric " + name + " is not available on " + state_->chip + ": " + error.message;
        }
        checks.push_back(check);
    }
    return checks;
}

ProfilerError RangeProfiler::count_passes(const std::vector<std::string>& metrics,
                                          std::size_t& passes) {
    if (metrics.empty()) {
        return profiler_error(ProfilerProblem::kFailed, "no metrics to profile");
    }
    const ProfilerError opened = open();
    if (!opened.ok()) {
        return opened;
    }
    std::string rejected;
    for (const MetricCheck& check : check_metrics(metrics)) {
        if (!check.accepted) {
            rejected += (rejected.empty() ? "" : ", ") + check.name;
        }
    }
    if (!rejected.empty()) {
        return profiler_error(ProfilerProblem::kBadMetric, "CUPTI does not accept metric(s) " +
                                                               rejected + " on " + state_->chip +
                                                               "; check the names for this chip");
    }
    HostObject host;
    ProfilerError error = host.create(state_->chip, state_->availability);
    std::vector<std::uint8_t> config;
    std::size_t counted = 0;
    if (error.ok()) {
        error = build_config(host, c_names(metrics), config, counted);
    }
    if (error.ok()) {
        passes = counted;
    }
    return error;
}

ProfileResult RangeProfiler::profile(const std::vector<std::string>& metrics,
                                     const Workload& workload, RangeMode mode, int max_ranges,
                                     const std::string& range_name) {
    ProfileResult result;
    auto run = [&]() -> ProfilerError {
        if (max_ranges < 1) {
            return profiler_error(ProfilerProblem::kFailed, "max_ranges must be at least 1");
        }
        std::size_t passes = 0;
        ProfilerError error = count_passes(metrics, passes);
        if (!error.ok()) {
            return error;
        }
        result.passes = passes;
        const std::vector<const char*> names = c_names(metrics);
        HostObject host;
        std::vector<std::uint8_t> config;
        error = host.create(state_->chip, state_->availability);
        if (error.ok()) {
            error = build_config(host, names, config, passes);
        }
        EnabledRangeProfiler profiler;
        if (error.ok()) {
            error = profiler.enable(state_->context);
        }
        if (!error.ok()) {
            return error;
        }

        auto data_size = TCLENS_PARAMS(CUpti_RangeProfiler_GetCounterDataSize_Params);
        data_size.pRangeProfilerObject = profiler.get();
        data_size.pMetricNames = const_cast<const char**>(names.data());
        data_size.numMetrics = names.size();
        data_size.maxNumOfRanges = static_cast<std::size_t>(max_ranges);
        data_size.maxNumRangeTreeNodes = static_cast<std::uint32_t>(max_ranges);
        TCLENS_CUPTI(cuptiRangeProfilerGetCounterDataSize(&data_size));
        std::vector<std::uint8_t> counter_data(data_size.counterDataSize, 0);

        auto data_init = TCLENS_PARAMS(CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
        data_init.pRangeProfilerObject = profiler.get();
        data_init.counterDataSize = counter_data.size();
        data_init.pCounterData = counter_data.data();
        TCLENS_CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&data_init));

        const bool per_kernel = mode == RangeMode::kPerKernel;
        auto set_config = TCLENS_PARAMS(CUpti_RangeProfiler_SetConfig_Params);
        set_config.pRangeProfilerObject = profiler.get();
        set_config.configSize = config.size();
        set_config.pConfig = config.data();
        set_config.counterDataImageSize = counter_data.size();
        set_config.pCounterDataImage = counter_data.data();
        set_config.range = per_kernel ? CUPTI_AutoRange : CUPTI_UserRange;
        set_config.replayMode = per_kernel ? CUPTI_KernelReplay : CUPTI_UserReplay;
        set_config.maxRangesPerPass = static_cast<std::size_t>(max_ranges);
        set_config.numNestingLevels = 1;
        set_config.minNestingLevel = 1;
        TCLENS_CUPTI(cuptiRangeProfilerSetConfig(&set_config));

        // Kernel replay finishes every pass inside each launch: one round. User replay needs
        // one round per pass; the bound only guards against a CUPTI that never says "done".
        const std::size_t max_rounds = per_kernel ? 1 : passes + 1;
        bool all_passes = false;
        for (std::size_t round = 0; round < max_rounds && !all_passes; ++round) {
            auto start = TCLENS_PARAMS(CUpti_RangeProfiler_Start_Params);
            start.pRangeProfilerObject = profiler.get();
            TCLENS_CUPTI(cuptiRangeProfilerStart(&start));
            if (!per_kernel) {
                auto push = TCLENS_PARAMS(CUpti_RangeProfiler_PushRange_Params);
                push.pRangeProfilerObject = profiler.get();
                push.pRangeName = range_name.c_str();
                TCLENS_CUPTI(cuptiRangeProfilerPushRange(&push));
            }
            std::string failure = workload ? workload() : "no workload given";
            const cudaError_t synced = cudaDeviceSynchronize();
            if (failure.empty() && synced != cudaSuccess) {
                failure = from_cuda(synced, "cudaDeviceSynchronize after the workload").message;
            }
            if (!per_kernel) {
                auto pop = TCLENS_PARAMS(CUpti_RangeProfiler_PopRange_Params);
                pop.pRangeProfilerObject = profiler.get();
                const ProfilerError popped =
                    from_cupti(cuptiRangeProfilerPopRange(&pop), "cuptiRangeProfilerPopRange");
                if (failure.empty() && !popped.ok()) {
                    return popped;
                }
            }
            auto stop = TCLENS_PARAMS(CUpti_RangeProfiler_Stop_Params);
            stop.pRangeProfilerObject = profiler.get();
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

        auto decode = TCLENS_PARAMS(CUpti_RangeProfiler_DecodeData_Params);
        decode.pRangeProfilerObject = profiler.get();
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
        return ProfilerError{};
    };
    result.error = state_->explained(run());
    if (!result.error.ok()) {
        result.ranges.clear();
    }
    return result;
}

}  // namespace tclens::profiling
