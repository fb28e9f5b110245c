#pragma once
// The launches of rung 14's FP8 configurations (kernels/fp8_dispatch_rules.h) other than rung
// 13 itself (which runs through the registry): rung 13's persistent kernel
// (kernels/persistent_gemm.cuh) on 128 x 192 and 128 x 128 tiles, and the latter with K cut
// into ranges.

#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/dispatch_rules.h"
#include "kernels/gemm.h"

namespace tclens::kernels {

// Floats of workspace fp8_configuration_launch needs for `choice` on `problem`: for kFp8SplitK
// one f32 partial C per K range, each of M rounded up to whole 128-row tiles x N rounded up to
// a multiple of 4; else 0.
std::int64_t fp8_workspace_floats(const DispatchChoice& choice, const GemmProblem& problem);

// Enqueues `choice`'s configuration (kFp8Tile192, kFp8Tile128 or kFp8SplitK) on `operands`,
// whose problem rung 13's can_run takes for the configuration's tile or whose strides TMA can
// take (rung 14's padded rows), on `stream`.
// kFp8SplitK: choice.splits K ranges of fp8_split_depth each, K tile by K tile as the kernel
// loads them (blockIdx.y), their partial C in `workspace` (fp8_workspace_floats of it), then
// their in-order sum into C (sum_split_ranges). Returns the first error (cudaErrorInvalidValue
// for another configuration or a map that cannot be encoded).
cudaError_t fp8_configuration_launch(const DispatchChoice& choice, const GemmOperands& operands,
                                     float* workspace, cudaStream_t stream);

}  // namespace tclens::kernels
