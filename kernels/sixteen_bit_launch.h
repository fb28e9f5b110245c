#pragma once
// The launch half of a rung with 16-bit inputs (kernels/sixteen_bit_rung.h is its descriptor
// half): which instantiation of its launch runs d.precision.

#include <cuda_runtime.h>

#include "kernels/gemm.h"

namespace tclens::kernels {

using LaunchFunction = cudaError_t (*)(const GemmOperands& operands, cudaStream_t stream);

// d.launch = launch_f16 for kF16, launch_bf16 for kBF16. Any other precision (the refusing
// descriptor of set_sixteen_bit_inputs): a launch that enqueues nothing and returns
// cudaErrorInvalidValue.
void attach_sixteen_bit_launch(KernelDescriptor& d, LaunchFunction launch_f16,
                               LaunchFunction launch_bf16);

}  // namespace tclens::kernels
