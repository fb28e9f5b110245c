// Rung 6: mma.sync m16n8k8 TF32 tuned to beat cuBLAS's FP32 SGEMM (the goal of MIT 6.S894
// lab 6): the same instruction as rung 5, fed the way a tensor core needs to be fed.
//
// What it adds to rung 5: 48 x 64 warp tiles (one A or B value feeds 8 or 3 mma), a 4-stage
// cp.async ring so loads overlap math, an XOR-swizzled shared layout under which every
// fragment load is conflict-free, ldmatrix.x4 for A and 16-byte loads for B, fragments of the
// next k8 step loaded while the current one multiplies, TF32 rounding by one integer add, a
// branch-free K loop for the blocks inside C, and a grouped block order for L2 reuse.
//
// Tunables: TunedConfig<BlockM, BlockN, WarpM, WarpN, Stages, BlocksPerSm, Round, BlockK = 32>
// fixes the block tile (BlockM x BlockN of C, BlockK of K per stage, a multiple of 32), the
// warp tile (WarpM % 16 == 0, WarpN % 32 == 0), the cp.async ring depth, the blocks per SM it
// is compiled for (__launch_bounds__) and the TF32 rounding (Tf32Round below). The descriptor
// instantiates one configuration, ChosenConfig; the numbers below are ChosenConfig's,
// <192, 128, 48, 64, 4, 1, kHalfUlp, 32>. On an H100 SXM, with the K loop of tuning round 1
// (before the unguarded path below), it ran 3072^3 at 167 TFLOP/s: 3.7x cuBLAS SGEMM and 55%
// of cuBLAS TF32, with cuBLAS TF32's error (2.6e-4 relative RMS on inputs in [-1, 1)).
//
// Tiling: a block of 256 threads (8 warps, 4 along M x 2 along N) computes 192 x 128 of C, 32
// of K per stage; one block per SM (160 KiB of shared memory, <= 255 registers). A warp
// computes 48 x 64 of C = 3 (M) x 8 (N) MMA tiles of 16 x 8, 96 f32 accumulators per thread;
// per k8 step it issues 3 ldmatrix.x4 (A), 4 ld.shared.v4 (B) and 24 mma.sync.
//   warp w -> C rows WarpM * (w / warps along N) .., cols WarpN * (w % warps along N) .. of
//   the block tile (ChosenConfig: rows 48 * (w / 2) .. +47, cols 64 * (w % 2) .. +63).
// Fragments (PTX ISA, `tclens layout mma.m16n8k8.tf32`), g = lane / 4, t = lane % 4:
//   A (16 x 8): (lane, a0..a3) -> (g, t), (g + 8, t), (g, t + 4), (g + 8, t + 4)
//   B (8 x 8):  (lane, b0, b1) -> (k = t, n = g), (k = t + 4, n = g)
//   C (16 x 8): (lane, c0..c3) -> (g, 2t), (g, 2t + 1), (g + 8, 2t), (g + 8, 2t + 1)
// The 8 n-columns of an MMA tile need not be adjacent columns of C. Within each 32-column
// group G of the warp tile, MMA tile j (0..3) takes the columns 4q + j, q = 0..7, ordered
//   (tile column n) -> (group column 4 * q(n) + j),  q(n) = n / 2 + 4 (n % 2),
// so lane (g, t) finds b0 of tiles j = 0..3 in one 16-byte word, row t, group columns
// 4 q(g) .. +3; b1 likewise in row t + 4; and its c0 of tiles 0..3 are C columns 4t .. 4t + 3
// of the group (q(2t) = t), c1 columns 16 + 4t .. +3 (q(2t + 1) = t + 4): float4 stores.
// Worked example: lane 9 (g 2, t 1), group 0: b0 of tiles 0..3 = B(k 1, n 4..7); c0 of tiles
// 0..3 = C(row 2, cols 4..7), c1 = C(row 2, cols 20..23).
// A and B are stored as f32 and rounded to TF32 as each fragment is loaded (Tf32Round; the
// chosen kHalfUlp rounds as cvt.rna, nearest with ties away from zero, as cuBLAS rounds, in
// one integer add per register, which also moves each B value into the register pair its mma
// reads); accumulation is f32.
//
// Shared memory (dynamic, Stages x (BlockM + BlockN) x BlockK x 4 B; ChosenConfig: 4 x 40 KiB
// = 160 KiB), per stage:
//   A tile BlockM rows (m) x BlockK f32 (k): BlockK / 4 chunks of 16 B per row (ChosenConfig:
//     8, 128 B);
//   B tile BlockK rows (k) x BlockN f32 (n): BlockN / 4 chunks per row (ChosenConfig: 32).
// Swizzle "xor": logical 16-byte chunk c of row r is stored at chunk c ^ (r % 8) (the low 3
// bits of c). Then
//   ldmatrix (A): each 8-lane phase reads 8 consecutive rows at one logical chunk -> 8
//     distinct chunk positions mod 8 = 32 banks once;
//   ld.shared.v4 (B): phase p (lanes 8p..8p+7: g = 2p, 2p + 1, t = 0..3) reads rows k0 + t
//     (+4) at chunks q = p and p + 4 of a group: (q ^ t) and ((q + 4) ^ t) cover 0..7 once;
//   cp.async (stores): 8 lanes write 8 chunks of one row group of 8 -> a permutation.
// Every phase is one wavefront: no bank conflicts anywhere.
//
// Pipeline (Stages deep, one cp.async group per K tile, zero-size copies past the last tile so
// the counts stay exact): the prologue commits tiles 0 .. Stages - 2. K tile i is read from
// stage i % Stages. At its k8 step 0 the block issues tile i + Stages - 1 into the stage tile
// i - 1 used; every read of that stage was issued before the barrier of tile i - 1's last step.
// At the last k8 step each thread waits until at most Stages - 2 groups are pending (tile i + 1
// has landed), then a barrier publishes tile i + 1 to all warps before its step-0 fragments
// are loaded. Register fragments are double-buffered: step s + 1's loads are issued before
// step s's mma.
// Copy addressing: each thread's copies of a tile are rows kThreads / (chunks per row) apart at
// one chunk, so their shared destinations are constants from one base and their global
// sources one running pointer; the per-thread cursors advance by a constant per K tile.
//
// Block order: block b -> tile (row, col) in groups of 8 tile rows, down a group's column
// first, so the blocks resident at once share A panels and B panels in L2.
//
// Edges: a block whose tile lies inside C, with K % BlockK == 0, runs the K loop with no
// guards at all; any other block runs the same code with guards (compute_block_tile's kEdge).
// There a 16-byte chunk outside A or B is zero-filled (cp.async src_bytes = 0), so partial M,
// N and K tiles add zeros. That needs 16-byte aligned rows with each chunk wholly inside or
// outside: K % 4 == 0 and N % 4 == 0 (can_run); M is free. C is written per float4 (4
// consecutive columns from a multiple of 4), guarded by row < M and col < N in edge blocks.
// Operand pointers must be 16-byte aligned (cudaMalloc gives 256). With Tf32Round::kHalfUlp,
// A and B must be finite (the integer add turns Inf and some NaN payloads into other values).
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "kernels/06_mma_tf32_tuned.h"
#include "kernels/block_order.h"
#include "kernels/ladder_launches.h"
#include "kernels/ptx.cuh"
#include "kernels/smem_opt_in.h"

