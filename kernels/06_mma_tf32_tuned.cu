// Rung 6: mma.sync m16n8k8 TF32 tuned to beat cuBLAS's FP32 SGEMM (the goal of MIT 6.S894
// lab 6): the same instruction as rung 5, fed the way a tensor core needs to be fed.
//
// What it adds to rung 5: 64 x 64 warp tiles (one A or B value feeds 8 or 4 mma), a 3-stage
// cp.async ring so loads overlap math, an XOR-swizzled shared layout under which every
// fragment load is conflict-free, ldmatrix.x4 for A and 16-byte loads for B, fragments of the
// next k8 step loaded while the current one multiplies, and a grouped block order for L2 reuse.
//
// Tiling: a block of 128 threads (4 warps, 2 along M x 2 along N) computes 128 x 128 of C, 32
// of K per stage; two blocks share an SM (96 KiB of shared memory each, <= 255 registers). A
// warp computes 64 x 64 of C = 4 (M) x 8 (N) MMA tiles of 16 x 8, 128 f32 accumulators per
// thread; per k8 step it issues 4 ldmatrix.x4 (A), 4 ld.shared.v4 (B) and 32 mma.sync.
//   warp w -> C rows 64 * (w / 2) .. +63, cols 64 * (w % 2) .. +63 of the block tile.
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
// A and B are stored as f32 and rounded to TF32 (cvt.rna: nearest, ties away from zero;
// ptx::to_tf32) as each fragment is loaded; accumulation is f32.
//
// Shared memory (dynamic, 3 stages x 32 KiB = 96 KiB), per stage:
//   A tile 128 rows (m) x 32 f32 (k): 128 B = 8 chunks of 16 B per row;
//   B tile  32 rows (k) x 128 f32 (n): 512 B = 32 chunks per row.
// Swizzle "xor": logical 16-byte chunk c of row r is stored at chunk c ^ (r % 8). Then
//   ldmatrix (A): each 8-lane phase reads 8 consecutive rows at one logical chunk -> 8
//     distinct chunk positions mod 8 = 32 banks once;
//   ld.shared.v4 (B): phase p (lanes 8p..8p+7: g = 2p, 2p + 1, t = 0..3) reads rows k0 + t
//     (+4) at chunks q = p and p + 4 of a group: (q ^ t) and ((q + 4) ^ t) cover 0..7 once;
//   cp.async (stores): 8 lanes write 8 chunks of one row group of 8 -> a permutation.
// Every phase is one wavefront: no bank conflicts anywhere.
//
// Pipeline (3 stages, one cp.async group per K tile, empty past the last tile so the counts
// stay exact): the prologue commits tiles 0 and 1. K tile i is read from stage i % 3. At its
// k8 step 0 the block issues tile i + 2 into stage (i + 2) % 3, the stage tile i - 1 used;
// every read of that stage was issued before the barrier of tile i - 1's last step. At k8
// step 3 each thread waits until at most 1 group is pending (tile i + 1 has landed), then a
// barrier publishes tile i + 1 to all warps before its step-0 fragments are loaded. Register
// fragments are double-buffered: step s + 1's loads are issued before step s's mma.
//
// Block order: block b -> tile (row, col) in groups of 8 tile rows, down a group's column
// first, so the blocks resident at once share A panels and B panels in L2.
//
// Edges: a 16-byte chunk outside A or B is zero-filled (cp.async src_bytes = 0), so partial
// M, N and K tiles add zeros. That needs 16-byte aligned rows with each chunk wholly inside or
// outside: K % 4 == 0 and N % 4 == 0 (can_run); M is free. C is written per float4 (4
// consecutive columns from a multiple of 4), guarded by row < M and col < N. Operand
// pointers must be 16-byte aligned (cudaMalloc gives 256).
#include <cuda_runtime.h>

#include <climits>
#include <cstdint>
#include <string>

#include "kernels/ladder.h"
#include "kernels/ptx.cuh"

