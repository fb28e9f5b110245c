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

#include "kernels/block_order.h"
#include "kernels/ladder.h"

namespace tclens::kernels {
namespace {

constexpr int kBlockM = 128;
constexpr int kBlockN = 128;
constexpr int kBlockK = 8;
constexpr int kThreads = 256;
constexpr int kWarpM = 32;
constexpr int kWarpN = 64;
constexpr int kWarpsN = kBlockN / kWarpN;  // 2; warps along M: kBlockM / kWarpM = 4
constexpr int kLanesN = 8;                 // lanes along N in a warp; 4 along M
constexpr int kSub = 4;                    // a thread's 4 x 4 sub-tile
constexpr int kThreadM = 8;                // = 2 sub-tiles
constexpr int kThreadN = 8;
constexpr int kSubStrideM = kWarpM / 2;  // 16: rows between a thread's two sub-tiles
constexpr int kSubStrideN = kWarpN / 2;  // 32: columns between them
constexpr int kPad = 4;                  // floats appended to every shared-memory row
constexpr int kStages = 2;
constexpr std::int64_t kMaxGridY = 65535;

static_assert(kBlockM * kBlockK == 4 * kThreads, "one float4 of A per thread per K step");
static_assert(kBlockK * kBlockN == 4 * kThreads, "one float4 of B per thread per K step");
static_assert((kBlockM / kWarpM) * kWarpsN * 32 == kThreads, "8 warps tile the block");
static_assert((kWarpM / kThreadM) * (kWarpN / kThreadN) == 32, "32 lanes tile the warp");

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

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

std::string register_tiled_can_run(const GemmProblem& problem) {
    constexpr std::int64_t kIntMax = 2147483647;
    if (problem.m > kIntMax - kBlockM || problem.n > kIntMax - kBlockN || problem.k > kIntMax) {
        return "M, N and K are 32-bit ints in the kernel: M and N must be at most 2147483519";
    }
    if ((problem.m + kBlockM - 1) / kBlockM > kMaxGridY) {
        return "M must be at most " + std::to_string(kMaxGridY * kBlockM) +
               ": one block row per 128 rows of C, and gridDim.y is at most 65535";
    }
    return "";
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

KernelDescriptor register_tiled_kernel() {
    KernelDescriptor d;
    d.id = "register_tiled.f32";
    d.rung = 3;
    d.title = "register tiling 8 x 8 + float4 loads + double-buffered shared memory";
    d.adds =
        "register tiles + float4 loads: each thread computes 8x8 outputs, reusing operands "
        "from registers";
    d.precision = Precision::kF32;
    d.block_tile = {kBlockM, kBlockN, kBlockK};
    d.warp_tile = {kWarpM, kWarpN, 0};
    d.thread_tile = {kThreadM, kThreadN, 0};
    d.mma_tile = {0, 0, 0};
    d.stages = kStages;
    d.swizzle = "pad:16";
    // A 2-D grid, tiles (blockIdx.y, blockIdx.x). Copies: thread t takes float4 t of each tile,
    // row-major (A rows of kBlockK / 4 float4, B rows of kBlockN / 4).
    d.schedule.work = viz::WorkKind::kFma;
    d.schedule.instruction = "FFMA";
    d.schedule.lanes_m = 32 / kLanesN;
    d.schedule.lanes_n = kLanesN;
    d.schedule.sub_m = kSub;
    d.schedule.sub_n = kSub;
    d.schedule.copy_threads = kThreads;
    d.schedule.a_load = {kThreads / (kBlockK / 4), kBlockK / 4};
    d.schedule.b_load = {kThreads / (kBlockN / 4), kBlockN / 4};
    d.schedule.load_instruction = "ld.global.v4 -> registers -> st.shared (A stored transposed)";
    d.schedule.pipeline_note =
        "2 stages: the next K tile waits in registers during the math and is stored to the "
        "other stage after it; one barrier a step";
    d.block_tile_of = row_major_block_tile;
    d.layout_ids = {};
    // None of its shared-memory instructions is a bank-lab pattern: the float4 loads of a_t
    // (lane l -> 16-byte chunk l / 8 of the row, 8 lanes each) and of b (chunk l % 8), the
    // transposing 4-byte stores into a_t (lane l -> row 4 (l % 2) + j, byte 4 (l / 2)) and the
    // float4 stores into b (a 16-byte row store; the lab has no sts.128). So none is listed.
    d.shared_accesses = {};
    d.threads = kThreads;
    d.min_sm = 80;
    d.reference_id = "cublas.sgemm";
    d.can_run = register_tiled_can_run;
    d.launch = register_tiled_launch;
    return d;
}

}  // namespace tclens::kernels
