// Rung 8: rung 7's mma.sync + ldmatrix + XOR swizzle, fed by a multi-stage cp.async pipeline,
// with 64 x 64 warp tiles, fragment double buffering and a swizzled block order. The cp.async
// ring and the bigger block tiles are those of kernel 3.1 of the same Ada write-up as rung 7
// (spatters.ca/mma-matmul: 3 stages, 128 x 128 tiles there); the default tiles here are
// 128 x 256 x 64 per block.
//
// Adds to rung 7:
//   - cp.async: global -> shared copies that bypass registers and run in the background; a ring
//     of kStages shared-memory stages keeps kStages - 1 K steps in flight while the tensor cores
//     work on one.
//   - bigger tiles: 128 x 256 per block and 64 x 64 per warp, so each byte brought into shared
//     memory feeds more mma (85 flop per loaded byte per block, was 64; 4 mma per ldmatrix per
//     warp, was 2.7).
//   - fragments double-buffered in registers: ldmatrix of k16 step s + 1 is issued before the
//     mma of step s, so shared-memory latency hides behind the tensor cores.
//   - rasterisation: consecutive block ids cover a kGroupM x (grid width) band of tiles column
//     by column, so blocks running together share A and B tiles in L2.
//
// Tunables: TileConfig below (block tile, warp grid, stages, raster band, blocks per SM, order
// of a k16 step's instructions); the descriptor instantiates ChosenConfig. Numbers below are
// those of ChosenConfig: 128 x 256 x 64 block tile, 2 x 4 warps, 4 stages, 16-row bands, one
// block per SM, loads first.
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
// Pipeline, K tile kt lives in stage kt % kStages. One cp.async group per K tile, committed in
// tile order (an empty group where the tile is past K), so "tile kt has landed" is
// wait_group(kStages - 2) once the group of tile kt + kStages - 2 is committed. With 4 stages:
//   prologue: copy tiles 0, 1, 2; wait until tile 0 has landed; barrier; load k16 fragments 0.
//   tile kt, k16 step s = 0..3:
//     ldmatrix fragments of step s + 1 (for s = 3: step 0 of tile kt + 1, next stage);
//     s < 3: copy a third of tile kt + 3 into stage (kt + 3) % 4 = (kt - 1) % 4;
//     32 mma on the fragments of step s;
//     s = 2: commit tile kt + 3; wait until tile kt + 1 has landed; barrier.
//   (StepOrder::kInterleaved issues the same ldmatrix and copies of step s in kTilesM pieces,
//   one before each row of 8 mma, instead of all before the 32 mma.)
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

#include "kernels/08_mma_cp_async.h"
#include "kernels/ladder_launches.h"
#include "kernels/ptx.cuh"
#include "kernels/sixteen_bit_launch.h"
#include "kernels/smem_opt_in.h"
#include "kernels/trace.cuh"

namespace tclens::kernels {
namespace {

using namespace mma_cp_async;

// One thread's share of the global -> shared copies of a K tile: kAChunks A chunks, then
// kBChunks B chunks, each 16 bytes, numbered 0..kChunks - 1 in that order; copy(first, last)
// issues chunks first..last - 1 (ChosenConfig: 4 A + 8 B chunks, as 3 slices of 4: A, B 0..3,
// B 4..7).
//   A chunk i: tile row a_row + kARowStep i, chunk a_chunk;  B chunk i: tile row
//   b_row + kBRowStep i, chunk b_chunk. 8 consecutive threads copy 8 consecutive chunks of one
//   row (128 bytes).
// Tiles are copied in order 0, 1, 2, ...: next_tile() moves the sources on by one K tile.
template <typename Element, typename Config>
class TileCopier {
  public:
    __device__ __forceinline__ TileCopier(const Element* a, const Element* b, int m, int n, int k,
                                          int block_m, int block_n, int tid)
        : a_base_(a), b_base_(b), k_(k), n_(n) {
        const int a_row = tid / Config::kAChunksPerRow;
        const int a_chunk = tid % Config::kAChunksPerRow;
        const int b_row = tid / Config::kBChunksPerRow;
        const int b_chunk = tid % Config::kBChunksPerRow;
        a_src_ = a + static_cast<std::int64_t>(block_m + a_row) * k + a_chunk * kChunkElems;
        b_src_ = b + static_cast<std::int64_t>(b_row) * n + block_n + b_chunk * kChunkElems;
        a_rows_left_ = m - (block_m + a_row);
        a_cols_left_ = k - a_chunk * kChunkElems;
        b_rows_left_ = block_n + b_chunk * kChunkElems < n ? k - b_row : 0;
        a_dst_ = a_row * Config::kARowBytes + (a_chunk ^ (a_row % kXorRows)) * kChunkBytes;
        b_dst_ = Config::kATileBytes + b_row * Config::kBRowBytes +
                 (b_chunk ^ (b_row % kXorRows)) * kChunkBytes;
    }