namespace tclens::kernels {
namespace {

constexpr int kBlockM = 128;
constexpr int kBlockN = 128;
constexpr int kBlockK = 32;
constexpr int kWarpM = 64;
constexpr int kWarpN = 64;
constexpr int kWarpsN = kBlockN / kWarpN;                    // 2
constexpr int kThreads = 32 * (kBlockM / kWarpM) * kWarpsN;  // 128
constexpr int kBlocksPerSm = 2;
constexpr int kStages = 3;
constexpr int kMmaM = 16;
constexpr int kMmaN = 8;
constexpr int kMmaK = 8;
constexpr int kTilesM = kWarpM / kMmaM;             // 4 m16 tiles per warp
constexpr int kGroupCols = 32;                      // one column group = 4 n8 tiles, see the header
constexpr int kGroupsN = kWarpN / kGroupCols;       // 2
constexpr int kTilesPerGroup = kGroupCols / kMmaN;  // 4
constexpr int kStepsK = kBlockK / kMmaK;            // 4 k8 steps per stage
constexpr int kRasterRows = 8;                      // tile rows per group of the block order

constexpr int kChunk = 16;                                // bytes per cp.async / swizzle unit
constexpr int kChunkFloats = kChunk / 4;                  // 4
constexpr int kSwizzleRows = 8;                           // chunk c of row r -> c ^ (r % 8)
constexpr int kARowBytes = kBlockK * 4;                   // 128
constexpr int kBRowBytes = kBlockN * 4;                   // 512
constexpr int kAStageBytes = kBlockM * kARowBytes;        // 16 KiB
constexpr int kBStageBytes = kBlockK * kBRowBytes;        // 16 KiB
constexpr int kStageBytes = kAStageBytes + kBStageBytes;  // 32 KiB
constexpr int kSmemBytes = kStages * kStageBytes;         // 96 KiB

// cp.async: thread tid copies chunk tid % (chunks per row) of rows tid / (chunks per row)
// + step * p of each tile.
constexpr int kAChunksPerRow = kARowBytes / kChunk;   // 8
constexpr int kBChunksPerRow = kBRowBytes / kChunk;   // 32
constexpr int kARowStep = kThreads / kAChunksPerRow;  // 16
constexpr int kBRowStep = kThreads / kBChunksPerRow;  // 4
constexpr int kACopies = kBlockM / kARowStep;         // 8 per thread per tile
constexpr int kBCopies = kBlockK / kBRowStep;         // 8

static_assert(kAChunksPerRow == kSwizzleRows, "A rows are one swizzle row of 8 chunks");
static_assert(kARowStep % kSwizzleRows == 0, "an A-copying thread keeps one row phase");
static_assert(kBChunksPerRow % kSwizzleRows == 0 && kThreads % kBChunksPerRow == 0,
              "B rows are whole swizzle groups, copied by whole threads");
static_assert(kBlockM % kARowStep == 0 && kBlockK % kBRowStep == 0, "copies spread evenly");
static_assert(kMmaK == kSwizzleRows, "a k8 step starts at a row multiple of 8 in B");
static_assert(kWarpM % kSwizzleRows == 0, "warp rows start at a multiple of 8 in A");
static_assert(kSmemBytes * kBlocksPerSm <= 227 * 1024,
              "kBlocksPerSm blocks fit in one SM's shared memory");

constexpr std::int64_t kMaxDim = std::int64_t{1} << 30;

// The register fragments of one k8 step of a warp tile, per thread.
struct Fragments {
    std::uint32_t a[kTilesM][4];                   // (m16 tile, a0..a3), TF32
    std::uint32_t b[kGroupsN][2][kTilesPerGroup];  // (group, b0 / b1, n8 tile in group), TF32
};

// Loads the TF32 fragments of k8 step `step` from the stage starting at `stage` (in smem).
//   a_offset: this lane's ldmatrix row address in the A tile for step 0 at chunk bits 0..2
//             cleared (row * 128 B); a_chunk: its logical chunk ^ swizzle for step 0.
//   b_offset[h]: this lane's 16-byte word for b0 (h 0) / b1 (h 1), step 0, group 0.
__device__ __forceinline__ void load_fragments(Fragments& f, const unsigned char* stage, int step,
                                               int a_offset, int a_chunk,
                                               const int (&b_offset)[2]) {
    // ldmatrix.x4: lanes 8j..8j+7 address matrix j = rows (8 (j % 2) + lane % 8), logical
    // chunk 2 step + j / 2; register j comes back as a0..a3 (matrix j holds rows 8 (j % 2)..,
    // k columns 4 (j / 2)..; lane (g, t) receives its row g, word t).
    const int a_row = a_offset + ((a_chunk ^ (2 * step)) * kChunk);
#pragma unroll
    for (int i = 0; i < kTilesM; ++i) {
        std::uint32_t raw[4];
        ptx::ldmatrix_x4(raw, stage + a_row + i * kMmaM * kARowBytes);
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            f.a[i][r] = ptx::to_tf32(__uint_as_float(raw[r]));
        }
    }
#pragma unroll
    for (int grp = 0; grp < kGroupsN; ++grp) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const float4 v =
                *reinterpret_cast<const float4*>(stage + kAStageBytes + b_offset[h] +
                                                 step * kMmaK * kBRowBytes + grp * kGroupCols * 4);
            f.b[grp][h][0] = ptx::to_tf32(v.x);
            f.b[grp][h][1] = ptx::to_tf32(v.y);
            f.b[grp][h][2] = ptx::to_tf32(v.z);
            f.b[grp][h][3] = ptx::to_tf32(v.w);
        }
    }
}

