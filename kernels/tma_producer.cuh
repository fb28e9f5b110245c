#pragma once
// The producer side of the TMA rungs' shared-memory ring (09_wgmma_tma.cu,
// 10_wgmma_warp_specialized.cu, 12_wgmma_stream_k.cu, persistent_gemm.cuh): setting up the
// barriers, and filling one stage with a K tile by TMA. One thread (thread 0) runs all of it.
// `Config` is a rung's Config: a TmaStageLayout (kernels/tma_stage_layout.cuh) with kStages and
// kBlockK. Slot s of the ring holds K tile it in stage it % kStages (it counts the tiles through
// the ring); full[s] counts the stage's bytes in, empty[s] the consumers' releases.
// Included only by .cu files; the functions exist in the sm_90a device pass alone
// (kernels/hopper.cuh).

#include <cuda.h>

#include <cstdint>

#include "kernels/hopper.cuh"
#include "kernels/tma_stage_layout.cuh"
#include "viz/trace_phase.h"

namespace tclens::kernels {

#if defined(TCLENS_HOPPER_DEVICE)

// Before any thread uses the ring: prefetches the tensor maps (c_map where not null),
// initialises full[0 .. kStages) for one arrival (the producer's expect_tx) and, where
// empty_arrivals > 0, empty[0 .. kStages) for that many, and fences the inits for TMA and the
// cluster. A CTA (or cluster) barrier must follow before the ring is used.
template <typename Config>
__device__ __forceinline__ void init_tma_ring(const CUtensorMap* a_map, const CUtensorMap* b_map,
                                              const CUtensorMap* c_map, const TmaRing& ring,
                                              int empty_arrivals) {
    hopper::prefetch_tensor_map(a_map);
    hopper::prefetch_tensor_map(b_map);
    if (c_map != nullptr) {
        hopper::prefetch_tensor_map(c_map);
    }
#pragma unroll
    for (int s = 0; s < Config::kStages; ++s) {
        hopper::mbarrier_init(&ring.full[s], 1);
        if (empty_arrivals > 0) {
            hopper::mbarrier_init(&ring.empty[s], static_cast<std::uint32_t>(empty_arrivals));
        }
    }
    hopper::fence_barrier_init();
}

// The start of a warp-specialised kernel (rungs 10, 12): thread 0 sets up the ring (a slot is
// empty once every one of the Config::kConsumers x 4 consumer warps released it), a CTA barrier,
// then warpgroup 0 (the producer) gives registers up to kProducerRegisters and the consumer
// warpgroups take kConsumerRegisters. Returns this thread's warpgroup.
template <typename Config>
__device__ __forceinline__ int start_warp_specialized(const CUtensorMap* a_map,
                                                      const CUtensorMap* b_map,
                                                      const TmaRing& ring) {
    if (threadIdx.x == 0) {
        init_tma_ring<Config>(a_map, b_map, nullptr, ring, Config::kConsumers * 4);
    }
    __syncthreads();
    const int warpgroup = static_cast<int>(threadIdx.x) / hopper::kWarpgroupThreads;
    if (warpgroup == 0) {
        hopper::setmaxnreg_decrease<hopper::kProducerRegisters>();
    } else {
        hopper::setmaxnreg_increase<hopper::kConsumerRegisters>();
    }
    return warpgroup;
}

// Arms `full` for the whole stage (one arrival announcing kStageBytes: the A box and every B
// box, those other CTAs multicast included) and loads K tile kt's A box, rows block_m .., into
// the start of `stage`.
template <typename Config>
__device__ __forceinline__ void arm_stage_and_load_a(unsigned char* stage, std::uint64_t* full,
                                                     const CUtensorMap* a_map, int kt,
                                                     int block_m) {
    hopper::mbarrier_arrive_expect_tx(full, Config::kStageBytes);
    hopper::tma_load_2d(stage, a_map, full, kt * Config::kBlockK, block_m);
}

// The TMA coordinates (innermost first) of K tile kt's B box of 64 n from column n0: (n0, k) in
// K x N B, or (k, n0) in B^T where Config::kBKMajor (e4m3 inputs).
template <typename Config>
__device__ __forceinline__ int2 b_box_origin(int kt, int n0) {
    const int k0 = kt * Config::kBlockK;
    return Config::kBKMajor ? make_int2(k0, n0) : make_int2(n0, k0);
}

// arm_stage_and_load_a, then K tile kt's B boxes (K x N B, 64 columns each from block_n; where
// Config::kBKMajor, B^T's 64 rows each from block_n), box j at kABytes + j kBBoxBytes of `stage`:
// the whole stage from this CTA.
template <typename Config>
__device__ __forceinline__ void load_k_tile(unsigned char* stage, std::uint64_t* full,
                                            const CUtensorMap* a_map, const CUtensorMap* b_map,
                                            int kt, int block_m, int block_n) {
    arm_stage_and_load_a<Config>(stage, full, a_map, kt, block_m);
#pragma unroll
    for (int j = 0; j < Config::kBBoxes; ++j) {
        const int2 origin = b_box_origin<Config>(kt, block_n + j * hopper::kBoxElems);
        hopper::tma_load_2d(stage + Config::kABytes + j * Config::kBBoxBytes, b_map, full, origin.x,
                            origin.y);
    }
}

// The warp-specialised producer's step for K tile kt, the it-th tile through the ring: waits
// for slot it % kStages to be empty (parity (it / kStages + 1) % 2: a fresh barrier passes at
// once), then load(stage, &full[slot]) fills it. Traced as one kEmptyWait from `since` (the end
// of the thread's previous phase) to the loads' issue, which is a few instructions of it: one
// clock read and one record per K tile, after the loads, so neither delays them (a clock read
// between the wait and the loads and a kLoadIssue record of its own cost the traced rung 11 1.1 %
// more at 4096^3 on an H200: tests/gpu/results/2026-12-01_h200_session27, call 1). Returns the
// loads' issue, the next K tile's `since`. The marks are of `since`'s kind (both clocks, or the
// SM clock alone).
template <typename Config, typename Tracer, typename Since, typename Load>
__device__ __forceinline__ Since produce_k_tile(const TmaRing& ring, int it, int kt, Tracer& tracer,
                                                Since since, Load load) {
    const int s = it % Config::kStages;
    unsigned char* stage = ring.stages + s * Config::kStageBytes;
    hopper::mbarrier_wait(&ring.empty[s], (it / Config::kStages + 1) % 2);
    load(stage, &ring.full[s]);
    return tracer.end(since, viz::TracePhase::kEmptyWait, kt);
}

#endif  // TCLENS_HOPPER_DEVICE

}  // namespace tclens::kernels
