// A deliberately wrong directive kernel, for tclens's GPU test and as a demonstration of the
// error map: examples/directive_gemm.cu with the block offset of the store swapped. On a square
// C whose side is a multiple of 16 every element is written, but only the diagonal 16 x 16
// tiles are right: the error map shows whole tiles wrong around a clean diagonal.
//
//   --kernel examples/wrong_block_offset.cu (docs/your-kernel.md)
#include <cuda_bf16.h>

// tclens: grid=(cdiv(N,16), cdiv(M,16)) block=(16,16) smem=2176 type=bf16
__global__ void swapped_blocks_gemm(int M, int N, int K, const __nv_bfloat16* A,
                                    const __nv_bfloat16* B, float* C) {
    extern __shared__ float tiles[];
    float(*a_tile)[17] = reinterpret_cast<float(*)[17]>(tiles);
    float(*b_tile)[17] = reinterpret_cast<float(*)[17]>(tiles + 16 * 17);
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * 16 + ty;
    const int col = blockIdx.x * 16 + tx;
    float sum = 0.0f;
    for (int k0 = 0; k0 < K; k0 += 16) {
        a_tile[ty][tx] = (row < M && k0 + tx < K)
                             ? __bfloat162float(A[static_cast<long long>(row) * K + k0 + tx])
                             : 0.0f;
        b_tile[ty][tx] = (k0 + ty < K && col < N)
                             ? __bfloat162float(B[static_cast<long long>(k0 + ty) * N + col])
                             : 0.0f;
        __syncthreads();
        for (int kk = 0; kk < 16; ++kk) sum += a_tile[ty][kk] * b_tile[kk][tx];
        __syncthreads();
    }
    // DELIBERATE BUG: the block indices are swapped when storing, so block (x, y) writes its
    // tile where block (y, x) belongs; only the diagonal tiles land in place.
    const int out_row = blockIdx.x * 16 + ty;
    const int out_col = blockIdx.y * 16 + tx;
    if (out_row < M && out_col < N) C[static_cast<long long>(out_row) * N + out_col] = sum;
}
