// A deliberately wrong directive kernel, for tclens's GPU test and as a demonstration of the
// guard zones: examples/directive_gemm.cu without the row check on its store. With M = 100 the
// last row of blocks writes rows 100..111, 12 rows past the end of C, into the guard zone that
// tclens puts after every buffer: "wrote outside C: 3072 bytes ... after its end" for N = 64.
//
//   --kernel examples/out_of_bounds.cu (docs/your-kernel.md)
#include <cuda_bf16.h>

// tclens: grid=(cdiv(N,16), cdiv(M,16)) block=(16,16) smem=2176 type=bf16
__global__ void unguarded_store_gemm(int M, int N, int K, const __nv_bfloat16* A,
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
    // DELIBERATE BUG: no `row < M` check, so the last row of blocks writes past C's end when M
    // is not a multiple of 16 (and past the guard zone's first bytes: tclens reports them).
    if (col < N) C[static_cast<long long>(row) * N + col] = sum;
}
