// Rung 3: register-tiled FP32 GEMM. Each thread computes an 8 x 8 block of C from operands
// held in registers, so one shared-memory read feeds 8 multiply-adds instead of 1.
//
// Tiling (C tile m x n):
//   block  128 x 128, K step 8, 256 threads = 8 warps arranged 4 (M) x 2 (N)
//   warp    32 x 64:  lanes arranged 4 (M) x 8 (N), each lane 2 x 2 sub-tiles of 4 x 4
//   thread   8 x 8:   acc[4 i + r][4 j + c] -> C tile (row = warp_m + 16 i + 4 lane_m + r,
//                                                      col = warp_n + 32 j + 4 lane_n + c)
//     with warp_m = 32 (warp / 2), warp_n = 64 (warp % 2), lane_m = lane / 8, lane_n = lane % 8,
//     i, j in 0..1, r, c in 0..3. Example: warp 3, lane 9, acc[5][6] -> row 32+16+4+1 = 53,
//     col 64+32+4+2 = 102.
//
// Shared memory: two stages of  a_t[8][128 + 4] (A transposed: [k][m])  and  b[8][128 + 4]
// ([k][n]), 16.5 KiB. Per k a lane reads two float4 of a_t and two of b. A warp's four lane_m
// rows read 4 consecutive float4 of a_t (64 bytes) and its eight lane_n columns 8 consecutive
// float4 of b (128 bytes): one wavefront each, no bank conflict. The 4-float pad ("pad:16")
// is for the transposing stores: thread t writes A(row t / 2, k (t % 2) * 4 + j) to
// a_t[4 (t % 2) + j][t / 2], and a row stride of 132 words puts the two k halves of a warp in
// opposite 16-bank halves. b gets the same pad so that both tiles share one layout.
//
// Global -> shared, per K step: thread t loads one float4 of A (row t / 2, k (t % 2) * 4) and
// one float4 of B (k t / 32, col (t % 32) * 4); B's warp reads 512 contiguous bytes.
//
// Pipeline (2 stages, one barrier per K step): while the block computes on stage s, each thread
// holds the next step's A and B float4 in registers (loaded before the math, so the global
// latency hides behind 512 FMAs) and stores them into stage s ^ 1 after the math. The barrier
// after that store both publishes stage s ^ 1 and retires stage s, which the next step's store
// overwrites.
//
// Edges: a block entirely inside C with K % 8 == 0, N % 4 == 0 and 16-byte aligned pointers
// runs the unpredicated path (float4 loads and stores, no bounds checks). Every other block
// runs the same code with kEdge = true: element-wise loads that read 0 outside A and B and
// element-wise guarded stores, which needs no alignment. Any M, N, K works.
#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/03_register_tiled.h"
#include "kernels/cuda_util.h"
#include "kernels/ladder_launches.h"

