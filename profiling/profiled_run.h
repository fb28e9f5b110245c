#pragma once
// What every profile of one kernel run (KernelProfile, KernelTimeline, SourceProfile) names
// first: the kernel, its precision and size, the GPU, and the verification of the run profiled.

#include <string>

#include "kernels/gemm.h"
#include "kernels/run_result.h"

namespace tclens::profiling {

struct ProfiledRun {
    std::string kernel_id;
    kernels::Precision precision = kernels::Precision::kF32;
    kernels::GemmProblem problem;
    std::string device;  // GPU name
    std::string chip;    // CUPTI chip name, e.g. "GH100"
    kernels::Verification check;
};

}  // namespace tclens::profiling
