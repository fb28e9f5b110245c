// Rung 8: rung 7's mma.sync + ldmatrix + XOR swizzle, fed by a 4-stage cp.async pipeline, with
// 64 x 64 warp tiles, fragment double buffering and a swizzled block order (kernel 3.1 of Sam
// Patterson's Ada article, spatters.ca/mma-matmul, at the tile sizes of CUTLASS's sm80 f16
// 128 x 256 x 64 configuration).
//
// Adds to rung 7:
//   - cp.async: global -> shared copies that bypass registers and run in the background; a ring
//     of 4 shared-memory stages keeps 3 K steps in flight while the tensor cores work on one.
//   - bigger tiles: 128 x 256 per block and 64 x 64 per warp, so each byte brought into shared
//     memory feeds more mma (85 flop per loaded byte per block, was 64; 4 mma per ldmatrix per
//     warp, was 2.7).
//   - fragments double-buffered in registers: ldmatrix of k16 step s + 1 is issued before the
//     mma of step s, so shared-memory latency hides behind the tensor cores.
//   - rasterisation: consecutive block ids cover a 16 x (grid width) band of tiles column by
//     column, so blocks running together share A and B tiles in L2.
//
// Tiling: 256 threads = 8 warps, 2 along M x 4 along N; block tile 128 x 256, K step 64.
//   warp w -> C rows 64 * (w / 4) .. +63, cols 64 * (w % 4) .. +63 of the block tile:
//   4 x 8 tiles of m16n8, 128 f32 accumulators per thread. Per k16 step a warp issues
//   4 ldmatrix.x4 (A), 4 ldmatrix.x4.trans (B) and 32 mma.
//
// Shared memory (dynamic, 4 stages x 48 KiB = 192 KiB: needs the opt-in above 48 KiB and a GPU
// with that much per block, e.g. H100 (227 KiB); A100 gives 163 KiB and Ada 99 KiB, and there
// launch returns the cudaFuncSetAttribute error). Stage s:
//   A tile at s * 48 KiB: 128 rows (m) x 64 elements (k) = 128 bytes = 8 chunks per row;
//   B tile 16 KiB later:   64 rows (k) x 256 elements (n) = 512 bytes = 32 chunks per row.
//   Swizzle "xor": logical chunk c of row r is stored at chunk c ^ (r % 8), i.e. permuted inside
//   each group of 8 chunks (128 bytes). ldmatrix phases (8 rows at one logical chunk) and
//   cp.async phases (8 consecutive chunks of one row) both cover all 32 banks once.
//
// Pipeline, K tile kt lives in stage kt % 4. One cp.async group per K tile, committed in tile
// order (an empty group where the tile is past K), so "tile kt has landed" is wait_group(2)
// once the group of tile kt + 2 is committed:
//   prologue: copy tiles 0, 1, 2; wait until tile 0 has landed; barrier; load k16 fragments 0.
//   tile kt, k16 step s = 0..3:
//     ldmatrix fragments of step s + 1 (for s = 3: step 0 of tile kt + 1, next stage);
//     s < 3: copy a third of tile kt + 3 into stage (kt + 3) % 4 = (kt - 1) % 4;
//     32 mma on the fragments of step s;
//     s = 2: commit tile kt + 3; wait until tile kt + 1 has landed; barrier.
//   The barrier at s = 2 of tile kt - 1 orders every ldmatrix of stage (kt - 1) % 4 (the last
//   one is issued at s = 2) before the copies of tile kt + 3 overwrite it, and makes tile kt
//   (waited for by every thread) visible to all warps before its first ldmatrix.
//
// Edges: K % 8 == 0 and N % 8 == 0 (can_run), so each 16-byte chunk of an A or B row is wholly
// inside or outside the matrix (and 16-byte aligned); chunks outside are zero-filled by
// cp.async (src_bytes 0, source clamped to the matrix's start), so partial tiles add nothing.
// C stores are guarded per float2 (N even: aligned). Operand pointers must be 16-byte aligned
// (cudaMalloc gives 256).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "kernels/ladder.h"
#include "kernels/ptx.cuh"

