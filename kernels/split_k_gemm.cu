// Rung 14's split-K GEMM (kernels/split_k_gemm.h): rung 9's kernel over K ranges (gridDim.y),
// each range's partial tiles in a slice of the workspace, then sum_ranges adds the slices into C
// in range order. For shapes with few C tiles over a long K (432x16x7696: 4 tiles of 128 x 128
// on 132 SMs) the ranges put tiles x ranges CTAs to work instead of a few long K loops.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "kernels/cuda_util.h"
#include "kernels/split_k_gemm.cuh"

namespace tclens::kernels {
namespace {

__device__ float add(float a, float b) { return a + b; }
__device__ float4 add(float4 a, float4 b) { return {a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w}; }

// C[r][col] (rows ldc elements apart) = sum over z = 0 .. ranges - 1 of partials[z slice + r ldp +
// col], in that order, Element (float, or float4 where every stride and both pointers allow) at a
// time; grid-stride, thread -> element i = r cols + col (no division where both strides are
// cols). Launched as the split GEMM's programmatic dependent (sum_split_ranges): it may start
// while that grid's last CTAs run, and waits for its partials before reading them.
template <typename Element>
__global__ void sum_ranges(const Element* __restrict__ partials, std::int64_t slice,
                           std::int64_t ldp, Element* __restrict__ c, std::int64_t rows,
                           std::int64_t cols, std::int64_t ldc, int ranges) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cudaGridDependencySynchronize();
#endif
    const std::int64_t count = rows * cols;
    const bool dense = ldp == cols && ldc == cols;
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         i < count; i += stride) {
        const std::int64_t row = dense ? 0 : i / cols;
        const std::int64_t col = dense ? i : i % cols;
        const Element* slice_z = partials + row * ldp + col;
        Element sum = *slice_z;
#pragma unroll 4
        for (int z = 1; z < ranges; ++z) sum = add(sum, slice_z[z * slice]);
        c[row * ldc + col] = sum;
    }
}

// Enqueues sum_ranges<Element> over the rows x cols elements on `stream` as the programmatic
// dependent of the kernel before it (the split GEMM).
template <typename Element>
cudaError_t launch_sum(const Element* partials, std::int64_t slice, std::int64_t ldp, Element* c,
                       std::int64_t rows, std::int64_t cols, std::int64_t ldc, int ranges,
                       cudaStream_t stream) {
    constexpr int kSumThreads = 256;
    const std::int64_t count = rows * cols;
    const std::int64_t blocks =
        std::min<std::int64_t>((count + kSumThreads - 1) / kSumThreads, std::int64_t{65535});
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(static_cast<unsigned>(std::max<std::int64_t>(blocks, 1)));
    config.blockDim = dim3(kSumThreads);
    config.stream = stream;
    cudaLaunchAttribute dependent = {};
    dependent.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    dependent.val.programmaticStreamSerializationAllowed = 1;
    config.attrs = &dependent;
    config.numAttrs = 1;
    return cudaLaunchKernelEx(&config, sum_ranges<Element>, partials, slice, ldp, c, rows, cols,
                              ldc, ranges);
}

}  // namespace

cudaError_t sum_split_ranges(const float* partials, std::int64_t slice_floats, std::int64_t ldp,
                             int ranges, float* c, MatrixShape shape, std::int64_t ldc,
                             cudaStream_t stream) {
    const bool by_four = slice_floats % 4 == 0 && ldp % 4 == 0 && ldc % 4 == 0 &&
                         shape.cols % 4 == 0 && aligned16(partials) && aligned16(c);
    if (by_four) {
        return launch_sum(reinterpret_cast<const float4*>(partials), slice_floats / 4, ldp / 4,
                          reinterpret_cast<float4*>(c), shape.rows, shape.cols / 4, ldc / 4, ranges,
                          stream);
    }
    return launch_sum(partials, slice_floats, ldp, c, shape.rows, shape.cols, ldc, ranges, stream);
}

std::int64_t split_k_workspace_floats(const GemmProblem& problem, int splits, Precision precision) {
    const int ranges = split_k_ranges(problem.k, splits, split_k_block_k(precision));
    return ranges == 1 ? 0 : ranges * problem.m * problem.n;
}

cudaError_t split_k_launch(Precision precision, Rung9Tile tile, const GemmOperands& operands,
                           int splits, float* workspace, cudaStream_t stream) {
    const GemmProblem& p = operands.problem;
    const int block_k = split_k_block_k(precision);
    const int ranges = split_k_ranges(p.k, splits, block_k);
    if (ranges == 1) return wgmma_tma_ranges_launch(precision, tile, operands, KRanges{}, stream);
    GemmOperands into_slices = operands;  // A's and B's strides kept, the slices dense
    into_slices.c = workspace;
    into_slices.ldc = 0;
    const KRanges k_ranges{ranges, static_cast<int>(split_k_depth(p.k, splits, block_k) / block_k),
                           p.m * p.n};
    const cudaError_t status =
        wgmma_tma_ranges_launch(precision, tile, into_slices, k_ranges, stream);
    if (status != cudaSuccess) return status;
    return sum_split_ranges(workspace, p.m * p.n, p.n, ranges, operands.c, {p.m, p.n},
                            c_stride(operands), stream);
}

}  // namespace tclens::kernels
