// Rung 14's split-K GEMM (kernels/split_k_gemm.h): rung 9's kernel over K ranges (gridDim.y),
// each range's partial tiles in a slice of the workspace, then sum_ranges adds the slices into C
// in range order. For shapes with few C tiles over a long K (432x16x7696: 4 tiles of 128 x 128
// on 132 SMs) the ranges put tiles x ranges CTAs to work instead of a few long K loops.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "kernels/split_k_gemm.cuh"

namespace tclens::kernels {
namespace {

// C[r][col] (rows ldc floats apart) = sum over z = 0 .. ranges - 1 of partials[z slice_floats +
// r ldp + col], in that order; grid-stride, thread -> element i = r cols + col (no division
// where both strides are cols).
__global__ void sum_ranges(const float* __restrict__ partials, std::int64_t slice_floats,
                           std::int64_t ldp, float* __restrict__ c, std::int64_t rows,
                           std::int64_t cols, std::int64_t ldc, int ranges) {
    const std::int64_t count = rows * cols;
    const bool dense = ldp == cols && ldc == cols;
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         i < count; i += stride) {
        const std::int64_t row = dense ? 0 : i / cols;
        const std::int64_t col = dense ? i : i % cols;
        float sum = 0;
        for (int z = 0; z < ranges; ++z) sum += partials[z * slice_floats + row * ldp + col];
        c[row * ldc + col] = sum;
    }
}

}  // namespace

cudaError_t sum_split_ranges(const float* partials, std::int64_t slice_floats, std::int64_t ldp,
                             int ranges, float* c, MatrixShape shape, std::int64_t ldc,
                             cudaStream_t stream) {
    constexpr int kSumThreads = 256;
    const std::int64_t count = shape.rows * shape.cols;
    const std::int64_t blocks =
        std::min<std::int64_t>((count + kSumThreads - 1) / kSumThreads, std::int64_t{65535});
    sum_ranges<<<static_cast<unsigned>(std::max<std::int64_t>(blocks, 1)), kSumThreads, 0,
                 stream>>>(partials, slice_floats, ldp, c, shape.rows, shape.cols, ldc, ranges);
    return cudaGetLastError();
}

std::int64_t split_k_workspace_floats(const GemmProblem& problem, int splits) {
    const int ranges = split_k_ranges(problem.k, splits);
    return ranges == 1 ? 0 : ranges * problem.m * problem.n;
}

cudaError_t split_k_launch(Precision precision, Rung9Tile tile, const GemmOperands& operands,
                           int splits, float* workspace, cudaStream_t stream) {
    const GemmProblem& p = operands.problem;
    const int ranges = split_k_ranges(p.k, splits);
    if (ranges == 1) return wgmma_tma_ranges_launch(precision, tile, operands, KRanges{}, stream);
    GemmOperands into_slices = operands;  // A's and B's strides kept, the slices dense
    into_slices.c = workspace;
    into_slices.ldc = 0;
    const KRanges k_ranges{ranges, static_cast<int>(split_k_depth(p.k, splits) / kSplitKBlockK),
                           p.m * p.n};
    const cudaError_t status =
        wgmma_tma_ranges_launch(precision, tile, into_slices, k_ranges, stream);
    if (status != cudaSuccess) return status;
    return sum_split_ranges(workspace, p.m * p.n, p.n, ranges, operands.c, {p.m, p.n},
                            c_stride(operands), stream);
}

}  // namespace tclens::kernels
