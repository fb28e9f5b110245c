// Form (2), a bare __global__ kernel with a launch directive: tclens compiles this file with
// NVRTC in-process (no nvcc), launches the kernel with the geometry of the directive below and
// verifies and times it like a ladder rung.
//
//   --kernel examples/directive_gemm.cu (bench, profile, record, kernels; docs/your-kernel.md)
//
// The kernel: bf16 A and B, f32 sums; one 16 x 16 block per 16 x 16 tile of C, each thread one
// element; K steps of 16 staged in dynamic shared memory (two 16 x 17 float tiles = 2176 bytes).
#include <cuda_bf16.h>

// tclens: grid=(cdiv(N,16), cdiv(M,16)) block=(16,16) smem=2176 type=bf16
__global__ void tiled_bf16_gemm(int M, int N, int K, const __nv_bfloat16* A, const __nv_bfloat16* B,
                                float* C) {
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
    if (row < M && col < N) C[static_cast<long long>(row) * N + col] = sum;
}
