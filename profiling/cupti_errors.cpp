#include "profiling/cupti_errors.h"

#include <cupti_result.h>

#include <utility>

namespace tclens::profiling {
namespace {

struct KnownStatus {
    CUptiResult status;
    const char* name;
    ProfilerProblem problem;
    const char* what;  // what happened; "" to use CUPTI's own text
    const char* fix;   // "" when there is nothing the user can do
};

constexpr const char* kPermissionFix =
    "run as root or with CAP_SYS_ADMIN, or allow every user: put 'options nvidia "
    "NVreg_RestrictProfilingToAdminUsers=0' in /etc/modprobe.d/nvidia-profiling.conf and reload "
    "the nvidia driver (or reboot); see https://developer.nvidia.com/ERR_NVGPUCTRPERM";

constexpr KnownStatus kKnown[] = {
    {CUPTI_SUCCESS, "CUPTI_SUCCESS", ProfilerProblem::kNone, "", ""},
    {CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES",
     ProfilerProblem::kPermission, "this user may not read the GPU performance counters",
     kPermissionFix},
    {CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES,
     "CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES", ProfilerProblem::kPermission,
     "the hypervisor does not allow profiling on this virtual GPU",
     "ask the hypervisor's administrator to enable profiling for this vGPU, or use a bare-metal "
     "GPU"},
    {CUPTI_ERROR_HARDWARE_BUSY, "CUPTI_ERROR_HARDWARE_BUSY", ProfilerProblem::kBusy,
     "another profiler holds the GPU performance counters",
     "stop it and retry: DCGM profiling ('dcgmi profile --pause', 'dcgmi profile --resume' "
     "afterwards), Nsight Compute, or another tclens --measure / profile run"},
    {CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED,
     "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED", ProfilerProblem::kOtherTool,
     "another CUDA tool already uses CUPTI in this process",
     "run tclens outside Nsight Systems, Nsight Compute and cuda-gdb, and with "
     "CUDA_INJECTION64_PATH unset"},
    {CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED, "CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED",
     ProfilerProblem::kUnsupported, "profiling a MIG instance is not supported",
     "use a GPU with MIG disabled ('nvidia-smi -i N -mig 0' as root when no job uses it)"},
    {CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED, "CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED",
     ProfilerProblem::kUnsupported, "this virtual GPU cannot be profiled",
     "use a bare-metal GPU or a vGPU profile that supports profiling"},
    {CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED,
     "CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED", ProfilerProblem::kUnsupported,
     "the GPU is in confidential computing mode, which forbids profiling",
     "use a GPU with confidential computing off"},
    {CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED, "CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED",
     ProfilerProblem::kUnsupported, "CUPTI does not support crypto-mining processors (CMP)",
     "use a GeForce, RTX or data-center GPU"},
    {CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED, "CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED",
     ProfilerProblem::kUnsupported, "GPUs in SLI mode cannot be profiled", "disable SLI"},
    {CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED, "CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED",
     ProfilerProblem::kUnsupported, "this GPU cannot be profiled under WSL", "run on native Linux"},
    {CUPTI_ERROR_NOT_SUPPORTED, "CUPTI_ERROR_NOT_SUPPORTED", ProfilerProblem::kUnsupported,
     "profiling is not supported on this GPU or configuration",
     "profiling needs compute capability 7.5 or newer, no MIG or MPS, and no vGPU or "
     "confidential computing restrictions"},
    {CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED, "CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED",
     ProfilerProblem::kUnsupported, "the legacy CUPTI event/metric API is not supported here", ""},
    {CUPTI_ERROR_INVALID_CHIP_NAME, "CUPTI_ERROR_INVALID_CHIP_NAME", ProfilerProblem::kUnsupported,
     "this CUPTI does not know the GPU's chip", "use a CUDA toolkit at least as new as the GPU"},
    {CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED, "CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED",
     ProfilerProblem::kOtherTool,
     "the legacy CUPTI event/metric API is already active in this process",
     "do not mix tclens profiling with code that uses cupti_events.h or cupti_metrics.h"},
    {CUPTI_ERROR_INVALID_METRIC_NAME, "CUPTI_ERROR_INVALID_METRIC_NAME",
     ProfilerProblem::kBadMetric, "a metric name is not known on this chip", ""},
    {CUPTI_ERROR_INVALID_PARAMETER, "CUPTI_ERROR_INVALID_PARAMETER", ProfilerProblem::kFailed, "",
     ""},
    {CUPTI_ERROR_INVALID_DEVICE, "CUPTI_ERROR_INVALID_DEVICE", ProfilerProblem::kFailed, "", ""},
    {CUPTI_ERROR_INVALID_CONTEXT, "CUPTI_ERROR_INVALID_CONTEXT", ProfilerProblem::kFailed, "", ""},
    {CUPTI_ERROR_INVALID_OPERATION, "CUPTI_ERROR_INVALID_OPERATION", ProfilerProblem::kFailed, "",
     ""},
    {CUPTI_ERROR_OUT_OF_MEMORY, "CUPTI_ERROR_OUT_OF_MEMORY", ProfilerProblem::kFailed, "", ""},
    {CUPTI_ERROR_HARDWARE, "CUPTI_ERROR_HARDWARE", ProfilerProblem::kFailed, "", ""},
    {CUPTI_ERROR_NOT_COMPATIBLE, "CUPTI_ERROR_NOT_COMPATIBLE", ProfilerProblem::kFailed, "",
     "check that the NVIDIA driver is at least as new as the CUDA toolkit"},
    {CUPTI_ERROR_NOT_INITIALIZED, "CUPTI_ERROR_NOT_INITIALIZED", ProfilerProblem::kFailed, "", ""},
    {CUPTI_ERROR_NOT_READY, "CUPTI_ERROR_NOT_READY", ProfilerProblem::kFailed, "", ""},
    {CUPTI_ERROR_MAX_LIMIT_REACHED, "CUPTI_ERROR_MAX_LIMIT_REACHED", ProfilerProblem::kFailed, "",
     ""},
    {CUPTI_ERROR_DISABLED, "CUPTI_ERROR_DISABLED", ProfilerProblem::kFailed, "", ""},
    {CUPTI_ERROR_UNKNOWN, "CUPTI_ERROR_UNKNOWN", ProfilerProblem::kFailed, "", ""},
};

const KnownStatus* find_status(int status) {
    for (const KnownStatus& known : kKnown) {
        if (static_cast<int>(known.status) == status) {
            return &known;
        }
    }
    return nullptr;
}

}  // namespace

std::string cupti_status_name(int status) {
    const KnownStatus* known = find_status(status);
    return known ? known->name : "CUPTI status " + std::to_string(status);
}

ProfilerError cupti_error(int status, const std::string& call, const std::string& cupti_text) {
    if (status == CUPTI_SUCCESS) {
        return ProfilerError{};
    }
    const KnownStatus* known = find_status(status);
    const ProfilerProblem problem = known ? known->problem : ProfilerProblem::kFailed;
    std::string what = known ? known->what : "";
    if (what.empty()) {
        what = cupti_text.empty() ? "failed" : "failed: " + trimmed_line(cupti_text);
    }
    std::string line = call + ": " + what + " (" + cupti_status_name(status) + ")";
    if (known && *known->fix != '\0') {
        line += std::string("; ") + known->fix;
    }
    return profiler_error(problem, line);
}

}  // namespace tclens::profiling
