#pragma once
// What went wrong in a profiler, for the caller to act on: the problem and one line that says
// what happened and how to fix it. The result types of every profile carry one; the GPU side
// words it (cupti_errors.h for CUPTI's statuses), a client reads it from the worker's JSON.
// Plain C++ (tclens_profiling_model).

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

// `text` as one line (common::one_line) without a trailing period, newline or space: CUPTI's
// texts and the like may end in them. "not supported.\n" -> "not supported".
std::string trimmed_line(std::string text);

}  // namespace tclens::profiling