    // Copies chunks first..last - 1 of the current K tile into the stage at `stage`. Called with
    // compile-time first and last (unrolled loops), so the range test folds away.
    __device__ __forceinline__ void copy(unsigned char* stage, int first, int last) const {
#pragma unroll
        for (int i = 0; i < Config::kChunks; ++i) {
            if (i < first || i >= last) {
                continue;
            }
            if (i < Config::kAChunks) {
                const int row = Config::kARowStep * i;
                const bool inside = row < a_rows_left_ && a_cols_left_ > 0;
                const Element* src = a_src_ + static_cast<std::int64_t>(row) * k_;
                ptx::cp_async_16(stage + a_dst_ + row * Config::kARowBytes, inside ? src : a_base_,
                                 inside ? kChunkBytes : 0);
            } else {
                const int row = Config::kBRowStep * (i - Config::kAChunks);
                const bool inside = row < b_rows_left_;
                const Element* src = b_src_ + static_cast<std::int64_t>(row) * n_;
                ptx::cp_async_16(stage + b_dst_ + row * Config::kBRowBytes, inside ? src : b_base_,
                                 inside ? kChunkBytes : 0);
            }
        }
    }

    __device__ __forceinline__ void next_tile() {
        a_src_ += Config::kBlockK;
        b_src_ += static_cast<std::int64_t>(Config::kBlockK) * n_;
        a_cols_left_ -= Config::kBlockK;
        b_rows_left_ -= Config::kBlockK;
    }

  private:
    const Element* a_base_;  // a chunk outside the matrix reads nothing; its source is A(0, 0)
    const Element* b_base_;
    int k_;
    int n_;
    const Element* a_src_;  // chunk 0 of the current tile
    const Element* b_src_;
    int a_rows_left_;      // A rows from chunk 0's row to the end of A (chunk i: > kARowStep i)
    int a_cols_left_;      // A columns from the current tile's chunk to the end of the row
    int b_rows_left_;      // B rows from the current tile's chunk 0 to the end of B; <= 0 past N
    std::uint32_t a_dst_;  // byte offset of chunk 0 in a stage, XOR applied
    std::uint32_t b_dst_;
};

// A warp's fragments of one k16 step: kTilesM m16 x k16 A tiles, kTilesN k16 x n8 B tiles.
template <typename Config>
struct Fragments {
    std::uint32_t a[Config::kTilesM][4];
    std::uint32_t b[Config::kTilesN / 2][4];  // one ldmatrix.x4.trans = b0, b1 of two n8 tiles
};

// ldmatrix address lanes: lane = 8 j + r supplies row r of matrix j.
//   A (x4): matrix j = rows 8 (j & 1) .., k 8 (j >> 1) .. of an m16 x k16 tile, so registers
//     0..3 are a0..a3 of m16n8k16: (lane, reg j) -> (g + 8 (j & 1), 2t + 8 (j >> 1) + {0, 1}),
//     g = lane / 4, t = lane % 4.
//   B (x4.trans): matrix j = k rows 8 (j & 1) .., n 8 (j >> 1) .. of a k16 x n16 tile;
//     registers 0, 1 are b0, b1 of the first n8 tile, 2, 3 of the second:
//     (lane, reg j) -> (k = 2t + 8 (j & 1) + {0, 1}, n = g + 8 (j >> 1)).
// Every row a lane addresses is a multiple of 8 plus lane % 8, so its XOR key is lane % 8 and
// the swizzled chunk of logical chunk (8 q + c) is 8 q + (c ^ key); a warp's B columns start on
// an 8-chunk group, and a row of A is one group. Offsets are bytes within a stage.
template <typename Config>
struct FragmentAddresses {
    std::uint32_t a_row;  // (warp_m * kWarpM + lane's row in the m16 tile) * 128
    std::uint32_t a_key;  // ((lane / 16) ^ (lane % 8)) * 16: chunk of k16 step 0, swizzled
    std::uint32_t b_row;  // A tile + (lane's k row in the k16 step) * row + warp's first group
    std::uint32_t b_key;  // ((lane / 16) ^ (lane % 8)) * 16: chunk of n16 pair 0, swizzled

