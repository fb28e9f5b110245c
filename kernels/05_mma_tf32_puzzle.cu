// Rung 5: tensor cores (mma.sync m16n8k8, TF32) dropped into the shared-memory tiled kernel
// exactly as Mojo GPU puzzle 33 writes it (puzzles.modular.com, "Tensor Cores"): the
// "specialised hardware is not automatically faster" rung. Deliberately not optimised past the
// puzzle's structure; rung 6 is the tuned version of the same instruction.
//
// What it adds: the multiply-adds move from the FMA pipe to the tensor cores. A warp issues
// mma.sync.m16n8k8.row.col.f32.tf32.tf32.f32 on fragments it reads from shared memory with
// scalar loads in the instruction's own layout (PTX ISA, `tclens layout mma.m16n8k8.tf32`),
// g = lane / 4, t = lane % 4:
//   A (16 x 8):  (lane, a0..a3) -> (g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4)
//   B (8 x 8):   (lane, b0, b1) -> (k = t, n = g), (k = t + 4, n = g)
//   C (16 x 8):  (lane, c0..c3) -> (g, 2t), (g, 2t + 1), (g + 8, 2t), (g + 8, 2t + 1)
// A and B are stored as f32 and rounded to TF32 (cvt.rna, ptx::to_tf32) as each fragment
// element is loaded; accumulation is f32.
//
// Tiling (the puzzle's configuration): a block of 256 threads (8 warps, 4 along M x 2 along
// N) computes a 128 x 64 tile of C, 32 values of K per step. A warp computes 32 x 32 of C =
// 2 x 4 MMA tiles of 16 x 8 (32 f32 accumulators per thread); per K step it runs 4 (mma_k)
// x 2 (mma_m) x 4 (mma_n) = 32 mma.sync.
//   warp w -> C rows 32 * (w / 2) .. +31, cols 32 * (w % 2) .. +31 of the block tile.
//
// Shared memory (static, 24 KiB, one buffer each, no padding: swizzle "none"):
//   a_tile 128 rows (m) x 32 f32 (k), 128 B per row; b_tile 32 rows (k) x 64 f32 (n), 256 B.
// The fragment loads conflict as the puzzle's do: the 8 g-rows of an A load sit 128 B apart,
// all in the bank of column t (8-way); the 4 t-rows of a B load sit 256 B apart (4-way).
//
// Copy: copy_dram_to_sram_async with thread layout row_major(4, 8) on tiles vectorised 1 x 4,
// num_threads = 256. That layout has 32 threads and Mojo's copy returns early for the others,
// so warp 0 alone issues the 16-byte cp.async copies: thread (r, c) = (tid / 8, tid % 8) copies
// the 4-float chunks (4i + r, c) of A (i < 32) and (4i + r, c + 8j) of B (i < 8, j < 2), in
// 4 x 8-chunk strides. Then wait for all copies (async_copy_wait_all), barrier, compute, and the
// barrier at the top of the next step guards the buffers before they are overwritten.
//
// Edges (the puzzle assumes SIZE % tile == 0; this version does not): K steps run to
// ceil(K / 32); a 16-byte chunk outside A or B is zero-filled (cp.async src_bytes = 0), so
// partial tiles add zeros. That needs 16-byte aligned rows with each chunk wholly inside or
// outside: K % 4 == 0 and N % 4 == 0 (can_run). C is written per float2 (c0, c1) and (c2, c3),
// guarded by row < M and col < N (col is even and N % 4 == 0, so col + 1 < N too).
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "kernels/05_mma_tf32_puzzle.h"
#include "kernels/ladder_launches.h"
#include "kernels/ptx.cuh"

