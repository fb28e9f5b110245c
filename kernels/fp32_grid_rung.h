#pragma once
// Host code the FP32 rungs with one thread per C element and a 2-D grid share
// (01_naive_fma.cu, 02_smem_tiled.cu): the size limits, the launch and the descriptor fields
// they fill alike. Each rung file keeps its kernel, its tile and its texts.

#include <cuda_runtime.h>

#include <string>

#include "kernels/gemm.h"

namespace tclens::kernels {

// A kernel (a, b, c, m, n, k) of row-major f32 A (M x K), B (K x N) and C.
using Fp32GemmKernel = void (*)(const float* a, const float* b, float* c, int m, int n, int k);

// "" or why `problem` does not fit: M, N and K must be 32-bit ints, and the M / block_rows block
// rows (blockIdx.y) at most 65535. Example: block_rows 8 -> "M must be at most 524280: one block
// row per 8 rows of C, and gridDim.y is at most 65535".
std::string fp32_grid_can_run(const GemmProblem& problem, int block_rows);

// Enqueues `kernel` on `stream` with blocks of block_cols x block_rows threads (threadIdx.x
// along N), one per block_rows x block_cols tile of C: blockIdx.x along N, blockIdx.y along M.
// Returns the launch's error (cudaGetLastError).
cudaError_t launch_fp32_grid(Fp32GemmKernel kernel, const GemmOperands& operands, int block_cols,
                             int block_rows, cudaStream_t stream);

// The descriptor fields these rungs fill alike: f32 inputs checked against cublas.sgemm, one
// C element per thread (thread tile 1 x 1, FFMA work, warps of lanes_n lanes along a row), no
// MMA, one stage, no swizzle, tiles in row-major order of the 2-D grid, min_sm 80.
void describe_fp32_grid_rung(KernelDescriptor& d, int lanes_n);

}  // namespace tclens::kernels