namespace tclens::kernels {
namespace {

constexpr int kBlockM = 128;
constexpr int kBlockN = 256;
constexpr int kBlockK = 64;
constexpr int kStages = 4;
constexpr int kWarpsM = 2;
constexpr int kWarpsN = 4;
constexpr int kThreads = 32 * kWarpsM * kWarpsN;
constexpr int kWarpM = kBlockM / kWarpsM;  // 64
constexpr int kWarpN = kBlockN / kWarpsN;  // 64
constexpr int kMmaM = 16;
constexpr int kMmaN = 8;
constexpr int kMmaK = 16;
constexpr int kTilesM = kWarpM / kMmaM;    // 4 m16 tiles per warp
constexpr int kTilesN = kWarpN / kMmaN;    // 8 n8 tiles per warp
constexpr int kSteps = kBlockK / kMmaK;    // 4 k16 steps per K tile
constexpr int kGroupM = 16;                // tile rows per rasterisation band

constexpr int kChunkBytes = 16;
constexpr int kChunkElems = kChunkBytes / 2;              // 8 f16/bf16 elements
constexpr int kARowBytes = kBlockK * 2;                   // 128
constexpr int kBRowBytes = kBlockN * 2;                   // 512
constexpr int kAChunksPerRow = kARowBytes / kChunkBytes;  // 8
constexpr int kBChunksPerRow = kBRowBytes / kChunkBytes;  // 32
constexpr int kARowStep = kThreads / kAChunksPerRow;      // 32 rows between a thread's chunks
constexpr int kBRowStep = kThreads / kBChunksPerRow;      // 8
constexpr int kAChunks = kBlockM / kARowStep;             // 4 A chunks per thread per tile
constexpr int kBChunks = kBlockK / kBRowStep;             // 8 B chunks per thread per tile
constexpr int kCopySlices = kSteps - 1;                   // a tile's copies spread over s = 0..2
constexpr int kChunksPerSlice = (kAChunks + kBChunks) / kCopySlices;  // 4
constexpr int kXorRows = 8;                               // chunk c of row r -> c ^ (r % 8)

constexpr int kATileBytes = kBlockM * kARowBytes;         // 16 KiB
constexpr int kBTileBytes = kBlockK * kBRowBytes;         // 32 KiB
constexpr int kStageBytes = kATileBytes + kBTileBytes;    // 48 KiB
constexpr int kSmemBytes = kStages * kStageBytes;         // 192 KiB
constexpr std::int64_t kMaxDim = std::int64_t{1} << 30;
constexpr std::int64_t kMaxBlocks = 2147483647;

static_assert(kAChunksPerRow == kXorRows, "A rows must be 128 bytes for the 8-row XOR");
static_assert(kBChunksPerRow % kXorRows == 0, "B rows must be whole groups of 8 chunks");
static_assert(kARowStep % kXorRows == 0 && kBRowStep % kXorRows == 0,
              "a thread's chunks share one XOR key");
static_assert(kWarpN / kChunkElems == kXorRows, "a warp's B columns are one group of 8 chunks");
static_assert((kAChunks + kBChunks) % kCopySlices == 0 && kAChunks == kChunksPerSlice,
              "slice 0 is the A tile, slices 1 and 2 halves of the B tile");

// d += a * b on m16n8k16 with f32 accumulators; Element is __half or __nv_bfloat16.
template <typename Element>
__device__ __forceinline__ void mma_m16n8k16(float (&d)[4], const std::uint32_t (&a)[4],
                                             const std::uint32_t (&b)[2]) {
    if constexpr (std::is_same_v<Element, __half>) {
        ptx::mma_m16n8k16_f16(d, a, b);
    } else {
        ptx::mma_m16n8k16_bf16(d, a, b);
    }
}

// Block id -> (tile row, tile col) of C. Ids run down a band of kGroupM tile rows, then along
// it: ids 0..15 are column 0 of rows 0..15, ids 16..31 column 1, ...; the last band may be
// narrower. Worked example, 32 x 16 tiles: id 37 -> band 0, row 37 % 16 = 5, col 37 / 16 = 2.
__device__ __forceinline__ void rasterise(int id, int tiles_m, int tiles_n, int& tile_m,
                                          int& tile_n) {
    const int band_blocks = kGroupM * tiles_n;
    const int band = id / band_blocks;
    const int first_row = band * kGroupM;
    const int rows = min(tiles_m - first_row, kGroupM);
    const int in_band = id - band * band_blocks;
    tile_m = first_row + in_band % rows;
    tile_n = in_band / rows;
}

// One thread's share of the global -> shared copies of a K tile: 4 A chunks and 8 B chunks,
// each 16 bytes, issued as 3 slices of 4 (slice 0 = A, slices 1, 2 = B chunks 0..3, 4..7).
//   A chunk i: tile row a_row + 32 i, chunk a_chunk;  B chunk i: tile row b_row + 8 i, chunk
//   b_chunk. 8 consecutive threads copy 8 consecutive chunks of one row (128 bytes).
// Tiles are copied in order 0, 1, 2, ...: next_tile() moves the sources on by one K tile.
template <typename Element>
class TileCopier {
  public:
    __device__ __forceinline__ TileCopier(const Element* a, const Element* b, int m, int n, int k,
                                          int block_m, int block_n, int tid)
        : a_base_(a), b_base_(b), k_(k), n_(n) {
        const int a_row = tid / kAChunksPerRow;
        const int a_chunk = tid % kAChunksPerRow;
        const int b_row = tid / kBChunksPerRow;
        const int b_chunk = tid % kBChunksPerRow;
        a_src_ = a + static_cast<std::int64_t>(block_m + a_row) * k + a_chunk * kChunkElems;
        b_src_ = b + static_cast<std::int64_t>(b_row) * n + block_n + b_chunk * kChunkElems;
        a_rows_left_ = m - (block_m + a_row);
        a_cols_left_ = k - a_chunk * kChunkElems;
        b_rows_left_ = block_n + b_chunk * kChunkElems < n ? k - b_row : 0;
        a_dst_ = a_row * kARowBytes + (a_chunk ^ (a_row % kXorRows)) * kChunkBytes;
        b_dst_ = kATileBytes + b_row * kBRowBytes + (b_chunk ^ (b_row % kXorRows)) * kChunkBytes;
    }