    __device__ __forceinline__ FragmentAddresses(int warp_m, int warp_n, int lane) {
        const int key = lane % kXorRows;
        const int matrix_row = key + 8 * ((lane / 8) % 2);
        const std::uint32_t swizzled = ((lane / 16) ^ key) * kChunkBytes;
        a_row = (warp_m * Config::kWarpM + matrix_row) * Config::kARowBytes;
        a_key = swizzled;
        b_row = Config::kATileBytes + matrix_row * Config::kBRowBytes + warp_n * Config::kWarpN * 2;
        b_key = swizzled;
    }

    // ldmatrix number first..last - 1 of k16 step `step` (0..kTilesM - 1: A tile mt, then the
    // B n16 pairs): logical chunk 2 step (+ 1 for lanes 16..31) of A row group mt; chunk
    // 2 pair (+ 1) of B. Called with compile-time first and last.
    __device__ __forceinline__ void load(Fragments<Config>& f, const unsigned char* stage, int step,
                                         int first, int last) const {
#pragma unroll
        for (int j = 0; j < Config::kLoads; ++j) {
            if (j < first || j >= last) {
                continue;
            }
            if (j < Config::kTilesM) {
                ptx::ldmatrix_x4(f.a[j], stage + a_row + j * kMmaM * Config::kARowBytes +
                                             (a_key ^ (2 * step * kChunkBytes)));
            } else {
                const int pair = j - Config::kTilesM;
                ptx::ldmatrix_x4_trans(f.b[pair], stage + b_row +
                                                      step * kMmaK * Config::kBRowBytes +
                                                      (b_key ^ (2 * pair * kChunkBytes)));
            }
        }
    }
};

// The kTilesN mma of row mt of one k16 step. n runs back and forth (serpentine) from row to
// row, so that the mma on either side of a turn share their B fragment, which the operand reuse
// cache can then keep.
template <typename Element, typename Config>
__device__ __forceinline__ void mma_row(float (&acc)[Config::kTilesM][Config::kTilesN][4],
                                        const Fragments<Config>& f, int mt) {
#pragma unroll
    for (int j = 0; j < Config::kTilesN; ++j) {
        const int nt = mt % 2 == 0 ? j : Config::kTilesN - 1 - j;
        const std::uint32_t b_pair[2] = {f.b[nt / 2][2 * (nt % 2)], f.b[nt / 2][2 * (nt % 2) + 1]};
        ptx::mma_m16n8k16<Element>(acc[mt][nt], f.a[mt], b_pair);
    }
}

// Stores a warp's kTilesM x kTilesN m16n8 accumulator tiles to row-major C (m x n), the warp
// tile's first row and column at (row0, col0), guarded per float2. Accumulators: (lane, reg) ->
// (g + 8 (reg / 2), 2t + reg % 2) of each m16n8 tile, g = lane / 4, t = lane % 4.
template <typename Config>
__device__ __forceinline__ void store_warp_tiles(
    float* __restrict__ c, int m, int n, const float (&acc)[Config::kTilesM][Config::kTilesN][4],
    int row0, int col0, int lane) {
    const int g = lane / 4;
    const int t = lane % 4;
#pragma unroll
    for (int mt = 0; mt < Config::kTilesM; ++mt) {
#pragma unroll
        for (int nt = 0; nt < Config::kTilesN; ++nt) {
            const int col = col0 + kMmaN * nt + 2 * t;
            if (col >= n) {
                continue;
            }
#pragma unroll
            for (int half = 0; half < 2; ++half) {
                const int row = row0 + kMmaM * mt + g + 8 * half;
                if (row < m) {
                    *reinterpret_cast<float2*>(c + static_cast<std::int64_t>(row) * n + col) =
                        make_float2(acc[mt][nt][2 * half], acc[mt][nt][2 * half + 1]);
                }
            }
        }
    }
}

// The GEMM of one block; kTraced: with trace points (kernels/trace.cuh), false: the code the timed
// kernel and the untraced blocks of the traced one run. Every warp records, per K tile: its three
// copy slices (kLoadIssue, while tiles remain to be copied), each k16 step's 32 mma (kMmaSync), the
// wait for the next tile (kFullWait: cp.async.wait_group) and the barrier after it (kBlockSync);
// the ldmatrix of the next step lie between those phases, untraced. Before the loop: the prologue's
// copies, wait and barrier; after it the C store (kStore).
template <typename Element, typename Config, bool kTraced>
__device__ __forceinline__ void mma_cp_async_body(const Element* __restrict__ a,
                                                  const Element* __restrict__ b,
                                                  float* __restrict__ c, int m, int n, int k,
                                                  int tiles_m, int tiles_n) {
    using C = Config;
    static_assert(!kTraced || C::kOrder == StepOrder::kLoadsFirst,
                  "trace points sit between the loads-first order's copies and mma");
    extern __shared__ __align__(128) unsigned char smem[];

    const int tid = threadIdx.x;
    const int lane = tid % 32;
    const int warp = tid / 32;
    const int warp_m = warp / C::kWarpsN;
    const int warp_n = warp % C::kWarpsN;
    const BlockOrigin block = block_origin<C>(blockIdx.x, tiles_m, tiles_n);
    const int k_tiles = (k + C::kBlockK - 1) / C::kBlockK;
    using viz::TracePhase;
    WarpTracer<kTraced> tracer;

    TileCopier<Element, C> copier(a, b, m, n, k, block.row, block.col, tid);
    const FragmentAddresses<C> addresses(warp_m, warp_n, lane);

#pragma unroll
    for (int tile = 0; tile < C::kStages - 1; ++tile) {
        if (tile < k_tiles) {
            const auto issuing = tracer.begin();
            copier.copy(smem + tile * C::kStageBytes, 0, C::kChunks);
            copier.next_tile();
            tracer.end(issuing, TracePhase::kLoadIssue, tile);
        }
        ptx::cp_async_commit();
    }
    const auto first_wait = tracer.begin();
    ptx::cp_async_wait<C::kStages - 2>();
    const auto first_sync = tracer.end(first_wait, TracePhase::kFullWait, 0);
    __syncthreads();
    tracer.end(first_sync, TracePhase::kBlockSync, 0);

    float acc[C::kTilesM][C::kTilesN][4] = {};
    Fragments<C> frag[2];
    addresses.load(frag[0], smem, 0, 0, C::kLoads);

    int read_stage = 0;                                   // byte offset of tile kt's stage
    int write_stage = (C::kStages - 1) * C::kStageBytes;  // of tile kt + kStages - 1's
    for (int kt = 0; kt < k_tiles; ++kt) {
        const bool copying = kt + C::kStages - 1 < k_tiles;
#pragma unroll
        for (int step = 0; step < C::kSteps; ++step) {
            Fragments<C>& next = frag[(step + 1) % 2];
            const Fragments<C>& current = frag[step % 2];
            const int next_step = (step + 1) % C::kSteps;
            // This step's copy slice (none at the last step).
            const int slice_first = step * C::kChunks / C::kCopySlices;
            const int slice_chunks =
                step < C::kCopySlices ? (step + 1) * C::kChunks / C::kCopySlices - slice_first : 0;
            if constexpr (C::kOrder == StepOrder::kLoadsFirst) {
                addresses.load(next, smem + read_stage, next_step, 0, C::kLoads);
                if (copying) {
                    const auto issuing = tracer.begin();
                    copier.copy(smem + write_stage, slice_first, slice_first + slice_chunks);
                    if (step < C::kCopySlices) {
                        tracer.end(issuing, TracePhase::kLoadIssue, kt + C::kStages - 1);
                    }
                }
                const auto multiplying = tracer.begin();
#pragma unroll
                for (int mt = 0; mt < C::kTilesM; ++mt) {
                    mma_row<Element, C>(acc, current, mt);
                }
                tracer.end(multiplying, TracePhase::kMmaSync, kt);
            } else {
#pragma unroll
                for (int mt = 0; mt < C::kTilesM; ++mt) {
                    addresses.load(next, smem + read_stage, next_step, mt * C::kLoads / C::kTilesM,
                                   (mt + 1) * C::kLoads / C::kTilesM);
                    if (copying) {
                        copier.copy(smem + write_stage,
                                    slice_first + mt * slice_chunks / C::kTilesM,
                                    slice_first + (mt + 1) * slice_chunks / C::kTilesM);
                    }
                    mma_row<Element, C>(acc, current, mt);
                }
            }
            if (step == C::kSteps - 2) {
                copier.next_tile();
                ptx::cp_async_commit();
                const auto waiting = tracer.begin();
                ptx::cp_async_wait<C::kStages - 2>();
                const auto syncing = tracer.end(waiting, TracePhase::kFullWait, kt + 1);
                __syncthreads();
                tracer.end(syncing, TracePhase::kBlockSync, kt);
                read_stage =
                    read_stage == C::kSmemBytes - C::kStageBytes ? 0 : read_stage + C::kStageBytes;
                write_stage = write_stage == C::kSmemBytes - C::kStageBytes
                                  ? 0
                                  : write_stage + C::kStageBytes;
            }
        }
    }

    const auto storing = tracer.begin();
    store_warp_tiles<C>(c, m, n, acc, block.row + warp_m * C::kWarpM,
                        block.col + warp_n * C::kWarpN, lane);
    tracer.end(storing, TracePhase::kStore, -1);
}

// The GEMM; its traced variant (kTraced) runs the traced body in the traced blocks only.
template <typename Element, typename Config, bool kTraced>
__global__ void __launch_bounds__(Config::kThreads, Config::kBlocksPerSm)
    mma_cp_async_gemm(const Element* __restrict__ a, const Element* __restrict__ b,
                      float* __restrict__ c, int m, int n, int k, int tiles_m, int tiles_n) {
    traced_blocks_only<kTraced>([&](auto traced) {
        mma_cp_async_body<Element, Config, decltype(traced)::value>(a, b, c, m, n, k, tiles_m,
                                                                    tiles_n);
    });
}

// Raises the kernel's dynamic shared memory limit and asks for the largest shared-memory
// carveout (kBlocksPerSm blocks must fit one SM), then enqueues the GEMM (the traced variant
// with kTraced).
template <typename Element, typename Config, bool kTraced = false>
cudaError_t mma_cp_async_launch(const GemmOperands& operands, cudaStream_t stream) {
    const GemmProblem& p = operands.problem;
    const auto kernel = mma_cp_async_gemm<Element, Config, kTraced>;
    const cudaError_t status =
        opt_in_shared_memory(reinterpret_cast<const void*>(kernel), Config::kSmemBytes, true);
    if (status != cudaSuccess) {
        return status;
    }
    const int tiles_m = static_cast<int>(tile_count(p.m, Config::kBlockM));
    const int tiles_n = static_cast<int>(tile_count(p.n, Config::kBlockN));
    kernel<<<static_cast<unsigned>(std::int64_t{tiles_m} * tiles_n), Config::kThreads,
             Config::kSmemBytes, stream>>>(static_cast<const Element*>(operands.a),
                                           static_cast<const Element*>(operands.b), operands.c,
                                           static_cast<int>(p.m), static_cast<int>(p.n),
                                           static_cast<int>(p.k), tiles_m, tiles_n);
    return cudaGetLastError();
}

// The traced variant: the same launch, with this file's trace sink set first.
template <typename Element, typename Config>
cudaError_t mma_cp_async_traced_launch(const GemmOperands& operands, const TraceSink& sink,
                                       cudaStream_t stream) {
    const cudaError_t status = set_trace_sink(sink, stream);
    if (status != cudaSuccess) return status;
    return mma_cp_async_launch<Element, Config, true>(operands, stream);
}

}  // namespace

void attach_mma_cp_async_launches(KernelDescriptor& d) {
    using C = ChosenConfig;
    attach_sixteen_bit_launch(d, mma_cp_async_launch<__half, C>,
                              mma_cp_async_launch<__nv_bfloat16, C>);
    if (d.precision == Precision::kF16) d.traced.launch = mma_cp_async_traced_launch<__half, C>;
    if (d.precision == Precision::kBF16) {
        d.traced.launch = mma_cp_async_traced_launch<__nv_bfloat16, C>;
    }
}

}  // namespace tclens::kernels