namespace tclens::kernels {
namespace {

using namespace tf32_tuned;

// The TF32 fragment register for the f32 bits `bits` (see Tf32Round).
template <Tf32Round Round>
__device__ __forceinline__ std::uint32_t to_tf32_fragment(std::uint32_t bits) {
    if constexpr (Round == Tf32Round::kRna) {
        return ptx::to_tf32(__uint_as_float(bits));
    } else if constexpr (Round == Tf32Round::kHalfUlp) {
        return bits + 0x1000u;
    } else if constexpr (Round == Tf32Round::kTruncate) {
        return bits;
    } else {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
        static_assert(Round != Tf32Round::kRn, "cvt.rn.tf32.f32 needs sm_90");
        return bits;
#else
        std::uint32_t r;
        asm("cvt.rn.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(__uint_as_float(bits)));
        return r;
#endif
    }
}

// The register fragments of one k8 step of a warp tile, per thread.
template <class Cfg>
struct Fragments {
    std::uint32_t a[Cfg::kTilesM][4];                        // (m16 tile, a0..a3), TF32
    std::uint32_t b[Cfg::kGroupsN][2][Cfg::kTilesPerGroup];  // (group, b0 / b1, n8 tile), TF32
};

// Loads the TF32 fragments of k8 step `step` from the stage starting at `stage` (in smem).
//   a_offset: this lane's ldmatrix row address in the A tile for step 0 at chunk bits 0..2
//             cleared (row * kARowBytes); a_chunk: its logical chunk ^ swizzle for step 0.
//   b_offset[h]: this lane's 16-byte word for b0 (h 0) / b1 (h 1), step 0, group 0.
template <class Cfg>
__device__ __forceinline__ void load_fragments(Fragments<Cfg>& f, const unsigned char* stage,
                                               int step, int a_offset, int a_chunk,
                                               const int (&b_offset)[2]) {
    // ldmatrix.x4: lanes 8j..8j+7 address matrix j = rows (8 (j % 2) + lane % 8), logical
    // chunk 2 step + j / 2; register j comes back as a0..a3 (matrix j holds rows 8 (j % 2)..,
    // k columns 4 (j / 2)..; lane (g, t) receives its row g, word t).
    const int a_row = a_offset + ((a_chunk ^ (2 * step)) * Cfg::kChunk);
#pragma unroll
    for (int i = 0; i < Cfg::kTilesM; ++i) {
        std::uint32_t raw[4];
        ptx::ldmatrix_x4(raw, stage + a_row + i * Cfg::kMmaM * Cfg::kARowBytes);
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            f.a[i][r] = to_tf32_fragment<Cfg::kRound>(raw[r]);
        }
    }
#pragma unroll
    for (int grp = 0; grp < Cfg::kGroupsN; ++grp) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const uint4 v = *reinterpret_cast<const uint4*>(
                stage + Cfg::kAStageBytes + b_offset[h] + step * Cfg::kMmaK * Cfg::kBRowBytes +
                grp * Cfg::kGroupCols * 4);
            f.b[grp][h][0] = to_tf32_fragment<Cfg::kRound>(v.x);
            f.b[grp][h][1] = to_tf32_fragment<Cfg::kRound>(v.y);
            f.b[grp][h][2] = to_tf32_fragment<Cfg::kRound>(v.z);
            f.b[grp][h][3] = to_tf32_fragment<Cfg::kRound>(v.w);
        }
    }
}