    // Copies slice `slice` of the current K tile into the stage at `stage`.
    __device__ __forceinline__ void copy(unsigned char* stage, int slice) const {
        if (slice == 0) {
#pragma unroll
            for (int i = 0; i < kAChunks; ++i) {
                const bool inside = kARowStep * i < a_rows_left_ && a_cols_left_ > 0;
                const Element* src = a_src_ + static_cast<std::int64_t>(kARowStep * i) * k_;
                ptx::cp_async_16(stage + a_dst_ + i * kARowStep * kARowBytes,
                                 inside ? src : a_base_, inside ? kChunkBytes : 0);
            }
        } else {
            const int first = (slice - 1) * kChunksPerSlice;
#pragma unroll
            for (int i = first; i < first + kChunksPerSlice; ++i) {
                const bool inside = kBRowStep * i < b_rows_left_;
                const Element* src = b_src_ + static_cast<std::int64_t>(kBRowStep * i) * n_;
                ptx::cp_async_16(stage + b_dst_ + i * kBRowStep * kBRowBytes,
                                 inside ? src : b_base_, inside ? kChunkBytes : 0);
            }
        }
    }

    __device__ __forceinline__ void next_tile() {
        a_src_ += kBlockK;
        b_src_ += static_cast<std::int64_t>(kBlockK) * n_;
        a_cols_left_ -= kBlockK;
        b_rows_left_ -= kBlockK;
    }

