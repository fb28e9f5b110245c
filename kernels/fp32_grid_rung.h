#pragma once
// What the FP32 rungs with one thread per C element and a 2-D grid share in their descriptors
// (01_naive_fma.cpp, 02_smem_tiled.cpp): the size limits and the fields they fill alike. Pure
// C++; their common launch is kernels/fp32_grid_launch.h. Each rung keeps its kernel, its tile
// and its texts.

#include <string>

#include "kernels/gemm.h"

namespace tclens::kernels {

// "" or why `problem` does not fit: M, N and K must be 32-bit ints, and the M / block_rows block
// rows (blockIdx.y) at most 65535. Example: block_rows 8 -> "M must be at most 524280: one block
// row per 8 rows of C, and gridDim.y is at most 65535".
std::string fp32_grid_can_run(const GemmProblem& problem, int block_rows);

// The descriptor fields these rungs fill alike: f32 inputs checked against cublas.sgemm, one
// C element per thread (thread tile 1 x 1, FFMA work, warps of lanes_n lanes along a row), no
// MMA, one stage, no swizzle, tiles in row-major order of the 2-D grid, min_sm 80.
void describe_fp32_grid_rung(KernelDescriptor& d, int lanes_n);

}  // namespace tclens::kernels
