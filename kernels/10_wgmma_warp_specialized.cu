// Rung 10: warp specialisation. One warpgroup only loads (a single thread issues every TMA),
// two warpgroups only multiply, and the two sides talk through a ring of stages guarded by a
// pair of mbarriers each: "full" (TMA bytes landed) and "empty" (every consumer warp is done
// reading). setmaxnreg moves registers from the producer, which needs few, to the consumers,
// which hold 128 accumulators each, and the block tile doubles to 128 x 256.
//
// Adds to rung 9:
//   - producer / consumer warpgroups: the loads no longer wait behind the consumers' wgmma
//     issue and __syncthreads; the producer runs up to `stages` K tiles ahead, blocked only by
//     the empty barrier of the slot it wants to refill.
//   - empty barriers: each consumer warp arrives once its wgmma of a stage are complete
//     (wgmma.wait_group 1 after the next stage's group is committed); no block-wide barrier in
//     the K loop at all.
//   - setmaxnreg: producer 40 registers, consumers 232 (128 x 40 + 256 x 232 <= 64 K).
//   - 128 x 256 tiles, one m64n256k16 per consumer per k16 step: each byte of B in shared
//     memory feeds 128 rows, each byte of A 256 columns.
//
// Tunables: WarpSpecializedConfig below (BN, stages, raster band); the descriptor launches
// ChosenWarpSpecializedConfig: 128 x 256 x 64, 4 stages (4 x 48 KiB = 192 KiB), 16-row bands.
//
// Tiling: 384 threads = warpgroup 0 (producer) + warpgroups 1, 2 (consumers). Consumer c owns C
// rows 64 c .. 64 c + 63 of the block tile, all BN columns: one wgmma m64nBNk16 per k16 step,
// BN / 2 accumulators per thread.
//
// Shared memory: as rung 9 (1 KiB alignment slack, stages of one A box of 128 rows and BN / 64
// B boxes, all 128-byte swizzled "tma128"), then full[stages], empty[stages].
//
// Pipeline, K tile kt in slot s = kt % stages, round r = kt / stages:
//   producer (thread 0): wait empty[s] for parity (r + 1) % 2 (round 0 passes at once: fresh
//     barriers); arrive.expect_tx(full[s], stage bytes); TMA A box, B boxes -> full[s].
//   consumers: wait full[s] for parity r % 2; wgmma fence; 4 wgmma; commit; wait_group 1
//     (tile kt - 1 done); lane 0 of each warp arrives on empty[(kt - 1) % stages].
//   empty[s] expects 8 arrivals (2 consumer warpgroups x 4 warps).
//
// Edges: as rung 9 (K % 8 == 0 and N % 8 == 0 for TMA's 16-byte strides; zero-filled boxes;
// guarded float2 stores of C).
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "kernels/10_wgmma_warp_specialized.h"
#include "kernels/block_order.h"
#include "kernels/hopper.cuh"
#include "kernels/ladder_launches.h"
#include "kernels/sixteen_bit_launch.h"
#include "kernels/tma_producer.cuh"
#include "kernels/tma_rung.cuh"
#include "kernels/tma_stage_layout.cuh"
#include "kernels/trace.cuh"
#include "kernels/wgmma_consumer.cuh"