  private:
    const Element* a_base_;  // a chunk outside the matrix reads nothing; its source is A(0, 0)
    const Element* b_base_;
    int k_;
    int n_;
    const Element* a_src_;  // chunk 0 of the current tile
    const Element* b_src_;
    int a_rows_left_;  // A rows from chunk 0's row to the end of A (chunk i is inside if > 32 i)
    int a_cols_left_;  // A columns from the current tile's chunk to the end of the row
    int b_rows_left_;  // B rows from the current tile's chunk 0 to the end of B; 0 past N
    std::uint32_t a_dst_;  // byte offset of chunk 0 in a stage, XOR applied
    std::uint32_t b_dst_;
};

// A warp's fragments of one k16 step: 4 m16 x k16 A tiles, 8 k16 x n8 B tiles.
struct Fragments {
    std::uint32_t a[kTilesM][4];
    std::uint32_t b[kTilesN / 2][4];  // one ldmatrix.x4.trans = b0, b1 of two n8 tiles
};

// ldmatrix address lanes: lane = 8 j + r supplies row r of matrix j.
//   A (x4): matrix j = rows 8 (j & 1) .., k 8 (j >> 1) .. of an m16 x k16 tile, so registers
//     0..3 are a0..a3 of m16n8k16: (lane, reg j) -> (g + 8 (j & 1), 2t + 8 (j >> 1) + {0, 1}),
//     g = lane / 4, t = lane % 4.
//   B (x4.trans): matrix j = k rows 8 (j & 1) .., n 8 (j >> 1) .. of a k16 x n16 tile;
//     registers 0, 1 are b0, b1 of the first n8 tile, 2, 3 of the second:
//     (lane, reg j) -> (k = 2t + 8 (j & 1) + {0, 1}, n = g + 8 (j >> 1)).
// Every row a lane addresses is a multiple of 8 plus lane % 8, so its XOR key is lane % 8 and
// the swizzled chunk of logical chunk (8 q + c) is 8 q + (c ^ key); kWarpN is one 8-chunk
// group of B, and a row of A is one group. Offsets are bytes within a stage.
struct FragmentAddresses {
    std::uint32_t a_row;  // (warp_m * 64 + lane's row in the m16 tile) * 128
    std::uint32_t a_key;  // ((lane / 16) ^ (lane % 8)) * 16: chunk of k16 step 0, swizzled
    std::uint32_t b_row;  // A tile + (lane's k row in the k16 step) * 512 + warp's 8-chunk group
    std::uint32_t b_key;  // ((lane / 16) ^ (lane % 8)) * 16: chunk of n16 pair 0, swizzled

    __device__ __forceinline__ FragmentAddresses(int warp_m, int warp_n, int lane) {
        const int key = lane % kXorRows;
        const int matrix_row = key + 8 * ((lane / 8) % 2);
        const std::uint32_t swizzled = ((lane / 16) ^ key) * kChunkBytes;
        a_row = (warp_m * kWarpM + matrix_row) * kARowBytes;
        a_key = swizzled;
        b_row = kATileBytes + matrix_row * kBRowBytes + warp_n * kWarpN * 2;
        b_key = swizzled;
    }

