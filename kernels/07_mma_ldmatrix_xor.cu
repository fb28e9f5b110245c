// Rung 7: mma.sync m16n8k16 on f16 or bf16 inputs, fed by ldmatrix from an XOR-swizzled
// shared-memory layout and by 128-bit global loads (kernel 2 of Sam Patterson's write-up of an
// mma.sync GEMM on Ada, spatters.ca/mma-matmul).
//
// Adds to rung 6: 16-bit inputs (one m16n8k16 does twice the K of the tf32 m16n8k8), global
// loads of 16 bytes (8 elements) per thread, and ldmatrix: one instruction moves four 8 x 8
// matrices from shared memory straight into mma fragments (.trans turns B's K x N rows into the
// "col" fragment the mma wants). ldmatrix reads 8 rows at one column, which an unswizzled
// tile puts in one bank group; the XOR layout spreads them over all 32 banks.
//
// Tiling: a block of 256 threads (8 warps, 2 along M x 4 along N) computes a 128 x 128 tile
// of C, 64 values of K per step. A warp computes 64 x 32 = 4 x 4 tiles of m16n8; per k16
// step it issues 4 ldmatrix.x4 (A), 2 ldmatrix.x4.trans (B) and 16 mma. A thread holds
// 4 x 4 x 4 = 64 f32 accumulators.
//   warp w -> C rows 64 * (w / 4) .. +63, cols 32 * (w % 4) .. +31 of the block tile.
//
// Shared memory (static, 32 KiB, one buffer each: no pipelining):
//   a_tile: 128 rows (m) x 64 elements (k) = 128 bytes = 8 chunks of 16 bytes per row;
//   b_tile:  64 rows (k) x 128 elements (n) = 256 bytes = 16 chunks per row.
//   Swizzle "xor": logical chunk c of row r is stored at chunk c ^ (r % 8) (for B's 16-chunk
//   rows this permutes inside each half row). Every 8-lane phase, of ldmatrix or of the
//   16-byte stores, touches 8 consecutive rows at one logical chunk (or one row's 8 chunks of
//   a group), i.e. 8 different chunk positions mod 8 = all 32 banks once: no conflicts.
//
// K loop, synchronous: each thread loads its 4 A and 4 B chunks of the next K step from
// global memory into registers, stores them to shared memory, barrier, 4 k16 steps of ldmatrix
// + mma, barrier (the next stores overwrite what the last ldmatrix read).
//
// Edges: K % 8 == 0 and N % 8 == 0 (can_run), so a 16-byte chunk of an A or B row is wholly
// inside the matrix or wholly outside (and 16-byte aligned); outside chunks are stored as
// zeros, so partial tiles add nothing. C stores are guarded per float2 (N even: aligned).
// Operand pointers must be 16-byte aligned (cudaMalloc gives 256).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "kernels/07_mma_ldmatrix_xor.h"
#include "kernels/ladder_launches.h"
#include "kernels/ptx.cuh"
#include "kernels/sixteen_bit_launch.h"