// One k8 step of the warp tile: 4 x 8 mma.sync.
__device__ __forceinline__ void multiply(float (&acc)[kTilesM][kGroupsN][kTilesPerGroup][4],
                                         const Fragments& f) {
#pragma unroll
    for (int i = 0; i < kTilesM; ++i) {
#pragma unroll
        for (int grp = 0; grp < kGroupsN; ++grp) {
#pragma unroll
            for (int j = 0; j < kTilesPerGroup; ++j) {
                const std::uint32_t b[2] = {f.b[grp][0][j], f.b[grp][1][j]};
                ptx::mma_m16n8k8_tf32(acc[i][grp][j], f.a[i], b);
            }
        }
    }
}

// One block computes the C tile that the grouped block order gives blockIdx.x.
// Preconditions: K % 4 == 0, N % 4 == 0, M, N, K <= 2^30, pointers 16-byte aligned.
__global__ void __launch_bounds__(kThreads, kBlocksPerSm)
    mma_tf32_tuned(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                   int m, int n, int k) {
    extern __shared__ __align__(128) unsigned char smem[];

    const int tid = static_cast<int>(threadIdx.x);
    const int warp = tid / 32;
    const int lane = tid % 32;
    const int g = lane / 4;
    const int t = lane % 4;

    // Block order: groups of kRasterRows tile rows; inside a group, down a column first.
    const int tiles_m = (m + kBlockM - 1) / kBlockM;
    const int tiles_n = (n + kBlockN - 1) / kBlockN;
    const int per_group = kRasterRows * tiles_n;
    const int block = static_cast<int>(blockIdx.x);
    const int first_row = block / per_group * kRasterRows;
    const int group_rows = min(tiles_m - first_row, kRasterRows);
    const int in_group = block % per_group;
    const int block_row = (first_row + in_group % group_rows) * kBlockM;
    const int block_col = in_group / group_rows * kBlockN;

    // cp.async sources and destinations (byte offsets in a stage), see load_tile below.
    const int a_copy_chunk = tid % kAChunksPerRow;
    const int a_copy_row = tid / kAChunksPerRow;
    const int a_copy_dst =
        a_copy_row * kARowBytes + ((a_copy_chunk ^ (a_copy_row % kSwizzleRows)) * kChunk);
    const float* a_copy_src =
        a + (static_cast<std::int64_t>(block_row + a_copy_row) * k + a_copy_chunk * kChunkFloats);
    unsigned a_rows_inside = 0;  // bit p: row a_copy_row + 16 p of the tile is inside A
#pragma unroll
    for (int p = 0; p < kACopies; ++p) {
        a_rows_inside |= (block_row + a_copy_row + p * kARowStep < m ? 1u : 0u) << p;
    }
    const int b_copy_chunk = tid % kBChunksPerRow;
    const int b_copy_row = tid / kBChunksPerRow;
    const bool b_col_inside = block_col + b_copy_chunk * kChunkFloats < n;
    const float* b_copy_src =
        b + (static_cast<std::int64_t>(b_copy_row) * n + block_col + b_copy_chunk * kChunkFloats);

    // Copies K tile `tile` into stage `stage`, zero-filling chunks outside A and B.
    //   A: (thread, p) -> tile row a_copy_row + 16 p, chunk a_copy_chunk (8 lanes = one row)
    //   B: (thread, p) -> tile row b_copy_row + 4 p, chunk b_copy_chunk (32 lanes = one row)
    auto load_tile = [&](int tile, int stage) {
        unsigned char* dst = smem + stage * kStageBytes;
        const int k0 = tile * kBlockK;
        const bool a_col_inside = k0 + a_copy_chunk * kChunkFloats < k;
        // Unrolled by 2, not fully: the fully unrolled copies hit 255 registers and spill on sm_80.
#pragma unroll 2
        for (int p = 0; p < kACopies; ++p) {
            const bool inside = a_col_inside && ((a_rows_inside >> p) & 1u) != 0;
            const float* src =
                inside ? a_copy_src + (static_cast<std::int64_t>(p * kARowStep) * k + k0) : a;
            ptx::cp_async_16(dst + a_copy_dst + p * kARowStep * kARowBytes, src, inside ? 16 : 0);
        }
#pragma unroll 2
        for (int p = 0; p < kBCopies; ++p) {
            const int row = b_copy_row + p * kBRowStep;
            const bool inside = b_col_inside && k0 + row < k;
            const float* src =
                inside ? b_copy_src + static_cast<std::int64_t>(k0 + p * kBRowStep) * n : b;
            const int chunk = b_copy_chunk ^ (row % kSwizzleRows);
            ptx::cp_async_16(dst + kAStageBytes + row * kBRowBytes + chunk * kChunk, src,
                             inside ? 16 : 0);
        }
    };

    // Fragment addresses (byte offsets in a stage) for k8 step 0.
    const int warp_row = warp / kWarpsN * kWarpM;  // in the block tile
    const int warp_col = warp % kWarpsN * kWarpN;
    // ldmatrix: lane -> A tile row warp_row + 8 ((lane / 8) % 2) + lane % 8, logical chunk
    // lane / 16 (+ 2 step); stored at that chunk ^ (lane % 8), the row's phase.
    const int a_offset = (warp_row + 8 * ((lane / 8) % 2) + lane % 8) * kARowBytes;
    const int a_chunk = (lane / 16) ^ (lane % 8);
    // B word of lane (g, t), h: row t + 4h, logical chunk warp_col / 4 + q(g) (group 0).
    const int q = g / 2 + 4 * (g % 2);
    const int b_offset[2] = {
        t * kBRowBytes + ((warp_col / kChunkFloats + (q ^ t)) * kChunk),
        (t + 4) * kBRowBytes + ((warp_col / kChunkFloats + (q ^ (t + 4))) * kChunk),
    };

    float acc[kTilesM][kGroupsN][kTilesPerGroup][4] = {};
    Fragments frag[2];

    const int k_tiles = (k + kBlockK - 1) / kBlockK;
#pragma unroll
    for (int s = 0; s < kStages - 1; ++s) {
        if (s < k_tiles) {
            load_tile(s, s);
        }
        ptx::cp_async_commit();
    }
    ptx::cp_async_wait<kStages - 2>();
    __syncthreads();
    load_fragments(frag[0], smem, 0, a_offset, a_chunk, b_offset);

    int read_stage = 0;             // stage of K tile `tile`
    int write_stage = kStages - 1;  // stage of K tile `tile + kStages - 1`
#pragma unroll 1
    for (int tile = 0; tile < k_tiles; ++tile) {
#pragma unroll
        for (int step = 0; step < kStepsK; ++step) {
            if (step == kStepsK - 1) {
                // Tile + 1 has landed for every thread; it may be read from here on.
                ptx::cp_async_wait<kStages - 2>();
                __syncthreads();
                read_stage = read_stage + 1 == kStages ? 0 : read_stage + 1;
            }
            load_fragments(frag[(step + 1) % 2], smem + read_stage * kStageBytes,
                           (step + 1) % kStepsK, a_offset, a_chunk, b_offset);
            if (step == 0) {
                if (tile + kStages - 1 < k_tiles) {
                    load_tile(tile + kStages - 1, write_stage);
                }
                ptx::cp_async_commit();
                write_stage = write_stage + 1 == kStages ? 0 : write_stage + 1;
            }
            multiply(acc, frag[step % 2]);
        }
    }

    // (i, group, tile j, c0..c3) -> C row warp_row + 16 i + g (+8 for c2, c3), col warp_col +
    // 32 group + 4t + j (+16 for c1, c3): tiles j = 0..3 make one float4.
#pragma unroll
    for (int i = 0; i < kTilesM; ++i) {
#pragma unroll
        for (int grp = 0; grp < kGroupsN; ++grp) {
#pragma unroll
            for (int r = 0; r < 4; ++r) {
                const int row = block_row + warp_row + i * kMmaM + g + 8 * (r / 2);
                const int col = block_col + warp_col + grp * kGroupCols + 4 * t + 16 * (r % 2);
                if (row < m && col < n) {
                    const float(&v)[kTilesPerGroup][4] = acc[i][grp];
                    *reinterpret_cast<float4*>(c + (static_cast<std::int64_t>(row) * n + col)) =
                        make_float4(v[0][r], v[1][r], v[2][r], v[3][r]);
                }
            }
        }
    }
}

