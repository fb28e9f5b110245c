#pragma once
// The short-K GEMM's launch (kernels/short_k_gemm.h has its shape and limits; kernels/
// short_k_gemm.cu its kernel).

#include <cuda_runtime.h>

#include "kernels/gemm.h"
#include "kernels/short_k_gemm.h"

namespace tclens::kernels {

// Enqueues C = A * B on `stream` with the short-K GEMM, on the operands as they are (any row
// strides; C written in place). Precondition: short_k_can_run(operands.problem) == "", precision
// kF16 or kBF16 (else cudaErrorInvalidValue). Returns the launch error.
cudaError_t short_k_launch(Precision precision, const GemmOperands& operands, cudaStream_t stream);

}  // namespace tclens::kernels