namespace tclens::kernels {
namespace {

using namespace register_tiled;

struct __align__(16) SharedTiles {
    float a_t[kStages][kBlockK][kBlockM + kPad];  // A transposed: [k][m]
    float b[kStages][kBlockK][kBlockN + kPad];    // [k][n]
};

// matrix(row, col .. col + 3) of a row-major rows x cols matrix (leading dimension cols).
// kEdge = false: one float4 load; the caller guarantees the four are inside and 16-byte aligned.
// kEdge = true: four loads, each reading 0 outside the matrix.
template <bool kEdge>
__device__ __forceinline__ float4 load_row4(const float* __restrict__ matrix, int rows, int cols,
                                            int row, int col) {
    if constexpr (!kEdge) {
        return *reinterpret_cast<const float4*>(matrix + static_cast<std::int64_t>(row) * cols +
                                                col);
    } else {
        float v[4];
#pragma unroll
        for (int j = 0; j < 4; ++j) {
            v[j] = (row < rows && col + j < cols)
                       ? matrix[static_cast<std::int64_t>(row) * cols + col + j]
                       : 0.0f;
        }
        return make_float4(v[0], v[1], v[2], v[3]);
    }
}

// C(row, col .. col + 3) = v; kEdge = true stores only the elements inside C.
template <bool kEdge>
__device__ __forceinline__ void store_row4(float* __restrict__ c, int m, int n, int row, int col,
                                           const float (&v)[kSub]) {
    if constexpr (!kEdge) {
        *reinterpret_cast<float4*>(c + static_cast<std::int64_t>(row) * n + col) =
            make_float4(v[0], v[1], v[2], v[3]);
    } else {
#pragma unroll
        for (int j = 0; j < kSub; ++j) {
            if (row < m && col + j < n) {
                c[static_cast<std::int64_t>(row) * n + col + j] = v[j];
            }
        }
    }
}

// The whole K loop and epilogue of the block whose C tile starts at (block_row, block_col).
template <bool kEdge>
__device__ __forceinline__ void block_gemm(const float* __restrict__ a, const float* __restrict__ b,
                                           float* __restrict__ c, int m, int n, int k,
                                           int block_row, int block_col, SharedTiles& smem) {
    const int tid = threadIdx.x;
    // Global -> shared mapping (see the header): A row, k offset; B k offset, column.
    const int load_a_row = tid / 2;
    const int load_a_k = (tid % 2) * 4;
    const int load_b_k = tid / 32;
    const int load_b_col = (tid % 32) * 4;
    // Compute mapping: first row / column of the thread's first sub-tile in the block tile.
    const int warp = tid / 32;
    const int lane = tid % 32;
    const int thread_m = (warp / kWarpsN) * kWarpM + (lane / kLanesN) * kSub;
    const int thread_n = (warp % kWarpsN) * kWarpN + (lane % kLanesN) * kSub;

    const auto load_a = [&](int k0) {
        return load_row4<kEdge>(a, m, k, block_row + load_a_row, k0 + load_a_k);
    };
    const auto load_b = [&](int k0) {
        return load_row4<kEdge>(b, k, n, k0 + load_b_k, block_col + load_b_col);
    };
    const auto store_stage = [&](int stage, float4 a4, float4 b4) {
        smem.a_t[stage][load_a_k + 0][load_a_row] = a4.x;
        smem.a_t[stage][load_a_k + 1][load_a_row] = a4.y;
        smem.a_t[stage][load_a_k + 2][load_a_row] = a4.z;
        smem.a_t[stage][load_a_k + 3][load_a_row] = a4.w;
        *reinterpret_cast<float4*>(&smem.b[stage][load_b_k][load_b_col]) = b4;
    };

    float acc[kThreadM][kThreadN] = {};
    const int k_steps = (k + kBlockK - 1) / kBlockK;

    store_stage(0, load_a(0), load_b(0));
    __syncthreads();

    for (int step = 0; step < k_steps; ++step) {
        const int stage = step % kStages;
        const bool more = step + 1 < k_steps;  // uniform across the block
        float4 next_a{};
        float4 next_b{};
        if (more) {
            next_a = load_a((step + 1) * kBlockK);
            next_b = load_b((step + 1) * kBlockK);
        }

#pragma unroll
        for (int kk = 0; kk < kBlockK; ++kk) {
            const float* a_row = smem.a_t[stage][kk];
            const float* b_row = smem.b[stage][kk];
            const float4 a0 = *reinterpret_cast<const float4*>(a_row + thread_m);
            const float4 a1 = *reinterpret_cast<const float4*>(a_row + thread_m + kSubStrideM);
            const float4 b0 = *reinterpret_cast<const float4*>(b_row + thread_n);
            const float4 b1 = *reinterpret_cast<const float4*>(b_row + thread_n + kSubStrideN);
            const float a_frag[kThreadM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float b_frag[kThreadN] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < kThreadM; ++i) {
#pragma unroll
                for (int j = 0; j < kThreadN; ++j) {
                    acc[i][j] = fmaf(a_frag[i], b_frag[j], acc[i][j]);
                }
            }
        }

        if (more) {
            store_stage(stage ^ 1, next_a, next_b);
            __syncthreads();
        }
    }

#pragma unroll
    for (int i = 0; i < kThreadM; ++i) {
        const int row = block_row + thread_m + (i / kSub) * kSubStrideM + i % kSub;
#pragma unroll
        for (int j = 0; j < kThreadN / kSub; ++j) {
            const int col = block_col + thread_n + j * kSubStrideN;
            const float v[kSub] = {acc[i][kSub * j], acc[i][kSub * j + 1], acc[i][kSub * j + 2],
                                   acc[i][kSub * j + 3]};
            store_row4<kEdge>(c, m, n, row, col, v);
        }
    }
}

// vector_ok: K % 8 == 0, N % 4 == 0 and A, B, C 16-byte aligned (checked by the launch).
__global__ void __launch_bounds__(kThreads, 2)
    register_tiled_gemm(const float* __restrict__ a, const float* __restrict__ b,
                        float* __restrict__ c, int m, int n, int k, bool vector_ok) {
    __shared__ SharedTiles smem;
    const int block_row = blockIdx.y * kBlockM;
    const int block_col = blockIdx.x * kBlockN;
    const bool interior = vector_ok && block_row + kBlockM <= m && block_col + kBlockN <= n;
    if (interior) {
        block_gemm<false>(a, b, c, m, n, k, block_row, block_col, smem);
    } else {
        block_gemm<true>(a, b, c, m, n, k, block_row, block_col, smem);
    }
}

cudaError_t register_tiled_launch(const GemmOperands& operands, cudaStream_t stream) {
    const GemmProblem& p = operands.problem;
    const bool vector_ok = p.k % kBlockK == 0 && p.n % 4 == 0 && aligned16(operands.a) &&
                           aligned16(operands.b) && aligned16(operands.c);
    const dim3 grid(static_cast<unsigned>((p.n + kBlockN - 1) / kBlockN),
                    static_cast<unsigned>((p.m + kBlockM - 1) / kBlockM));
    register_tiled_gemm<<<grid, kThreads, 0, stream>>>(
        static_cast<const float*>(operands.a), static_cast<const float*>(operands.b), operands.c,
        static_cast<int>(p.m), static_cast<int>(p.n), static_cast<int>(p.k), vector_ok);
    return cudaGetLastError();
}

}  // namespace

void attach_register_tiled_launches(KernelDescriptor& d) { d.launch = register_tiled_launch; }

}  // namespace tclens::kernels