// One k8 step of the warp tile: kTilesM x (kGroupsN x 4) mma.sync.
template <class Cfg>
__device__ __forceinline__ void multiply(
    float (&acc)[Cfg::kTilesM][Cfg::kGroupsN][Cfg::kTilesPerGroup][4], const Fragments<Cfg>& f) {
#pragma unroll
    for (int i = 0; i < Cfg::kTilesM; ++i) {
#pragma unroll
        for (int grp = 0; grp < Cfg::kGroupsN; ++grp) {
#pragma unroll
            for (int j = 0; j < Cfg::kTilesPerGroup; ++j) {
                const std::uint32_t b[2] = {f.b[grp][0][j], f.b[grp][1][j]};
                ptx::mma_m16n8k8_tf32(acc[i][grp][j], f.a[i], b);
            }
        }
    }
}

// Keeps the compiler from folding a running pointer back into base + p * stride, which would
// hoist one 64-bit offset register per copy out of the K loop.
__device__ __forceinline__ const float* opaque(const float* p) {
    asm("" : "+l"(p));
    return p;
}

// The block's C tile at (block_row, block_col). kEdge = false: the tile lies inside C and
// K % kBlockK == 0, so no copy or store needs a guard; kEdge = true guards each of them.
template <class Cfg, bool kEdge>
__device__ __forceinline__ void compute_block_tile(const float* __restrict__ a,
                                                   const float* __restrict__ b,
                                                   float* __restrict__ c, int m, int n, int k,
                                                   int block_row, int block_col,
                                                   unsigned char* smem) {
    const int tid = static_cast<int>(threadIdx.x);
    const int warp = tid / 32;
    const int lane = tid % 32;
    const int g = lane / 4;
    const int t = lane % 4;

    // cp.async sources and destinations, see copy_tile below. Destinations are byte offsets in
    // a stage. The sources are cursors at the thread's first chunk of the next K tile to copy;
    // past the last K tile they stay on it (the copies are then zero-size), so an unguarded
    // block never addresses outside A or B, and a guarded one dereferences only inside chunks.
    const int a_copy_chunk = tid % Cfg::kAChunksPerRow;
    const int a_copy_row = tid / Cfg::kAChunksPerRow;
    const int a_copy_dst = a_copy_row * Cfg::kARowBytes +
                           ((a_copy_chunk ^ (a_copy_row % Cfg::kSwizzleRows)) * Cfg::kChunk);
    const float* a_cursor = a + (static_cast<std::int64_t>(block_row + a_copy_row) * k +
                                 a_copy_chunk * Cfg::kChunkFloats);
    const std::int64_t a_copy_stride = static_cast<std::int64_t>(Cfg::kARowStep) * k;
    const int b_copy_chunk = tid % Cfg::kBChunksPerRow;
    const int b_copy_row = tid / Cfg::kBChunksPerRow;
    int b_copy_dst[Cfg::kBPhases];  // copy p: b_copy_dst[p % kBPhases] + rows of p / kBPhases
#pragma unroll
    for (int ph = 0; ph < Cfg::kBPhases; ++ph) {
        const int row = b_copy_row + ph * Cfg::kBRowStep;
        b_copy_dst[ph] = Cfg::kAStageBytes + row * Cfg::kBRowBytes +
                         ((b_copy_chunk ^ (row % Cfg::kSwizzleRows)) * Cfg::kChunk);
    }
    const float* b_cursor = b + (static_cast<std::int64_t>(b_copy_row) * n + block_col +
                                 b_copy_chunk * Cfg::kChunkFloats);
    const std::int64_t b_copy_stride = static_cast<std::int64_t>(Cfg::kBRowStep) * n;
    const std::int64_t b_tile_stride = static_cast<std::int64_t>(Cfg::kBlockK) * n;
    unsigned a_rows_inside = 0;  // bit p: row a_copy_row + kARowStep p of the tile is inside A
    if constexpr (kEdge) {
#pragma unroll
        for (int p = 0; p < Cfg::kACopies; ++p) {
            a_rows_inside |= (block_row + a_copy_row + p * Cfg::kARowStep < m ? 1u : 0u) << p;
        }
    }
    const bool b_col_inside = !kEdge || block_col + b_copy_chunk * Cfg::kChunkFloats < n;
    const int k_tiles = (k + Cfg::kBlockK - 1) / Cfg::kBlockK;

    // Copies K tile `tile` (the cursors' tile; called for tile = 0, 1, 2, ...) into the stage at
    // `dst`, zero-filling chunks outside A and B and every chunk of a tile >= k_tiles.
    //   A: (thread, p) -> tile row a_copy_row + kARowStep p, chunk a_copy_chunk (8 lanes: one
    //      row's 8 chunks at one row phase)
    //   B: (thread, p) -> tile row b_copy_row + kBRowStep p, chunk b_copy_chunk
    auto copy_tile = [&](int tile, unsigned char* dst) {
        const int k0 = tile * Cfg::kBlockK;
        const bool tile_inside = tile < k_tiles;
        const bool a_col_inside = kEdge ? k0 + a_copy_chunk * Cfg::kChunkFloats < k : tile_inside;
        const float* src = a_cursor;
#pragma unroll
        for (int p = 0; p < Cfg::kACopies; ++p) {
            const bool inside =
                kEdge ? a_col_inside && ((a_rows_inside >> p) & 1u) != 0 : tile_inside;
            ptx::cp_async_16(dst + a_copy_dst + p * Cfg::kARowStep * Cfg::kARowBytes,
                             kEdge && !inside ? a : src, inside ? Cfg::kChunk : 0);
            src = opaque(src + a_copy_stride);
        }
        src = b_cursor;
#pragma unroll
        for (int p = 0; p < Cfg::kBCopies; ++p) {
            const bool inside =
                kEdge ? b_col_inside && k0 + b_copy_row + p * Cfg::kBRowStep < k : tile_inside;
            ptx::cp_async_16(
                dst + b_copy_dst[p % Cfg::kBPhases] +
                    p / Cfg::kBPhases * Cfg::kBPhases * Cfg::kBRowStep * Cfg::kBRowBytes,
                kEdge && !inside ? b : src, inside ? Cfg::kChunk : 0);
            src = opaque(src + b_copy_stride);
        }
        // Selects, not a branch: a branch would end the basic block before the step's mma.
        const bool advance = tile + 1 < k_tiles;
        a_cursor += advance ? Cfg::kBlockK : 0;
        b_cursor += advance ? b_tile_stride : 0;
    };

    // Fragment addresses (byte offsets in a stage) for k8 step 0.
    const int warp_row = warp / Cfg::kWarpsN * Cfg::kWarpM;  // in the block tile
    const int warp_col = warp % Cfg::kWarpsN * Cfg::kWarpN;
    // ldmatrix: lane -> A tile row warp_row + 8 ((lane / 8) % 2) + lane % 8, logical chunk
    // lane / 16 (+ 2 step); stored at that chunk ^ (lane % 8), the row's phase.
    const int a_offset = (warp_row + 8 * ((lane / 8) % 2) + lane % 8) * Cfg::kARowBytes;
    const int a_chunk = (lane / 16) ^ (lane % 8);
    // B word of lane (g, t), h: row t + 4h, logical chunk warp_col / 4 + q(g) (group 0).
    const int q = g / 2 + 4 * (g % 2);
    const int b_offset[2] = {
        t * Cfg::kBRowBytes + ((warp_col / Cfg::kChunkFloats + (q ^ t)) * Cfg::kChunk),
        (t + 4) * Cfg::kBRowBytes + ((warp_col / Cfg::kChunkFloats + (q ^ (t + 4))) * Cfg::kChunk),
    };

    float acc[Cfg::kTilesM][Cfg::kGroupsN][Cfg::kTilesPerGroup][4] = {};
    Fragments<Cfg> frag[2];

#pragma unroll
    for (int s = 0; s < Cfg::kStages - 1; ++s) {
        copy_tile(s, smem + s * Cfg::kStageBytes);
        ptx::cp_async_commit();
    }
    ptx::cp_async_wait<Cfg::kStages - 2>();
    __syncthreads();
    load_fragments<Cfg>(frag[0], smem, 0, a_offset, a_chunk, b_offset);

    int read_stage = 0;                                       // byte offset of K tile `tile`
    int write_stage = (Cfg::kStages - 1) * Cfg::kStageBytes;  // of K tile `tile + kStages - 1`
#pragma unroll 1
    for (int tile = 0; tile < k_tiles; ++tile) {
#pragma unroll
        for (int step = 0; step < Cfg::kStepsK; ++step) {
            if (step == Cfg::kStepsK - 1) {
                // Tile + 1 has landed for every thread; it may be read from here on.
                ptx::cp_async_wait<Cfg::kStages - 2>();
                __syncthreads();
                read_stage += Cfg::kStageBytes;
                read_stage = read_stage == Cfg::kSmemBytes ? 0 : read_stage;
            }
            load_fragments<Cfg>(frag[(step + 1) % 2], smem + read_stage, (step + 1) % Cfg::kStepsK,
                                a_offset, a_chunk, b_offset);
            if (step == 0) {
                // Unconditional (zero-size past the last tile): no branch splits the step, so
                // the copies interleave with its mma.
                copy_tile(tile + Cfg::kStages - 1, smem + write_stage);
                ptx::cp_async_commit();
                write_stage += Cfg::kStageBytes;
                write_stage = write_stage == Cfg::kSmemBytes ? 0 : write_stage;
            }
            multiply<Cfg>(acc, frag[step % 2]);
        }
    }

    // (i, group, tile j, c0..c3) -> C row warp_row + 16 i + g (+8 for c2, c3), col warp_col +
    // 32 group + 4t + j (+16 for c1, c3): tiles j = 0..3 make one float4.
#pragma unroll
    for (int i = 0; i < Cfg::kTilesM; ++i) {
#pragma unroll
        for (int grp = 0; grp < Cfg::kGroupsN; ++grp) {
#pragma unroll
            for (int r = 0; r < 4; ++r) {
                const int row = block_row + warp_row + i * Cfg::kMmaM + g + 8 * (r / 2);
                const int col = block_col + warp_col + grp * Cfg::kGroupCols + 4 * t + 16 * (r % 2);
                if (!kEdge || (row < m && col < n)) {
                    const float(&v)[Cfg::kTilesPerGroup][4] = acc[i][grp];
                    *reinterpret_cast<float4*>(c + (static_cast<std::int64_t>(row) * n + col)) =
                        make_float4(v[0][r], v[1][r], v[2][r], v[3][r]);
                }
            }
        }
    }
}

