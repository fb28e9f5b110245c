#pragma once
// The kernel registry: every rung of the ladder and the cuBLAS references, in one explicit
// list (no static self-registration a static library could drop).

#include <string>
#include <vector>

#include "kernels/gemm.h"

namespace tclens::kernels {

// Every descriptor, ladder order (rung 1 upwards, f16 before bf16), then the cuBLAS references
// (f32, tf32, f16, bf16). Built once; the reference stays valid for the program's life.
const std::vector<KernelDescriptor>& all_kernels();

// The descriptor with this id, or nullptr.
const KernelDescriptor* find_kernel(const std::string& id);

// What a GPU offers that a kernel may need.
struct DeviceLimits {
    int sm = 0;                  // compute capability, major * 10 + minor
    int smem_per_block_optin = 0;  // bytes of shared memory a block may opt in to
};

// "" when `problem` can be run on a GPU with `limits`, else one line: M, N, K must be >= 1,
// the GPU must have min_sm and the shared memory the kernel asks for, then the kernel's can_run.
std::string why_not_runnable(const KernelDescriptor& kernel, const GemmProblem& problem,
                             const DeviceLimits& limits);

}  // namespace tclens::kernels
