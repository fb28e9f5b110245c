// Rung 4: tensor cores through the CUDA C++ WMMA API (<mma.h>, nvcuda::wmma), made fast.
//
// What it adds: the multiply-adds leave the FMA pipe. A warp multiplies whole 16 x 16 x 16
// tiles with wmma::mma_sync (f16 or bf16 inputs, f32 accumulators); the compiler lowers each
// one to two HMMA m16n8k16 instructions. The fragment layouts stay opaque to the code: WMMA
// loads and stores them itself (load_matrix_sync / store_matrix_sync; for bf16 the load is
// the same wmma.load PTX written out with .shared, see load_fragment).
//
// Tiling (C = A * B, all row-major, see kernels/gemm.h):
//   block  128 x 256 of C, K step 32; 256 threads = 8 warps as 2 (M) x 4 (N)
//   warp   64 x 64 of C = 4 x 4 accumulator fragments of 16 x 16 (128 f32 per thread);
//          per 16-deep K slice it loads 4 A and 4 B fragments and issues 16 mma_sync
//   (warp w) -> C rows [128 * bm + 64 * (w / 4), +64), cols [256 * bn + 64 * (w % 4), +64)
//
// Shared memory, per stage (4 stages, 108,544 bytes in all, dynamic):
//   A tile 128 rows x 32 elements, row stride 40 elements (80 B = 64 B + 16 B padding)
//   B tile  32 rows x 256 elements, row stride 264 elements (528 B = 512 B + 16 B padding)
//   The 16 B of padding ("pad:16") shift consecutive rows by 4 banks, so the 8 row addresses
//   of each 8 x 8 matrix that a fragment load reads hit 8 disjoint 4-bank groups (no
//   conflict), and both strides stay multiples of 8 elements as load_matrix_sync requires.
//   Every fragment pointer is 32-byte aligned (WMMA's requirement): row offsets are
//   multiples of 16 rows (1280 B, 8448 B) and column offsets multiples of 16 elements.
//
// Pipeline: cp.async (16 B, L1 bypassed) fills stage (t mod 4) with K tile t. The prologue
// commits tiles 0..2; iteration t waits until tile t has landed (at most 2 groups pending),
// then one __syncthreads both publishes tile t and proves that every warp has finished
// iteration t - 1, whose stage tile t + 3 then overwrites. Every iteration commits one group,
// empty past the last tile, so the wait count stays exact.
//
// Edges: a 16 B chunk of A or B that lies outside the matrix is zero-filled (src_bytes 0), so
// partial M, N and K tiles add zeros. That needs each row to start 16-byte aligned and each
// chunk to lie wholly inside or outside: K % 8 == 0 (A rows) and N % 8 == 0 (B rows);
// can_run refuses other K and N (no scalar fallback). M is free. In the epilogue a 16 x 16
// fragment wholly inside C is stored straight to global memory; one that straddles the edge
// goes through a per-warp 16 x 16 f32 staging buffer (in the first stage's memory, once every
// copy has landed and every warp has left the K loop), and only the in-range elements are
// written.

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <cstdint>
#include <string>

#include "kernels/04_wmma.h"
#include "kernels/block_order.h"
#include "kernels/ladder_launches.h"
#include "kernels/ptx.cuh"
#include "kernels/sixteen_bit_launch.h"
#include "kernels/smem_opt_in.h"