namespace tclens::kernels {
namespace {

using namespace tf32_puzzle;

// One block computes C rows [128 * blockIdx.y, +128), cols [64 * blockIdx.x, +64).
// Preconditions: K % 4 == 0, N % 4 == 0, pointers 16-byte aligned (cudaMalloc gives 256).
__global__ void __launch_bounds__(kThreads)
    mma_tf32_puzzle(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                    int m, int n, int k) {
    __shared__ __align__(16) float a_tile[kBlockM][kBlockK];
    __shared__ __align__(16) float b_tile[kBlockK][kBlockN];

    const int tid = static_cast<int>(threadIdx.x);
    const int warp = tid / 32;
    const int lane = tid % 32;
    const int g = lane / 4;
    const int t = lane % 4;
    const int block_row = static_cast<int>(blockIdx.y) * kBlockM;
    const int block_col = static_cast<int>(blockIdx.x) * kBlockN;
    const int warp_row = warp / kWarpsN * kWarpM;  // in the block tile
    const int warp_col = warp % kWarpsN * kWarpN;

    // C_warp_accum: (mma_m, mma_n, reg) -> the C layout above, offset by (16 mma_m, 8 mma_n).
    float acc[kTilesM][kTilesN][4] = {};

    for (int k0 = 0; k0 < k; k0 += kBlockK) {
        __syncthreads();
        if (tid < kCopyThreads) {
            const int copy_row = tid / kCopyCols;
            const int copy_col = tid % kCopyCols * kChunk;
            const bool a_col_inside = k0 + copy_col < k;
            // Unrolled by 8, not 32: full unrolling keeps 32 source addresses live (114
            // registers instead of 64).
#pragma unroll 8
            for (int i = 0; i < kACopiesDown; ++i) {
                const int row = i * kCopyRows + copy_row;
                const bool inside = a_col_inside && block_row + row < m;
                const float* src =
                    inside ? a + (static_cast<std::int64_t>(block_row + row) * k + k0 + copy_col)
                           : a;
                ptx::cp_async_16(&a_tile[row][copy_col], src, inside ? 16 : 0);
            }
#pragma unroll
            for (int i = 0; i < kBCopiesDown; ++i) {
#pragma unroll
                for (int j = 0; j < kBCopiesAcross; ++j) {
                    const int row = i * kCopyRows + copy_row;
                    const int col = j * kChunk * kCopyCols + copy_col;
                    const bool inside = k0 + row < k && block_col + col < n;
                    const float* src =
                        inside ? b + (static_cast<std::int64_t>(k0 + row) * n + block_col + col)
                               : b;
                    ptx::cp_async_16(&b_tile[row][col], src, inside ? 16 : 0);
                }
            }
        }
        ptx::cp_async_commit();
        ptx::cp_async_wait<0>();
        __syncthreads();

#pragma unroll
        for (int mma_k = 0; mma_k < kStepsK; ++mma_k) {
#pragma unroll
            for (int mma_m = 0; mma_m < kTilesM; ++mma_m) {
#pragma unroll
                for (int mma_n = 0; mma_n < kTilesN; ++mma_n) {
                    // load_a / load_b: scalar shared loads in the fragment layouts above.
                    const float* a_frag = &a_tile[warp_row + mma_m * kMmaM][mma_k * kMmaK];
                    const float* b_frag = &b_tile[mma_k * kMmaK][warp_col + mma_n * kMmaN];
                    const std::uint32_t a_reg[4] = {
                        ptx::to_tf32(a_frag[g * kBlockK + t]),
                        ptx::to_tf32(a_frag[(g + 8) * kBlockK + t]),
                        ptx::to_tf32(a_frag[g * kBlockK + t + 4]),
                        ptx::to_tf32(a_frag[(g + 8) * kBlockK + t + 4]),
                    };
                    const std::uint32_t b_reg[2] = {
                        ptx::to_tf32(b_frag[t * kBlockN + g]),
                        ptx::to_tf32(b_frag[(t + 4) * kBlockN + g]),
                    };
                    ptx::mma_m16n8k8_tf32(acc[mma_m][mma_n], a_reg, b_reg);
                }
            }
        }
    }

    // store_d: (c0, c1) -> row g, cols 2t, 2t + 1; (c2, c3) -> row g + 8, same cols.
#pragma unroll
    for (int mma_m = 0; mma_m < kTilesM; ++mma_m) {
#pragma unroll
        for (int mma_n = 0; mma_n < kTilesN; ++mma_n) {
            const int col = block_col + warp_col + mma_n * kMmaN + 2 * t;
            if (col >= n) {
                continue;
            }
#pragma unroll
            for (int half = 0; half < 2; ++half) {
                const int row = block_row + warp_row + mma_m * kMmaM + g + 8 * half;
                if (row < m) {
                    const float* v = &acc[mma_m][mma_n][2 * half];
                    *reinterpret_cast<float2*>(c + (static_cast<std::int64_t>(row) * n + col)) =
                        make_float2(v[0], v[1]);
                }
            }
        }
    }
}

cudaError_t mma_tf32_puzzle_launch(const GemmOperands& operands, cudaStream_t stream) {
    const int m = static_cast<int>(operands.problem.m);
    const int n = static_cast<int>(operands.problem.n);
    const int k = static_cast<int>(operands.problem.k);
    const dim3 grid((n + kBlockN - 1) / kBlockN, (m + kBlockM - 1) / kBlockM);
    mma_tf32_puzzle<<<grid, kThreads, 0, stream>>>(static_cast<const float*>(operands.a),
                                                   static_cast<const float*>(operands.b),
                                                   operands.c, m, n, k);
    return cudaGetLastError();
}

}  // namespace

void attach_mma_tf32_puzzle_launches(KernelDescriptor& d) { d.launch = mma_tf32_puzzle_launch; }

}  // namespace tclens::kernels
