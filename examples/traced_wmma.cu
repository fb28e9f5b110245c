// A kernel of yours with trace points: `tclens trace --kernel examples/traced_wmma.cu` draws what
// each of its warps does, and when (docs/your-kernel.md, "Trace your kernel"). Copy the four
// TCLENS_TRACE_* lines into your own kernel: they compile to nothing in the kernel tclens times
// (and benches, profiles ...); only its traced variant, built with -DTCLENS_TRACE, records.
//
// The kernel, a directive kernel (form 2, compiled by NVRTC): bf16 A and B, f32 sums with WMMA
// (16 x 16 x 16). One block of 4 warps per 64 x 64 tile of C, each warp a 32 x 32 quarter (2 x 2
// fragments); K in steps of 32 staged in shared memory. Per K step each warp marks:
//   load  its share of the copies of A's 64 x 32 and B's 32 x 64 tiles into shared memory
//   wait  the __syncthreads after them (the stage's data has landed)
//   mma   the fragment loads and 2 x 2 x 2 mma_sync
//   sync  the __syncthreads before the next step overwrites the tiles
// and once, at the end, `store`: its C quarter through shared memory to global memory.
#include <cuda_bf16.h>
#include <mma.h>

#include "kernels/user_trace.cuh"

// tclens: grid=(cdiv(N,64), cdiv(M,64)) block=128 type=bf16
__global__ void traced_wmma_gemm(int M, int N, int K, const __nv_bfloat16* A,
                                 const __nv_bfloat16* B, float* C) {
    using namespace nvcuda;
    constexpr int kTile = 64;  // C tile of the block, rows and columns
    constexpr int kStep = 32;  // K step
    constexpr int kPad = 8;    // keeps rows 16-byte aligned, shifts their banks
    __shared__ __align__(32) __nv_bfloat16 a_tile[kTile][kStep + kPad];
    __shared__ __align__(32) __nv_bfloat16 b_tile[kStep][kTile + kPad];
    __shared__ __align__(32) float c_stage[4][16][16];
    TCLENS_TRACE_WARP();

    const int warp = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    const int warp_row = warp / 2 * 32;
    const int warp_col = warp % 2 * 32;
    const int block_row = blockIdx.y * kTile;
    const int block_col = blockIdx.x * kTile;
    const __nv_bfloat16 zero = __float2bfloat16(0.0f);

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

    for (int k0 = 0; k0 < K; k0 += kStep) {
        const int step = k0 / kStep;
        TCLENS_TRACE_BEGIN(load);
        for (int e = threadIdx.x; e < kTile * kStep; e += blockDim.x) {
            const int r = e / kStep;
            const int c = e % kStep;
            const int row = block_row + r;
            a_tile[r][c] =
                row < M && k0 + c < K ? A[static_cast<long long>(row) * K + k0 + c] : zero;
        }
        for (int e = threadIdx.x; e < kStep * kTile; e += blockDim.x) {
            const int r = e / kTile;
            const int c = e % kTile;
            const int col = block_col + c;
            b_tile[r][c] =
                k0 + r < K && col < N ? B[static_cast<long long>(k0 + r) * N + col] : zero;
        }
        TCLENS_TRACE_END_TILE(load, step);

        TCLENS_TRACE_BEGIN(wait);
        __syncthreads();
        TCLENS_TRACE_END_TILE(wait, step);

        TCLENS_TRACE_BEGIN(mma);
        for (int kk = 0; kk < kStep; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a[2];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> b[2];
            for (int i = 0; i < 2; ++i)
                wmma::load_matrix_sync(a[i], &a_tile[warp_row + 16 * i][kk], kStep + kPad);
            for (int j = 0; j < 2; ++j)
                wmma::load_matrix_sync(b[j], &b_tile[kk][warp_col + 16 * j], kTile + kPad);
            for (int i = 0; i < 2; ++i)
                for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
        TCLENS_TRACE_END_TILE(mma, step);

        TCLENS_TRACE_BEGIN(sync);
        __syncthreads();
        TCLENS_TRACE_END_TILE(sync, step);
    }

    TCLENS_TRACE_BEGIN(store);
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 2; ++j) {
            wmma::store_matrix_sync(&c_stage[warp][0][0], acc[i][j], 16, wmma::mem_row_major);
            __syncwarp();
            for (int e = lane; e < 16 * 16; e += 32) {
                const int row = block_row + warp_row + 16 * i + e / 16;
                const int col = block_col + warp_col + 16 * j + e % 16;
                if (row < M && col < N)
                    C[static_cast<long long>(row) * N + col] = c_stage[warp][e / 16][e % 16];
            }
            __syncwarp();
        }
    }
    TCLENS_TRACE_END(store);
}
