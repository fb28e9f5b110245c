// Rung 1: the naive FP32 GEMM. One thread per element of C, one multiply-add per step of K.
//
// Mapping: a 32 x 8 block covers an 8 x 32 tile of C; warp w of the block is row w of the tile.
//   (threadIdx.x, threadIdx.y) -> C (row = 8 * blockIdx.y + threadIdx.y,
//                                   col = 32 * blockIdx.x + threadIdx.x)
// Each step k of the loop, a warp reads one A element (the same address in all 32 lanes: a
// broadcast) and 32 consecutive B elements (one coalesced 128-byte row piece). Nothing is
// staged: every A and B element is fetched from L1/L2/DRAM once per output that uses it.
//
// Edges: threads outside C return before the loop; any M, N, K works.
#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/01_naive_fma.h"
#include "kernels/fp32_grid_launch.h"
#include "kernels/ladder_launches.h"

namespace tclens::kernels {
namespace {

using namespace naive_fma;

__global__ void __launch_bounds__(kBlockCols* kBlockRows)
    naive_fma_gemm(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                   int m, int n, int k) {
    const int row = blockIdx.y * kBlockRows + threadIdx.y;
    const int col = blockIdx.x * kBlockCols + threadIdx.x;
    if (row >= m || col >= n) {
        return;
    }
    const float* a_row = a + static_cast<std::int64_t>(row) * k;
    const float* b_col = b + col;
    float sum = 0.0f;
    for (int step = 0; step < k; ++step) {
        sum = fmaf(a_row[step], b_col[static_cast<std::int64_t>(step) * n], sum);
    }
    c[static_cast<std::int64_t>(row) * n + col] = sum;
}

cudaError_t naive_fma_launch(const GemmOperands& operands, cudaStream_t stream) {
    return launch_fp32_grid(naive_fma_gemm, operands, kBlockCols, kBlockRows, stream);
}

}  // namespace

void attach_naive_fma_launches(KernelDescriptor& d) { d.launch = naive_fma_launch; }

}  // namespace tclens::kernels
