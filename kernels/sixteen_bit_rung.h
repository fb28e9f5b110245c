#pragma once
// What every rung with 16-bit inputs (04 and 07-11: f16 or bf16, one descriptor each) says per
// precision, in one place: the id suffix, the cuBLAS reference, and which instantiation of its
// launch runs. The rung file keeps only what its idea adds.

#include <cuda_runtime.h>

#include <string>

#include "kernels/gemm.h"

namespace tclens::kernels {

using CanRunFunction = std::string (*)(const GemmProblem& problem);
using LaunchFunction = cudaError_t (*)(const GemmOperands& operands, cudaStream_t stream);

// For kF16 and kBF16: sets d.id = name + ".f16" / ".bf16", d.precision, d.reference_id =
// "cublas.f16" / "cublas.bf16", d.can_run = can_run and d.launch = launch_f16 / launch_bf16, and
// returns true. Any other precision is a bug in the registry list: d.id stays "", d.precision is
// set, d.can_run refuses every problem ("this rung takes f16 or bf16 inputs only") and d.launch
// enqueues nothing and returns cudaErrorInvalidValue; returns false.
// Example: (d, kBF16, "wgmma_tma", ...) -> d.id "wgmma_tma.bf16", reference "cublas.bf16".
bool set_sixteen_bit_inputs(KernelDescriptor& d, Precision precision, const std::string& name,
                            CanRunFunction can_run, LaunchFunction launch_f16,
                            LaunchFunction launch_bf16);

}  // namespace tclens::kernels