    // Logical chunk 2 s (+ 1 for lanes 16..31) of A row group mt; chunk 2 pair (+ 1) of B.
    __device__ __forceinline__ void load(Fragments& f, const unsigned char* stage,
                                         int step) const {
#pragma unroll
        for (int mt = 0; mt < kTilesM; ++mt) {
            ptx::ldmatrix_x4(f.a[mt], stage + a_row + mt * kMmaM * kARowBytes +
                                          (a_key ^ (2 * step * kChunkBytes)));
        }
#pragma unroll
        for (int pair = 0; pair < kTilesN / 2; ++pair) {
            ptx::ldmatrix_x4_trans(f.b[pair], stage + b_row + step * kMmaK * kBRowBytes +
                                                  (b_key ^ (2 * pair * kChunkBytes)));
        }
    }
};

// The 32 mma of one k16 step. n runs back and forth (serpentine) so that the mma on either side
// of a turn share their B fragment, which the operand reuse cache can then keep.
template <typename Element>
__device__ __forceinline__ void mma_step(float (&acc)[kTilesM][kTilesN][4], const Fragments& f) {
#pragma unroll
    for (int mt = 0; mt < kTilesM; ++mt) {
#pragma unroll
        for (int j = 0; j < kTilesN; ++j) {
            const int nt = mt % 2 == 0 ? j : kTilesN - 1 - j;
            const std::uint32_t b_pair[2] = {f.b[nt / 2][2 * (nt % 2)],
                                             f.b[nt / 2][2 * (nt % 2) + 1]};
            mma_m16n8k16<Element>(acc[mt][nt], f.a[mt], b_pair);
        }
    }
}

template <typename Element>
__global__ void __launch_bounds__(kThreads, 1)
    mma_cp_async_gemm(const Element* __restrict__ a, const Element* __restrict__ b,
                      float* __restrict__ c, int m, int n, int k, int tiles_m, int tiles_n) {
    extern __shared__ __align__(128) unsigned char smem[];

    const int tid = threadIdx.x;
    const int lane = tid % 32;
    const int warp = tid / 32;
    const int warp_m = warp / kWarpsN;
    const int warp_n = warp % kWarpsN;
    int tile_m = 0;
    int tile_n = 0;
    rasterise(blockIdx.x, tiles_m, tiles_n, tile_m, tile_n);
    const int block_m = tile_m * kBlockM;
    const int block_n = tile_n * kBlockN;
    const int k_tiles = (k + kBlockK - 1) / kBlockK;

    TileCopier<Element> copier(a, b, m, n, k, block_m, block_n, tid);
    const FragmentAddresses addresses(warp_m, warp_n, lane);

#pragma unroll
    for (int tile = 0; tile < kStages - 1; ++tile) {
        if (tile < k_tiles) {
#pragma unroll
            for (int slice = 0; slice < kCopySlices; ++slice) {
                copier.copy(smem + tile * kStageBytes, slice);
            }
            copier.next_tile();
        }
        ptx::cp_async_commit();
    }
    ptx::cp_async_wait<kStages - 2>();
    __syncthreads();

    float acc[kTilesM][kTilesN][4] = {};
    Fragments frag[2];
    addresses.load(frag[0], smem, 0);

    int read_stage = 0;                             // byte offset of tile kt's stage
    int write_stage = (kStages - 1) * kStageBytes;  // of tile kt + 3's, i.e. tile kt - 1's
    for (int kt = 0; kt < k_tiles; ++kt) {
        const int copy_tile = kt + kStages - 1;
#pragma unroll
        for (int step = 0; step < kSteps; ++step) {
            addresses.load(frag[(step + 1) % 2], smem + read_stage, (step + 1) % kSteps);
            if (step < kCopySlices && copy_tile < k_tiles) {
                copier.copy(smem + write_stage, step);
            }
            mma_step<Element>(acc, frag[step % 2]);
            if (step == kSteps - 2) {
                copier.next_tile();
                ptx::cp_async_commit();
                ptx::cp_async_wait<kStages - 2>();
                __syncthreads();
                read_stage = read_stage == kSmemBytes - kStageBytes ? 0 : read_stage + kStageBytes;
                write_stage =
                    write_stage == kSmemBytes - kStageBytes ? 0 : write_stage + kStageBytes;
            }
        }
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

std::int64_t tile_count(std::int64_t extent, int tile) { return (extent + tile - 1) / tile; }

std::string mma_cp_async_can_run(const GemmProblem& problem) {
    if (problem.m > kMaxDim || problem.n > kMaxDim || problem.k > kMaxDim) {
        return "M, N and K are 32-bit ints in the kernel: each must be at most 1073741824";
    }
    if (problem.k % kChunkElems != 0) {
        return "K must be a multiple of 8: A rows are copied in 16-byte pieces";
    }
    if (problem.n % kChunkElems != 0) {
        return "N must be a multiple of 8: B rows are copied in 16-byte pieces";
    }
    if (tile_count(problem.m, kBlockM) * tile_count(problem.n, kBlockN) > kMaxBlocks) {
        return "C has more than 2147483647 tiles of 128 x 256: one block each, gridDim.x limit";
    }
    return "";
}

template <typename Element>
cudaError_t mma_cp_async_launch(const GemmOperands& operands, cudaStream_t stream) {
    const GemmProblem& p = operands.problem;
    const auto kernel = mma_cp_async_gemm<Element>;
    const cudaError_t status =
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes);
    if (status != cudaSuccess) {
        return status;
    }
    const int tiles_m = static_cast<int>(tile_count(p.m, kBlockM));
    const int tiles_n = static_cast<int>(tile_count(p.n, kBlockN));
    kernel<<<static_cast<unsigned>(std::int64_t{tiles_m} * tiles_n), kThreads, kSmemBytes,
             stream>>>(static_cast<const Element*>(operands.a),
                       static_cast<const Element*>(operands.b), operands.c,
                       static_cast<int>(p.m), static_cast<int>(p.n), static_cast<int>(p.k),
                       tiles_m, tiles_n);
    return cudaGetLastError();
}

// The descriptor for a precision this rung does not have (f32, tf32): it refuses every problem.
std::string wrong_precision_can_run(const GemmProblem&) {
    return "mma_cp_async takes f16 or bf16 inputs only";
}
cudaError_t wrong_precision_launch(const GemmOperands&, cudaStream_t) {
    return cudaErrorInvalidValue;
}

}  // namespace

// kF16 and kBF16 give "mma_cp_async.f16" / ".bf16". Any other precision violates the
// precondition; it gets a descriptor with an empty id whose can_run refuses every problem and
// whose launch returns cudaErrorInvalidValue.
KernelDescriptor mma_cp_async_kernel(Precision precision) {
    KernelDescriptor d;
    d.rung = 8;
    d.title = "mma.sync + 4-stage cp.async pipeline, 128 x 256 tiles";
    d.adds = "a 4-stage cp.async ring in 192 KiB of shared memory, 64 x 64 warp tiles with "
             "double-buffered fragments, and an L2-friendly block order";
    d.precision = precision;
    d.block_tile = {kBlockM, kBlockN, kBlockK};
    d.warp_tile = {kWarpM, kWarpN, 0};
    d.thread_tile = {0, 0, 0};
    d.mma_tile = {kMmaM, kMmaN, kMmaK};
    d.stages = kStages;
    d.swizzle = "xor";
    d.threads = kThreads;
    d.dynamic_smem_bytes = kSmemBytes;
    d.min_sm = 80;
    switch (precision) {
        case Precision::kF16:
            d.id = "mma_cp_async.f16";
            d.layout_ids = {"mma.m16n8k16.f16", "ldmatrix.x4", "ldmatrix.x4.trans"};
            d.reference_id = "cublas.f16";
            d.can_run = mma_cp_async_can_run;
            d.launch = mma_cp_async_launch<__half>;
            break;
        case Precision::kBF16:
            d.id = "mma_cp_async.bf16";
            d.layout_ids = {"mma.m16n8k16.bf16", "ldmatrix.x4", "ldmatrix.x4.trans"};
            d.reference_id = "cublas.bf16";
            d.can_run = mma_cp_async_can_run;
            d.launch = mma_cp_async_launch<__nv_bfloat16>;
            break;
        case Precision::kF32:
        case Precision::kTF32:
            d.can_run = wrong_precision_can_run;
            d.launch = wrong_precision_launch;
            break;
    }
    return d;
}

}  // namespace tclens::kernels
