// Rung 9: the tensor cores' Hopper interface. Operands travel global -> shared by TMA (one
// instruction per box, issued by one thread, landing in the 128-byte-swizzled layout wgmma
// reads), their arrival is counted in bytes by an mbarrier, and one warpgroup (128 threads)
// multiplies them with wgmma.mma_async m64nNk16, A and B both read straight from shared memory.
//
// Adds to rung 8:
//   - TMA: a tensor map (host, kernels/tensor_map.h) describes A and B once; a K tile is 1 + BN/64
//     bulk copies instead of 256 threads x 12 cp.async, and out-of-bounds parts of a box arrive
//     as zeros, so edges cost nothing.
//   - mbarrier completion: thread 0 announces a stage's bytes (arrive.expect_tx); the copies
//     count them down; everyone waits on the stage's phase parity. No cp.async groups.
//   - wgmma: asynchronous warpgroup MMA from shared-memory descriptors; no ldmatrix, no
//     fragments in registers except the accumulators. One wgmma group (a K tile) stays in
//     flight while the next stage is waited for and the freed stage is refilled.
//
// Tunables: WgmmaTmaConfig below (block tile, stages, raster band, blocks per SM); the
// descriptor launches ChosenWgmmaTmaConfig: 128 x 128 x 64 block tile, 4 stages (128 KiB), one
// block per SM, 16-row raster bands. (Measured on H100, bf16: 79% / 89% of cuBLAS at 4096^3 /
// 8192^3, against 73% / 73% for 3 stages with two blocks per SM; 64 x 256 tiles tie at 4096^3
// and lose in f16.)
//
// Tiling: one warpgroup = 4 warps; block tile BM x BN, BM / 64 wgmma m64nBNk16 per k16 step
// (Chosen: 2 x m64n128k16, 2 x 64 = 128 f32 accumulators per thread).
//
// Shared memory (dynamic; 1 KiB slack to align the stages to 1024 bytes, then the stages, then
// one 8-byte mbarrier per stage). Stage s (stage_bytes = BM * 128 + 64 * BN * 2):
//   A: BM rows (m) x 128 bytes (64 k), one TMA box; B: BN / 64 boxes of 64 rows (k) x 128
//   bytes (64 n), 8 KiB each. Both 128-byte swizzled ("tma128"): chunk c of row r at c ^ (r % 8).
//
// Pipeline, K tile kt in stage kt % S, phase parity (kt / S) % 2 of full[kt % S]:
//   prologue: thread 0 issues tiles 0 .. S-2.
//   tile kt: wait full; wgmma fence; 4 k16 steps x BM/64 wgmma; commit;
//            wait_group 1 (tile kt-1's wgmma are done); __syncthreads (so in every warp);
//            thread 0 issues tile kt + S - 1 into stage (kt - 1) % S, the one just freed.
//
// Edges: TMA needs 16-byte global strides, so K % 8 == 0 (A rows) and N % 8 == 0 (B rows);
// M is free. Out-of-range rows and columns of a box read as zeros (they add nothing); C stores
// are guarded per float2 (N even: aligned). A and B must be 16-byte aligned (cudaMalloc: 256).
// Rung 14 runs this kernel on strided operands (gemm.h: lda, ldb, ldc; C rows of odd length
// stored a float at a time), in narrower tiles too (128 x 64, 64 x 128: Rung9Tile in
// 09_wgmma_tma.h) and, for its split-K, over K ranges: blockIdx.y picks a range of K tiles and
// the C slice its partial tiles go to (KRanges, kernels/split_k_gemm.h); this rung launches the
// one range of all of K. Rung 14 runs it with e4m3 inputs as well (WgmmaTmaInputsConfig,
// kernels/wgmma_inputs.h): K tiles of 128 one-byte elements in the same 128-byte rows, k32
// wgmma, and B stored as B^T, its boxes K-major rows like A's.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "kernels/09_wgmma_tma.h"
#include "kernels/block_order.h"
#include "kernels/hopper.cuh"
#include "kernels/ladder_launches.h"
#include "kernels/sixteen_bit_launch.h"
#include "kernels/split_k_gemm.cuh"
#include "kernels/tma_producer.cuh"
#include "kernels/tma_rung.cuh"
#include "kernels/tma_stage_layout.cuh"
#include "kernels/trace.cuh"
#include "kernels/wgmma_consumer.cuh"

