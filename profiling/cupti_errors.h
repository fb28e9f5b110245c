#pragma once
// CUPTI status -> one readable line that says what went wrong and how to fix it
// (one owner per CUPTI API, docs/architecture.md; the errors a user meets, docs/cupti.md).
//
// Pure functions of their arguments: no CUPTI or CUDA call, so they are unit-tested on machines
// without a GPU. The header does not include CUPTI: a status is passed as the int value of a
// CUptiResult.

#include <string>

namespace tclens::profiling {

// What the caller can do about a failure. The CLI maps the "needs a resource" problems to exit
// code 3 (app/exit_codes.h), kInvalidRequest to 2 and kFailed to 1.
enum class ProfilerProblem {
    kNone,
    kNoGpu,           // no CUDA device or driver
    kPermission,      // the driver (or hypervisor) restricts the performance counters
    kBusy,            // another profiler holds the counters (DCGM, Nsight Compute, ...)
    kOtherTool,       // running under a CUDA tool that already subscribed to CUPTI (nsys, ncu)
    kUnsupported,     // this GPU or configuration cannot be profiled (MIG, vGPU, CC, CMP, WSL)
    kBadMetric,       // a metric name is unknown on this chip
    kInvalidRequest,  // the request cannot run on this GPU (e.g. more shared memory than it has)
    kFailed,          // anything else: a CUPTI or CUDA call failed
};

struct ProfilerError {
    ProfilerProblem problem = ProfilerProblem::kNone;
    std::string message;  // one line without a trailing newline; "" when problem is kNone

    bool ok() const { return problem == ProfilerProblem::kNone; }
    // kNoGpu, kPermission, kBusy, kOtherTool or kUnsupported: the user must change the machine
    // or how tclens is run, not the command line.
    bool needs_resource() const;
};

// Builds an error from parts (problem kNone gives an empty message).
ProfilerError profiler_error(ProfilerProblem problem, std::string message);

// The enum name of a CUptiResult value, e.g. 26 -> "CUPTI_ERROR_HARDWARE_BUSY";
// an unknown value v -> "CUPTI status v".
std::string cupti_status_name(int status);

// (status, call) -> the problem and one line: "<call>: <what happened> (<NAME>); <fix>".
// `call` names the CUPTI function that returned `status`; `cupti_text` is what
// cuptiGetResultString says about it, used only for codes without a message of their own.
// CUPTI_SUCCESS (0) -> problem kNone, message "".
// Example: (35, "cuptiRangeProfilerEnable") -> kPermission, "cuptiRangeProfilerEnable: this user
// may not read the GPU performance counters (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES); run as root
// or with CAP_SYS_ADMIN, or load the driver with NVreg_RestrictProfilingToAdminUsers=0 ...".
ProfilerError cupti_error(int status, const std::string& call, const std::string& cupti_text = "");

}  // namespace tclens::profiling
