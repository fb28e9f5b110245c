#include "profiling/cupti_call.h"

#include <cudaTypedefs.h>

#include <algorithm>
#include <mutex>

#include "kernels/cuda_util.h"
#include "kernels/driver_entry_point.h"
#include "profiling/fault_injection.h"

namespace tclens::profiling::detail {
namespace {

std::mutex& use_mutex() {
    static std::mutex mutex;
    return mutex;
}
int use_count = 0;  // guarded by use_mutex()

}  // namespace

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
    const std::string what = kernels::cuda_text(status);
    cudaGetLastError();  // clear the runtime's last error so later calls start clean
    if (status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver) {
        return profiler_error(ProfilerProblem::kNoGpu,
                              "no usable GPU: " + call + " returned " + what +
                                  "; check nvidia-smi and CUDA_VISIBLE_DEVICES");
    }
    return profiler_error(ProfilerProblem::kFailed, call + " failed: " + what);
}

ProfilerError CuptiProfilerUse::acquire(std::unique_ptr<CuptiProfilerUse>& use) {
    std::lock_guard<std::mutex> lock(use_mutex());
    if (use_count == 0) {
        auto init = TCLENS_PARAMS(CUpti_Profiler_Initialize_Params);
        TCLENS_CUPTI(cuptiProfilerInitialize(&init));
    }
    ++use_count;
    use.reset(new CuptiProfilerUse());
    return ProfilerError{};
}

CuptiProfilerUse::~CuptiProfilerUse() {
    std::lock_guard<std::mutex> lock(use_mutex());
    if (--use_count == 0) {
        auto params = TCLENS_PARAMS(CUpti_Profiler_DeInitialize_Params);
        cuptiProfilerDeInitialize(&params);
    }
}

ProfilerError HostObject::create(CUpti_ProfilerType type, const std::string& chip,
                                 const std::vector<std::uint8_t>& availability) {
    reset();
    auto params = TCLENS_PARAMS(CUpti_Profiler_Host_Initialize_Params);
    params.profilerType = type;
    params.pChipName = chip.c_str();
    params.pCounterAvailabilityImage = availability.data();
    const ProfilerError error =
        from_cupti(cuptiProfilerHostInitialize(&params), "cuptiProfilerHostInitialize");
    object_ = error.ok() ? params.pHostObject : nullptr;
    return error;
}

void HostObject::reset() {
    if (object_ != nullptr) {
        auto params = TCLENS_PARAMS(CUpti_Profiler_Host_Deinitialize_Params);
        params.pHostObject = object_;
        cuptiProfilerHostDeinitialize(&params);
        object_ = nullptr;
    }
}

std::vector<const char*> c_names(const std::vector<std::string>& names) {
    std::vector<const char*> pointers;
    for (const std::string& name : names) {
        pointers.push_back(name.c_str());
    }
    return pointers;
}

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

ProfilerError check_one_metric(CUpti_ProfilerType type, const std::string& chip,
                               const std::vector<std::uint8_t>& availability,
                               const std::string& name) {
    HostObject host;
    ProfilerError error = host.create(type, chip, availability);
    if (!error.ok()) {
        return error;
    }
    const char* one[] = {name.c_str()};
    auto add = TCLENS_PARAMS(CUpti_Profiler_Host_ConfigAddMetrics_Params);
    add.pHostObject = host.get();
    add.ppMetricNames = one;
    add.numMetrics = 1;
    return from_cupti(cuptiProfilerHostConfigAddMetrics(&add), "cuptiProfilerHostConfigAddMetrics");
}

ProfilerError list_base_metrics(CUpti_ProfilerType type, const std::string& chip,
                                const std::vector<std::uint8_t>& availability,
                                std::vector<std::string>& names) {
    HostObject host;
    ProfilerError error = host.create(type, chip, availability);
    if (!error.ok()) {
        return error;
    }
    std::vector<std::string> found;
    for (int metric_type = 0; metric_type < CUPTI_METRIC_TYPE__COUNT; ++metric_type) {
        auto list = TCLENS_PARAMS(CUpti_Profiler_Host_GetBaseMetrics_Params);
        list.pHostObject = host.get();
        list.metricType = static_cast<CUpti_MetricType>(metric_type);
        TCLENS_CUPTI(cuptiProfilerHostGetBaseMetrics(&list));
        for (std::size_t i = 0; i < list.numMetrics; ++i) {
            if (list.ppMetricNames[i] != nullptr) found.emplace_back(list.ppMetricNames[i]);
        }
    }
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
    names = std::move(found);
    return ProfilerError{};
}

// The symbols are asked for as of CUDA 12.0: CUDA 13 added cuCtxGetDevice_v13000 with another
// signature.
ProfilerError current_context(CUcontext& context, CUdevice& device) {
    using GetContext = PFN_cuCtxGetCurrent_v4000;
    using GetDevice = PFN_cuCtxGetDevice_v2000;
    const kernels::DriverEntryPoint get_context =
        kernels::find_driver_entry_point("cuCtxGetCurrent");
    kernels::DriverEntryPoint get_device;
    if (get_context.status == cudaSuccess && get_context.query == cudaDriverEntryPointSuccess) {
        get_device = kernels::find_driver_entry_point("cuCtxGetDevice");
    }
    const cudaError_t status =
        get_context.status != cudaSuccess ? get_context.status : get_device.status;
    if (status != cudaSuccess) {
        return from_cuda(status, "cudaGetDriverEntryPointByVersion");
    }
    if (!get_context.found() || !get_device.found()) {
        return profiler_error(ProfilerProblem::kFailed,
                              "the NVIDIA driver does not export cuCtxGetCurrent/cuCtxGetDevice; "
                              "update the driver to one that supports CUDA 12 or newer");
    }
    if (reinterpret_cast<GetContext>(get_context.function)(&context) != CUDA_SUCCESS ||
        context == nullptr ||
        reinterpret_cast<GetDevice>(get_device.function)(&device) != CUDA_SUCCESS) {
        return profiler_error(ProfilerProblem::kFailed,
                              "no current CUDA context after cudaFree(0); cannot profile");
    }
    return ProfilerError{};
}

ProfilerError start_cuda(int device) {
    ProfilerError error = injected_cupti_error();
    if (error.ok()) error = from_cuda(cudaSetDevice(device), "cudaSetDevice");
    if (error.ok()) {
        error = from_cuda(cudaFree(nullptr), "cudaFree(0)");  // creates the primary context
    }
    return error;
}

ProfilerError chip_name(int device, std::string& chip) {
    auto params = TCLENS_PARAMS(CUpti_Device_GetChipName_Params);
    params.deviceIndex = static_cast<std::size_t>(device);
    TCLENS_CUPTI(cuptiDeviceGetChipName(&params));
    chip = params.pChipName ? params.pChipName : "";
    return ProfilerError{};
}

}  // namespace tclens::profiling::detail