namespace tclens::kernels {
namespace {

using namespace wgmma_tma;

// A tile's Config (09_wgmma_tma.h) with Element's inputs: what the kernel and its launch take.
template <typename Element, typename Config>
using InputsConfig = WgmmaTmaInputsConfig<Config, sizeof(Element)>;

// The GEMM of one block; kTraced: with trace points (kernels/trace.cuh), false: the code the timed
// kernel and the untraced blocks of the traced one run. The tensor maps are the kernel's
// __grid_constant__ parameters, by reference.
template <typename Element, typename Config, bool kTraced>
__device__ __forceinline__ void wgmma_tma_gemm_body(const CUtensorMap& a_map,
                                                    const CUtensorMap& b_map, float* __restrict__ c,
                                                    int m, int n, std::int64_t ldc, int k,
                                                    int tiles_m, int tiles_n, KRanges ranges) {
#if defined(TCLENS_HOPPER_DEVICE)
    using C = Config;
    using In = typename C::Inputs;
    namespace hp = hopper;
    const TmaRing ring = tma_ring<C>();

    const int tid = threadIdx.x;
    const BlockOrigin block = block_origin<C>(blockIdx.x, tiles_m, tiles_n);
    // K range blockIdx.y (rung 14's split-K; the one range of all of K on this rung): K tiles
    // k_first .., partial C at slice blockIdx.y.
    const int all_k_tiles = (k + C::kBlockK - 1) / C::kBlockK;
    const int per_range = ranges.k_tiles > 0 ? ranges.k_tiles : all_k_tiles;
    const int k_first = static_cast<int>(blockIdx.y) * per_range;
    const int k_tiles = min(per_range, all_k_tiles - k_first);
    c += blockIdx.y * ranges.slice_floats;
    using viz::TracePhase;
    WarpTracer<kTraced> tracer;

    if (tid == 0) {
        init_tma_ring<C>(&a_map, &b_map, nullptr, ring, 0);
    }
    __syncthreads();

    // Thread 0 only: the whole of K tile kt into its stage.
    const auto issue = [&](int kt) {
        const int s = kt % C::kStages;
        load_k_tile<C>(ring.stages + s * C::kStageBytes, &ring.full[s], &a_map, &b_map,
                       k_first + kt, block.row, block.col);
    };
    if (tid == 0) {
        for (int kt = 0; kt < C::kStages - 1 && kt < k_tiles; ++kt) {
            const auto issuing = tracer.begin();
            issue(kt);
            tracer.end(issuing, TracePhase::kLoadIssue, kt);
        }
    }

    const std::uint64_t a_desc = hp::k_major_descriptor(ring.stages);
    const std::uint64_t b_desc =
        C::kBKMajor ? hp::k_major_descriptor(ring.stages + C::kABytes)
                    : hp::mn_major_descriptor(ring.stages + C::kABytes, C::kBBoxBytes);
    float acc[C::kTilesM][C::kAccumulators] = {};

    for (int kt = 0; kt < k_tiles; ++kt) {
        const int s = kt % C::kStages;
        const auto waiting = tracer.begin();
        hp::mbarrier_wait(&ring.full[s], (kt / C::kStages) % 2);
        const auto multiplying = tracer.end(waiting, TracePhase::kFullWait, kt);
        hp::wgmma_fence();
#pragma unroll
        for (int step = 0; step < C::kSteps; ++step) {
#pragma unroll
            for (int tm = 0; tm < C::kTilesM; ++tm) {
                const std::uint64_t a = hp::advance_descriptor(
                    a_desc, s * C::kStageBytes + tm * hp::kWgmmaM * hp::kSwizzleRowBytes +
                                step * In::kAStepBytes);
                const std::uint64_t b =
                    hp::advance_descriptor(b_desc, s * C::kStageBytes + step * In::kBStepBytes);
                if constexpr (C::kBKMajor) {
                    hp::wgmma_ss_e4m3<C::kWgmmaN>(acc[tm], a, b, (kt | step) != 0);
                } else {
                    hp::wgmma_ss<Element, C::kWgmmaN>(acc[tm], a, b, (kt | step) != 0);
                }
            }
        }
        hp::wgmma_commit_group();
        hp::wgmma_wait_group<1>();
#pragma unroll
        for (int tm = 0; tm < C::kTilesM; ++tm) {
            hp::fence_accumulators(acc[tm]);
        }
        const auto syncing = tracer.end(multiplying, TracePhase::kWgmma, kt);
        __syncthreads();
        tracer.end(syncing, TracePhase::kBlockSync, kt);
        if (tid == 0 && kt + C::kStages - 1 < k_tiles) {
            const auto issuing = tracer.begin();
            issue(kt + C::kStages - 1);
            tracer.end(issuing, TracePhase::kLoadIssue, kt + C::kStages - 1);
        }
    }
    // Split-K: the sum of the ranges (split_k_gemm.cu) may launch now, its wait covering the
    // stores.
    if (ranges.count > 1) hp::launch_dependents();
    const auto draining = tracer.begin();
    hp::wgmma_wait_group<0>();
#pragma unroll
    for (int tm = 0; tm < C::kTilesM; ++tm) {
        hp::fence_accumulators(acc[tm]);
    }
    const auto storing = tracer.end(draining, TracePhase::kEpilogue, -1);

#pragma unroll
    for (int tm = 0; tm < C::kTilesM; ++tm) {
        store_wgmma_tile(c, m, n, ldc, acc[tm], block.row + hp::kWgmmaM * tm, block.col, tid / 32,
                         tid % 32);
    }
    tracer.end(storing, TracePhase::kStore, -1);
#else
    (void)a_map, (void)b_map, (void)c, (void)m, (void)n, (void)ldc, (void)k, (void)tiles_m,
        (void)tiles_n, (void)ranges;
#endif
}

// The GEMM; its traced variant (kTraced) runs the traced body in the traced blocks only.
template <typename Element, typename Config, bool kTraced>
__global__ void __launch_bounds__(Config::kThreads, Config::kBlocksPerSm)
    wgmma_tma_gemm(const __grid_constant__ CUtensorMap a_map,
                   const __grid_constant__ CUtensorMap b_map, float* __restrict__ c, int m, int n,
                   std::int64_t ldc, int k, int tiles_m, int tiles_n, KRanges ranges) {
    traced_blocks_only<kTraced>([&](auto traced) {
        wgmma_tma_gemm_body<Element, Config, decltype(traced)::value>(a_map, b_map, c, m, n, ldc, k,
                                                                      tiles_m, tiles_n, ranges);
    });
}

// With the largest shared-memory carveout, so that Config::kBlocksPerSm blocks fit one SM.
template <typename Element, typename Config>
cudaError_t wgmma_tma_launch(const GemmOperands& operands, cudaStream_t stream) {
    using C = InputsConfig<Element, Config>;
    return launch_tma_tiles<Element, C>(wgmma_tma_gemm<Element, C, false>, operands, stream, true,
                                        1, KRanges{});
}

// The traced variant: the same launch, with this file's trace sink set first.
template <typename Element, typename Config>
cudaError_t wgmma_tma_traced_launch(const GemmOperands& operands, const TraceSink& sink,
                                    cudaStream_t stream) {
    using C = InputsConfig<Element, Config>;
    return with_trace_sink(sink, stream, [&] {
        return launch_tma_tiles<Element, C>(wgmma_tma_gemm<Element, C, true>, operands, stream,
                                            true, 1, KRanges{});
    });
}

// The untraced kernel in `tile`'s configuration over `ranges` (gridDim.y).
template <typename Element>
cudaError_t ranges_launch(Rung9Tile tile, const GemmOperands& operands, const KRanges& ranges,
                          cudaStream_t stream) {
    return with_rung9_config(tile, [&](auto config) {
        using C = InputsConfig<Element, decltype(config)>;
        return launch_tma_tiles<Element, C>(wgmma_tma_gemm<Element, C, false>, operands, stream,
                                            true, ranges.count, ranges);
    });
}

}  // namespace

cudaError_t wgmma_tma_ranges_launch(Precision precision, Rung9Tile tile,
                                    const GemmOperands& operands, const KRanges& ranges,
                                    cudaStream_t stream) {
    if (precision == Precision::kF16) return ranges_launch<__half>(tile, operands, ranges, stream);
    if (precision == Precision::kBF16) {
        return ranges_launch<__nv_bfloat16>(tile, operands, ranges, stream);
    }
    if (precision == Precision::kE4M3) {
        return ranges_launch<__nv_fp8_e4m3>(tile, operands, ranges, stream);
    }
    return cudaErrorInvalidValue;
}

void attach_wgmma_tma_launches(KernelDescriptor& d) {
    using C = ChosenWgmmaTmaConfig;
    attach_sixteen_bit_launch(d, wgmma_tma_launch<__half, C>, wgmma_tma_launch<__nv_bfloat16, C>);
    attach_tma_traced_launch(d, wgmma_tma_traced_launch<__half, C>,
                             wgmma_tma_traced_launch<__nv_bfloat16, C>);
}

}  // namespace tclens::kernels