std::string mma_tf32_tuned_can_run(const GemmProblem& problem) {
    if (problem.m > kMaxDim || problem.n > kMaxDim || problem.k > kMaxDim) {
        return "M, N and K are 32-bit ints in the kernel: each must be at most 1073741824";
    }
    if (problem.k % 4 != 0) {
        return "K must be a multiple of 4: A rows are copied in 16-byte (4 x f32) cp.async pieces";
    }
    if (problem.n % 4 != 0) {
        return "N must be a multiple of 4: B rows are copied in 16-byte (4 x f32) cp.async pieces";
    }
    const std::int64_t tiles =
        (problem.m + kBlockM - 1) / kBlockM * ((problem.n + kBlockN - 1) / kBlockN);
    if (tiles > INT_MAX) {
        return "C has more than 2147483647 tiles of 128 x 128: one block each, gridDim.x limit";
    }
    return "";
}

cudaError_t mma_tf32_tuned_launch(const GemmOperands& operands, cudaStream_t stream) {
    cudaError_t status = cudaFuncSetAttribute(
        mma_tf32_tuned, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
    if (status == cudaSuccess) {
        // Two 96 KiB blocks per SM need the largest shared-memory carveout.
        status =
            cudaFuncSetAttribute(mma_tf32_tuned, cudaFuncAttributePreferredSharedMemoryCarveout,
                                 cudaSharedmemCarveoutMaxShared);
    }
    if (status != cudaSuccess) {
        return status;
    }
    const int m = static_cast<int>(operands.problem.m);
    const int n = static_cast<int>(operands.problem.n);
    const int k = static_cast<int>(operands.problem.k);
    const int tiles = (m + kBlockM - 1) / kBlockM * ((n + kBlockN - 1) / kBlockN);
    mma_tf32_tuned<<<tiles, kThreads, kSmemBytes, stream>>>(static_cast<const float*>(operands.a),
                                                            static_cast<const float*>(operands.b),
                                                            operands.c, m, n, k);
    return cudaGetLastError();
}

}  // namespace