namespace tclens::kernels {
namespace {

using namespace wmma_rung;

namespace wmma = nvcuda::wmma;

// Fragment loads from shared memory; `ldm` in elements. f16 goes through the WMMA API, which
// nvcc emits as wmma.load...shared.f16. For bf16 the API's builtin comes out as a generic-address
// wmma.load, so the bf16 overloads issue the same PTX instruction with .shared named (its 4
// registers are the 8 bf16 elements of the fragment, as in <mma.h>).
__device__ __forceinline__ void load_fragment(
    wmma::fragment<wmma::matrix_a, kFrag, kFrag, kFrag, __half, wmma::row_major>& frag,
    const __half* p, unsigned ldm) {
    wmma::load_matrix_sync(frag, p, ldm);
}
__device__ __forceinline__ void load_fragment(
    wmma::fragment<wmma::matrix_b, kFrag, kFrag, kFrag, __half, wmma::row_major>& frag,
    const __half* p, unsigned ldm) {
    wmma::load_matrix_sync(frag, p, ldm);
}
__device__ __forceinline__ void load_fragment(
    wmma::fragment<wmma::matrix_a, kFrag, kFrag, kFrag, __nv_bfloat16, wmma::row_major>& frag,
    const __nv_bfloat16* p, unsigned ldm) {
    std::uint32_t* r = reinterpret_cast<std::uint32_t*>(frag.x);
    asm volatile("wmma.load.a.sync.aligned.row.m16n16k16.shared.bf16 {%0,%1,%2,%3}, [%4], %5;\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(ptx::smem_addr(p)), "r"(ldm));
}
__device__ __forceinline__ void load_fragment(
    wmma::fragment<wmma::matrix_b, kFrag, kFrag, kFrag, __nv_bfloat16, wmma::row_major>& frag,
    const __nv_bfloat16* p, unsigned ldm) {
    std::uint32_t* r = reinterpret_cast<std::uint32_t*>(frag.x);
    asm volatile("wmma.load.b.sync.aligned.row.m16n16k16.shared.bf16 {%0,%1,%2,%3}, [%4], %5;\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(ptx::smem_addr(p)), "r"(ldm));
}

// Copies K tile `k_tile` of the block's A rows and B columns into stage `stage`, zero-filling
// chunks outside the matrices. One commit group per call is left to the caller.
//   A: chunk c = tid + 256 i -> (row c / 4, elements 8 (c % 4) .. +7) of the 128 x 32 tile
//   B: chunk c = tid + 256 i -> (row c / 32, elements 8 (c % 32) .. +7) of the 32 x 256 tile
// A warp thus reads 8 A rows of 64 B, or one 512 B row of B.
template <typename T>
__device__ __forceinline__ void load_tile(T* smem_a, T* smem_b, const T* __restrict__ a,
                                          const T* __restrict__ b, int m, int n, int k, int m0,
                                          int n0, int k_tile, int stage) {
    const int k0 = k_tile * kBlockK;
    T* stage_a = smem_a + stage * kAStageElems;
    T* stage_b = smem_b + stage * kBStageElems;
#pragma unroll
    for (int i = 0; i < kAChunksPerThread; ++i) {
        const int chunk = static_cast<int>(threadIdx.x) + i * kThreads;
        const int row = chunk / kAChunksPerRow;
        const int col = (chunk % kAChunksPerRow) * kChunkElems;
        const bool inside = m0 + row < m && k0 + col < k;
        const T* src = inside ? a + (static_cast<std::int64_t>(m0 + row) * k + k0 + col) : a;
        ptx::cp_async_16(stage_a + row * kALd + col, src, inside ? 16 : 0);
    }
#pragma unroll
    for (int i = 0; i < kBChunksPerThread; ++i) {
        const int chunk = static_cast<int>(threadIdx.x) + i * kThreads;
        const int row = chunk / kBChunksPerRow;
        const int col = (chunk % kBChunksPerRow) * kChunkElems;
        const bool inside = k0 + row < k && n0 + col < n;
        const T* src = inside ? b + (static_cast<std::int64_t>(k0 + row) * n + n0 + col) : b;
        ptx::cp_async_16(stage_b + row * kBLd + col, src, inside ? 16 : 0);
    }
}

// One block computes C tile (bm, bn) = (blockIdx.x / tiles_n, blockIdx.x % tiles_n): kRowMajor.
// Preconditions: K % 8 == 0, N % 8 == 0, M, N, K <= 2^30, pointers 16-byte aligned (cudaMalloc).
template <typename T>
__global__ void __launch_bounds__(kThreads, 1)
    wmma_gemm_kernel(const T* __restrict__ a, const T* __restrict__ b, float* __restrict__ c, int m,
                     int n, int k, int tiles_n) {
    extern __shared__ __align__(128) unsigned char smem[];
    T* smem_a = reinterpret_cast<T*>(smem);
    T* smem_b = smem_a + kStages * kAStageElems;

    int tile_m = 0;
    int tile_n = 0;
    rasterise_row_major(static_cast<int>(blockIdx.x), tiles_n, tile_m, tile_n);
    const int m0 = tile_m * kBlockM;
    const int n0 = tile_n * kBlockN;
    const int warp = static_cast<int>(threadIdx.x) / 32;
    const int lane = static_cast<int>(threadIdx.x) % 32;
    const int warp_row = warp / kWarpsN * kWarpM;  // in the block tile
    const int warp_col = warp % kWarpsN * kWarpN;

    wmma::fragment<wmma::accumulator, kFrag, kFrag, kFrag, float> acc[kFragsM][kFragsN];
#pragma unroll
    for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
        for (int j = 0; j < kFragsN; ++j) {
            wmma::fill_fragment(acc[i][j], 0.0f);
        }
    }

    const int k_tiles = (k + kBlockK - 1) / kBlockK;
#pragma unroll
    for (int s = 0; s < kStages - 1; ++s) {
        if (s < k_tiles) {
            load_tile(smem_a, smem_b, a, b, m, n, k, m0, n0, s, s);
        }
        ptx::cp_async_commit();
    }

#pragma unroll 1
    for (int t = 0; t < k_tiles; ++t) {
        ptx::cp_async_wait<kStages - 2>();
        __syncthreads();
        const int next = t + kStages - 1;
        if (next < k_tiles) {
            load_tile(smem_a, smem_b, a, b, m, n, k, m0, n0, next, next % kStages);
        }
        ptx::cp_async_commit();

        const T* stage_a = smem_a + (t % kStages) * kAStageElems + warp_row * kALd;
        const T* stage_b = smem_b + (t % kStages) * kBStageElems + warp_col;
#pragma unroll
        for (int kk = 0; kk < kBlockK; kk += kFrag) {
            wmma::fragment<wmma::matrix_a, kFrag, kFrag, kFrag, T, wmma::row_major> a_frag[kFragsM];
            wmma::fragment<wmma::matrix_b, kFrag, kFrag, kFrag, T, wmma::row_major> b_frag[kFragsN];
#pragma unroll
            for (int i = 0; i < kFragsM; ++i) {
                load_fragment(a_frag[i], stage_a + i * kFrag * kALd + kk, kALd);
            }
#pragma unroll
            for (int j = 0; j < kFragsN; ++j) {
                load_fragment(b_frag[j], stage_b + kk * kBLd + j * kFrag, kBLd);
            }
#pragma unroll
            for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
                for (int j = 0; j < kFragsN; ++j) {
                    wmma::mma_sync(acc[i][j], a_frag[i], b_frag[j], acc[i][j]);
                }
            }
        }
    }

    // The staging buffers reuse stage memory: wait for every copy and every warp's last reads.
    ptx::cp_async_wait<0>();
    __syncthreads();
    float* staging = reinterpret_cast<float*>(smem) + warp * kFrag * kFrag;
    // A straddling fragment, staged row-major 16 x 16: lane -> (row lane / 2, cols 8 (lane % 2)
    // .. 8 (lane % 2) + 7).
    const int stage_row = lane / 2;
    const int stage_col = lane % 2 * 8;
#pragma unroll
    for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
        for (int j = 0; j < kFragsN; ++j) {
            const int row0 = m0 + warp_row + i * kFrag;
            const int col0 = n0 + warp_col + j * kFrag;
            if (row0 >= m || col0 >= n) {
                continue;
            }
            if (row0 + kFrag <= m && col0 + kFrag <= n) {
                wmma::store_matrix_sync(c + (static_cast<std::int64_t>(row0) * n + col0), acc[i][j],
                                        static_cast<unsigned>(n), wmma::mem_row_major);
                continue;
            }
            wmma::store_matrix_sync(staging, acc[i][j], kFrag, wmma::mem_row_major);
            __syncwarp();
            const int row = row0 + stage_row;
            if (row < m) {
                float* out = c + static_cast<std::int64_t>(row) * n;
#pragma unroll
                for (int q = 0; q < 8; ++q) {
                    const int col = col0 + stage_col + q;
                    if (col < n) {
                        out[col] = staging[stage_row * kFrag + stage_col + q];
                    }
                }
            }
            __syncwarp();
        }
    }
}

template <typename T>
cudaError_t launch_wmma(const GemmOperands& operands, cudaStream_t stream) {
    const cudaError_t status =
        opt_in_shared_memory(reinterpret_cast<const void*>(wmma_gemm_kernel<T>), kSmemBytes, false);
    if (status != cudaSuccess) {
        return status;
    }
    const GemmProblem& problem = operands.problem;
    const int m = static_cast<int>(problem.m);
    const int n = static_cast<int>(problem.n);
    const int k = static_cast<int>(problem.k);
    const int tiles_m = (m + kBlockM - 1) / kBlockM;
    const int tiles_n = (n + kBlockN - 1) / kBlockN;
    wmma_gemm_kernel<T><<<tiles_m * tiles_n, kThreads, kSmemBytes, stream>>>(
        static_cast<const T*>(operands.a), static_cast<const T*>(operands.b), operands.c, m, n, k,
        tiles_n);
    return cudaGetLastError();
}

}  // namespace

void attach_wmma_launches(KernelDescriptor& d) {
    attach_sixteen_bit_launch(d, launch_wmma<__half>, launch_wmma<__nv_bfloat16>);
}

}  // namespace tclens::kernels
