#pragma once
// The launches of rung 14's FP8 configurations of the persistent kernel (kernels/
// fp8_dispatch_rules.h) other than rung 13 itself (which runs through the registry): rung 13's
// kernel (kernels/persistent_gemm.cuh) on 128 x 192 and 128 x 128 tiles. (Rung 9's kernel with
// e4m3 inputs, the family's other half, launches through kernels/split_k_gemm.cuh.)

#include <cuda_runtime.h>

#include "kernels/dispatch_rules.h"
#include "kernels/gemm.h"

namespace tclens::kernels {

// Enqueues `choice`'s configuration (kFp8Tile192 or kFp8Tile128) on `operands`, whose problem
// rung 13's can_run takes for the configuration's tile or whose strides TMA can take (rung 14's
// padded rows), on `stream`. Returns the launch error (cudaErrorInvalidValue for another
// configuration or a map that cannot be encoded).
cudaError_t fp8_configuration_launch(const DispatchChoice& choice, const GemmOperands& operands,
                                     cudaStream_t stream);

}  // namespace tclens::kernels
