#pragma once
// The launch the FP32 rungs with one thread per C element and a 2-D grid share (01_naive_fma.cu,
// 02_smem_tiled.cu); their descriptors' common fields are kernels/fp32_grid_rung.h.

#include <cuda_runtime.h>

#include "kernels/gemm.h"

namespace tclens::kernels {

// A kernel (a, b, c, m, n, k) of row-major f32 A (M x K), B (K x N) and C.
using Fp32GemmKernel = void (*)(const float* a, const float* b, float* c, int m, int n, int k);

// Enqueues `kernel` on `stream` with blocks of block_cols x block_rows threads (threadIdx.x
// along N), one per block_rows x block_cols tile of C: blockIdx.x along N, blockIdx.y along M.
// Returns the launch's error (cudaGetLastError).
cudaError_t launch_fp32_grid(Fp32GemmKernel kernel, const GemmOperands& operands, int block_cols,
                             int block_rows, cudaStream_t stream);

}  // namespace tclens::kernels