namespace tclens::kernels {
namespace {

using namespace wgmma_warp_specialized;

// The GEMM of one block; kTraced: with trace points (kernels/trace.cuh), false: the code the timed
// kernel and the untraced blocks of the traced one run. The tensor maps are the kernel's
// __grid_constant__ parameters, by reference.
template <typename Element, typename Config, bool kTraced>
__device__ __forceinline__ void warp_specialized_gemm_body(const CUtensorMap& a_map,
                                                           const CUtensorMap& b_map,
                                                           float* __restrict__ c, int m, int n,
                                                           std::int64_t ldc, int k, int tiles_m,
                                                           int tiles_n) {
#if defined(TCLENS_HOPPER_DEVICE)
    using C = Config;
    namespace hp = hopper;
    const TmaRing ring = tma_ring<C>();

    const int tid = threadIdx.x;
    const BlockOrigin block = block_origin<C>(blockIdx.x, tiles_m, tiles_n);
    const int k_tiles = (k + C::kBlockK - 1) / C::kBlockK;
    using viz::TracePhase;
    WarpTracer<kTraced> tracer;

    const int warpgroup = start_warp_specialized<C>(&a_map, &b_map, ring);
    if (warpgroup == 0) {
        if (tid == 0) {
            auto since = tracer.begin();
            for (int kt = 0; kt < k_tiles; ++kt) {
                since = produce_k_tile<C>(
                    ring, kt, kt, tracer, since,
                    [&a_map, &b_map, kt, block](unsigned char* stage, std::uint64_t* stage_full) {
                        load_k_tile<C>(stage, stage_full, &a_map, &b_map, kt, block.row, block.col);
                    });
            }
        }
        return;
    }

    const int consumer = warpgroup - 1;
    const int lane = tid % 32;
    const std::uint64_t a_desc =
        hp::k_major_descriptor(ring.stages + consumer * hp::kWgmmaM * hp::kSwizzleRowBytes);
    const std::uint64_t b_desc = hp::mn_major_descriptor(ring.stages + C::kABytes, C::kBBoxBytes);
    float acc[C::kAccumulators] = {};
    // Every consumer warp records its K tiles (only a few blocks are traced).
    auto k_tile_phases = k_tile_log(tracer, tracer.begin(), true);
    for (int kt = 0; kt < k_tiles; ++kt) {
        consume_k_tile<C>(
            ring, kt, kt, k_tile_phases, acc,
            [&acc, a_desc, b_desc, kt](int s) {
                wgmma_slot<Element, C>(acc, a_desc, b_desc, s, kt == 0);
            },
            [&ring, kt, lane] {
                if (kt > 0 && lane == 0) {
                    hp::mbarrier_arrive(&ring.empty[(kt - 1) % C::kStages]);
                }
            });
    }
    const auto draining = tracer.begin();
    hp::wgmma_wait_group<0>();
    hp::fence_accumulators(acc);
    const auto storing = tracer.end(draining, TracePhase::kEpilogue, -1);

    store_wgmma_tile(c, m, n, ldc, acc, block.row + hp::kWgmmaM * consumer, block.col,
                     (tid / 32) % 4, lane);
    tracer.end(storing, TracePhase::kStore, -1);
#else
    (void)a_map, (void)b_map, (void)c, (void)m, (void)n, (void)ldc, (void)k, (void)tiles_m,
        (void)tiles_n;
#endif
}

// The GEMM; its traced variant (kTraced) runs the traced body in the traced blocks only.
template <typename Element, typename Config, bool kTraced>
__global__ void __launch_bounds__(Config::kThreads, 1)
    warp_specialized_gemm(const __grid_constant__ CUtensorMap a_map,
                          const __grid_constant__ CUtensorMap b_map, float* __restrict__ c, int m,
                          int n, std::int64_t ldc, int k, int tiles_m, int tiles_n) {
    traced_blocks_only<kTraced>([&](auto traced) {
        warp_specialized_gemm_body<Element, Config, decltype(traced)::value>(
            a_map, b_map, c, m, n, ldc, k, tiles_m, tiles_n);
    });
}

// One block per SM: the opt-in asks for its shared memory, not for a carveout.
template <typename Element, typename Config>
cudaError_t warp_specialized_launch(const GemmOperands& operands, cudaStream_t stream) {
    return launch_tma_tiles<Element, Config>(warp_specialized_gemm<Element, Config, false>,
                                             operands, stream, false);
}

// The traced variant: the same launch, with this file's trace sink set first.
template <typename Element, typename Config>
cudaError_t warp_specialized_traced_launch(const GemmOperands& operands, const TraceSink& sink,
                                           cudaStream_t stream) {
    return with_trace_sink(sink, stream, [&] {
        return launch_tma_tiles<Element, Config>(warp_specialized_gemm<Element, Config, true>,
                                                 operands, stream, false);
    });
}

}  // namespace

void attach_wgmma_warp_specialized_launches(KernelDescriptor& d) {
    using C = ChosenWarpSpecializedConfig;
    attach_sixteen_bit_launch(d, warp_specialized_launch<__half, C>,
                              warp_specialized_launch<__nv_bfloat16, C>);
    attach_tma_traced_launch(d, warp_specialized_traced_launch<__half, C>,
                             warp_specialized_traced_launch<__nv_bfloat16, C>);
}

}  // namespace tclens::kernels