namespace tclens::kernels {
namespace {

using namespace mma_ldmatrix_xor;

// Byte offset of logical chunk `chunk` of row `row` in a tile with `row_bytes` per row.
__device__ __forceinline__ int xor_offset(int row, int chunk, int row_bytes) {
    return row * row_bytes + ((chunk ^ (row % kXorRows)) * kChunkBytes);
}

// The 16-byte chunk of `src` at (row, col), or zeros where it lies outside rows x cols.
template <typename Element>
__device__ __forceinline__ uint4 load_chunk(const Element* __restrict__ src, int row, int col,
                                            int rows, int cols) {
    if (row < rows && col < cols) {
        return *reinterpret_cast<const uint4*>(src + static_cast<std::int64_t>(row) * cols + col);
    }
    return make_uint4(0u, 0u, 0u, 0u);
}

template <typename Element>
__global__ void __launch_bounds__(kThreads)
    mma_ldmatrix_xor_gemm(const Element* __restrict__ a, const Element* __restrict__ b,
                          float* __restrict__ c, int m, int n, int k) {
    __shared__ __align__(128) unsigned char a_tile[kBlockM * kARowBytes];
    __shared__ __align__(128) unsigned char b_tile[kBlockK * kBRowBytes];

    const int tid = threadIdx.x;
    const int lane = tid % 32;
    const int warp = tid / 32;
    const int warp_m = warp / kWarpsN;
    const int warp_n = warp % kWarpsN;
    const int block_m = blockIdx.y * kBlockM;
    const int block_n = blockIdx.x * kBlockN;

    // Copy mapping, chunk i of a thread (8 consecutive threads fill 8 chunks of one row):
    //   A: tile row a_row + 32 i, chunk a_chunk;   B: tile row b_row + 16 i, chunk b_chunk.
    const int a_row = tid / kAChunksPerRow;
    const int a_chunk = tid % kAChunksPerRow;
    const int b_row = tid / kBChunksPerRow;
    const int b_chunk = tid % kBChunksPerRow;

    // ldmatrix address lanes: lane = 8 j + r supplies row r of matrix j.
    //   A (x4): matrix j = rows 8 (j & 1) .., k 8 (j >> 1) .. of an m16 x k16 tile, so
    //           registers 0..3 are a0..a3 of m16n8k16: (lane, reg j) -> (g + 8 (j & 1),
    //           2t + 8 (j >> 1) + {0, 1}), g = lane / 4, t = lane % 4.
    //   B (x4.trans): matrix j = k rows 8 (j & 1) .., n 8 (j >> 1) .. of a k16 x n16 tile;
    //           registers 0, 1 are b0, b1 of the first n8 tile, 2, 3 of the second:
    //           (lane, reg j) -> (k = 2t + 8 (j & 1) + {0, 1}, n = g + 8 (j >> 1)).
    // Every ldmatrix row starts at a multiple of 8 plus `lane % 8`, so its XOR key is lane % 8.
    const int matrix_row = lane % 8 + 8 * ((lane / 8) % 2);
    const int matrix_chunk = lane / 16;
    const int a_frag_row = warp_m * kWarpM + matrix_row;                      // + 16 mt
    const int b_frag_chunk = warp_n * (kWarpN / kChunkElems) + matrix_chunk;  // + 2 pair

    float acc[kTilesM][kTilesN][4] = {};

    for (int k0 = 0; k0 < k; k0 += kBlockK) {
        uint4 a_regs[kAChunks];
        uint4 b_regs[kBChunks];
#pragma unroll
        for (int i = 0; i < kAChunks; ++i) {
            a_regs[i] =
                load_chunk(a, block_m + a_row + kARowStep * i, k0 + a_chunk * kChunkElems, m, k);
        }
#pragma unroll
        for (int i = 0; i < kBChunks; ++i) {
            b_regs[i] =
                load_chunk(b, k0 + b_row + kBRowStep * i, block_n + b_chunk * kChunkElems, k, n);
        }
#pragma unroll
        for (int i = 0; i < kAChunks; ++i) {
            *reinterpret_cast<uint4*>(
                a_tile + xor_offset(a_row + kARowStep * i, a_chunk, kARowBytes)) = a_regs[i];
        }
#pragma unroll
        for (int i = 0; i < kBChunks; ++i) {
            *reinterpret_cast<uint4*>(
                b_tile + xor_offset(b_row + kBRowStep * i, b_chunk, kBRowBytes)) = b_regs[i];
        }
        __syncthreads();

#pragma unroll
        for (int kk = 0; kk < kBlockK / kMmaK; ++kk) {
            std::uint32_t a_frag[kTilesM][4];
            std::uint32_t b_frag[kTilesN / 2][4];  // one x4.trans = two n8 tiles
#pragma unroll
            for (int mt = 0; mt < kTilesM; ++mt) {
                ptx::ldmatrix_x4(a_frag[mt],
                                 a_tile + xor_offset(a_frag_row + kMmaM * mt, 2 * kk + matrix_chunk,
                                                     kARowBytes));
            }
#pragma unroll
            for (int pair = 0; pair < kTilesN / 2; ++pair) {
                ptx::ldmatrix_x4_trans(b_frag[pair],
                                       b_tile + xor_offset(kMmaK * kk + matrix_row,
                                                           b_frag_chunk + 2 * pair, kBRowBytes));
            }
#pragma unroll
            for (int mt = 0; mt < kTilesM; ++mt) {
#pragma unroll
                for (int nt = 0; nt < kTilesN; ++nt) {
                    const std::uint32_t b_pair[2] = {b_frag[nt / 2][2 * (nt % 2)],
                                                     b_frag[nt / 2][2 * (nt % 2) + 1]};
                    ptx::mma_m16n8k16<Element>(acc[mt][nt], a_frag[mt], b_pair);
                }
            }
        }
        __syncthreads();
    }

    // Accumulators: (lane, reg) -> (g + 8 (reg / 2), 2t + reg % 2) of each m16n8 tile.
    const int g = lane / 4;
    const int t = lane % 4;
#pragma unroll
    for (int mt = 0; mt < kTilesM; ++mt) {
#pragma unroll
        for (int nt = 0; nt < kTilesN; ++nt) {
            const int col = block_n + warp_n * kWarpN + kMmaN * nt + 2 * t;
            if (col >= n) {
                continue;
            }
#pragma unroll
            for (int half = 0; half < 2; ++half) {
                const int row = block_m + warp_m * kWarpM + kMmaM * mt + g + 8 * half;
                if (row < m) {
                    *reinterpret_cast<float2*>(c + static_cast<std::int64_t>(row) * n + col) =
                        make_float2(acc[mt][nt][2 * half], acc[mt][nt][2 * half + 1]);
                }
            }
        }
    }
}

template <typename Element>
cudaError_t mma_ldmatrix_xor_launch(const GemmOperands& operands, cudaStream_t stream) {
    const GemmProblem& p = operands.problem;
    const dim3 grid(static_cast<unsigned>((p.n + kBlockN - 1) / kBlockN),
                    static_cast<unsigned>((p.m + kBlockM - 1) / kBlockM));
    mma_ldmatrix_xor_gemm<Element><<<grid, kThreads, 0, stream>>>(
        static_cast<const Element*>(operands.a), static_cast<const Element*>(operands.b),
        operands.c, static_cast<int>(p.m), static_cast<int>(p.n), static_cast<int>(p.k));
    return cudaGetLastError();
}

}  // namespace

void attach_mma_ldmatrix_xor_launches(KernelDescriptor& d) {
    attach_sixteen_bit_launch(d, mma_ldmatrix_xor_launch<__half>,
                              mma_ldmatrix_xor_launch<__nv_bfloat16>);
}

}  // namespace tclens::kernels
