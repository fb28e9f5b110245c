#pragma once
// The split-K GEMM of rung 14 (kernels/split_k_gemm.h has its shape and the arithmetic of its
// K ranges; kernels/split_k_gemm.cu its launch and the sum of the ranges; rung 9's file the
// kernel).

#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/gemm.h"
#include "kernels/pad_copy.cuh"
#include "kernels/split_k_gemm.h"

namespace tclens::kernels {

// Floats of workspace split_k_launch needs for `problem` cut into `splits` ranges of
// `precision`'s K tiles (split_k_block_k): 0 for one range (it writes C directly), else ranges x
// M x N.
std::int64_t split_k_workspace_floats(const GemmProblem& problem, int splits, Precision precision);

// Enqueues C = A * B on `stream` in `tile`, K cut into split_k_ranges(K, splits,
// split_k_block_k(precision)) ranges: the range GEMM into `workspace` (split_k_workspace_floats
// of it, unused for one range), then the in-order sum of the ranges into C. Precondition:
// split_k_can_run(operands.problem, tile, precision) == "", precision kF16, kBF16 or kE4M3.
// Returns the launch error.
cudaError_t split_k_launch(Precision precision, Rung9Tile tile, const GemmOperands& operands,
                           int splits, float* workspace, cudaStream_t stream);

// Enqueues rung 9's kernel (kernels/09_wgmma_tma.cu) in `tile` over `ranges` (K tiles of
// split_k_block_k(precision)) on `stream`: precision kF16, kBF16 or kE4M3 (else
// cudaErrorInvalidValue), operands as rung 9 takes them (strided ones included).
cudaError_t wgmma_tma_ranges_launch(Precision precision, Rung9Tile tile,
                                    const GemmOperands& operands, const KRanges& ranges,
                                    cudaStream_t stream);

// Enqueues C[r][col] = the sum over ranges z = 0, 1, ... (in that order) of partials[z
// slice_floats + r ldp + col] for every element of the shape.rows x shape.cols C (rows ldc
// floats apart), on `stream`: the second kernel of the split-K GEMM. Returns the launch error.
cudaError_t sum_split_ranges(const float* partials, std::int64_t slice_floats, std::int64_t ldp,
                             int ranges, float* c, MatrixShape shape, std::int64_t ldc,
                             cudaStream_t stream);

}  // namespace tclens::kernels