KernelDescriptor mma_tf32_tuned_kernel() {
    KernelDescriptor d;
    d.id = "mma_tf32_tuned";
    d.rung = 6;
    d.title = "mma.sync tf32, 64x64 warp tiles, XOR swizzle, 3-stage cp.async";
    d.adds =
        "64x64 warp tiles, conflict-free XOR-swizzled smem (ldmatrix for A, 16-byte loads for B), "
        "a 3-stage cp.async ring and double-buffered fragments: aims past cuBLAS SGEMM";
    d.precision = Precision::kTF32;
    d.block_tile = {kBlockM, kBlockN, kBlockK};
    d.warp_tile = {kWarpM, kWarpN, 0};
    d.thread_tile = {0, 0, 0};
    d.mma_tile = {kMmaM, kMmaN, kMmaK};
    d.stages = kStages;
    d.swizzle = "xor";
    d.layout_ids = {"mma.m16n8k8.tf32", "ldmatrix.x4"};
    d.threads = kThreads;
    d.dynamic_smem_bytes = kSmemBytes;
    d.min_sm = 80;
    d.reference_id = "cublas.tf32";
    d.can_run = mma_tf32_tuned_can_run;
    d.launch = mma_tf32_tuned_launch;
    return d;
}

}  // namespace tclens::kernels
