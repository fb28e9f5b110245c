// Rung 2: the idiomatic shared-memory tiled GEMM (GPU puzzle 16's "tiled matmul").
//
// Tiling: a 32 x 32 block computes a 32 x 32 tile of C, one output per thread:
//   (threadIdx.x, threadIdx.y) -> C (row = 32 * blockIdx.y + threadIdx.y,
//                                   col = 32 * blockIdx.x + threadIdx.x)
// K loop, one 32-wide step at a time:
//   1. every thread copies one element of the A tile and one of the B tile to shared memory:
//      a_tile[ty][tx] = A(row, k0 + tx),  b_tile[ty][tx] = B(k0 + ty, col)   (coalesced rows)
//   2. barrier: the tiles are complete;
//   3. 32 multiply-adds from shared memory: sum += a_tile[ty][kk] * b_tile[kk][tx];
//   4. barrier: nobody overwrites a tile another thread still reads.
// Each element brought into shared memory is used by 32 threads, so global traffic drops 32x.
//
// Shared memory: two unpadded 32 x 32 f32 tiles (8 KiB), one buffer each (no pipelining). In
// step 3 a warp (fixed ty) reads one a_tile word (broadcast) and one b_tile row (32 banks):
// no bank conflicts, so no padding.
//
// Edges: loads outside A or B store 0 into the tile (so partial tiles add nothing); threads
// outside C still load and reach every barrier, and only the store is guarded. Any M, N, K.
#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/02_smem_tiled.h"
#include "kernels/fp32_grid_launch.h"
#include "kernels/ladder_launches.h"

namespace tclens::kernels {
namespace {

using namespace smem_tiled;

__global__ void __launch_bounds__(kTile* kTile)
    smem_tiled_gemm(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                    int m, int n, int k) {
    __shared__ float a_tile[kTile][kTile];  // [row of C tile][k]
    __shared__ float b_tile[kTile][kTile];  // [k][col of C tile]
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * kTile + ty;
    const int col = blockIdx.x * kTile + tx;

    float sum = 0.0f;
    for (int k0 = 0; k0 < k; k0 += kTile) {
        const int a_col = k0 + tx;
        const int b_row = k0 + ty;
        a_tile[ty][tx] =
            (row < m && a_col < k) ? a[static_cast<std::int64_t>(row) * k + a_col] : 0.0f;
        b_tile[ty][tx] =
            (b_row < k && col < n) ? b[static_cast<std::int64_t>(b_row) * n + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < kTile; ++kk) {
            sum = fmaf(a_tile[ty][kk], b_tile[kk][tx], sum);
        }
        __syncthreads();
    }
    if (row < m && col < n) {
        c[static_cast<std::int64_t>(row) * n + col] = sum;
    }
}

cudaError_t smem_tiled_launch(const GemmOperands& operands, cudaStream_t stream) {
    return launch_fp32_grid(smem_tiled_gemm, operands, kTile, kTile, stream);
}

}  // namespace

void attach_smem_tiled_launches(KernelDescriptor& d) { d.launch = smem_tiled_launch; }

}  // namespace tclens::kernels