// One block computes the C tile that the grouped block order gives blockIdx.x.
// Preconditions: K % 4 == 0, N % 4 == 0, M, N, K <= 2^30, pointers 16-byte aligned.
template <class Cfg>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kBlocksPerSm)
    mma_tf32_tuned(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                   int m, int n, int k) {
    extern __shared__ __align__(128) unsigned char smem[];

    const int tiles_m = (m + Cfg::kBlockM - 1) / Cfg::kBlockM;
    const int tiles_n = (n + Cfg::kBlockN - 1) / Cfg::kBlockN;
    int tile_m = 0;
    int tile_n = 0;
    Cfg::block_tile(static_cast<int>(blockIdx.x), tiles_m, tiles_n, tile_m, tile_n);
    const int block_row = tile_m * Cfg::kBlockM;
    const int block_col = tile_n * Cfg::kBlockN;

    if (block_row + Cfg::kBlockM <= m && block_col + Cfg::kBlockN <= n && k % Cfg::kBlockK == 0) {
        compute_block_tile<Cfg, false>(a, b, c, m, n, k, block_row, block_col, smem);
    } else {
        compute_block_tile<Cfg, true>(a, b, c, m, n, k, block_row, block_col, smem);
    }
}

template <class Cfg>
cudaError_t mma_tf32_tuned_launch(const GemmOperands& operands, cudaStream_t stream) {
    // kBlocksPerSm blocks of up to 227 KiB together need the largest shared-memory carveout.
    const cudaError_t status = opt_in_shared_memory(
        reinterpret_cast<const void*>(mma_tf32_tuned<Cfg>), Cfg::kSmemBytes, true);
    if (status != cudaSuccess) {
        return status;
    }
    const int m = static_cast<int>(operands.problem.m);
    const int n = static_cast<int>(operands.problem.n);
    const int k = static_cast<int>(operands.problem.k);
    const int tiles =
        (m + Cfg::kBlockM - 1) / Cfg::kBlockM * ((n + Cfg::kBlockN - 1) / Cfg::kBlockN);
    mma_tf32_tuned<Cfg><<<tiles, Cfg::kThreads, Cfg::kSmemBytes, stream>>>(
        static_cast<const float*>(operands.a), static_cast<const float*>(operands.b), operands.c, m,
        n, k);
    return cudaGetLastError();
}

}  // namespace

void attach_mma_tf32_tuned_launches(KernelDescriptor& d) {
    d.launch = mma_tf32_tuned_launch<ChosenConfig>;
}

}  // namespace tclens::kernels
