#pragma once
// A consumer warpgroup's side of the TMA rungs' ring (10_wgmma_warp_specialized.cu,
// 12_wgmma_stream_k.cu, persistent_gemm.cuh; 09_wgmma_tma.cu stores the same way): the step
// that multiplies one K tile, and the store of its m64 x N accumulators straight from
// registers. Slots and parities as kernels/tma_producer.cuh says. Included only by .cu files;
// the functions exist in the sm_90a device pass alone (kernels/hopper.cuh).

#include <cstdint>

#include "kernels/hopper.cuh"
#include "kernels/tma_stage_layout.cuh"
#include "viz/trace_phase.h"

namespace tclens::kernels {

#if defined(TCLENS_HOPPER_DEVICE)

// The consumers' step for K tile kt, the it-th tile through the ring: waits for slot
// it % kStages to be full (parity (it / kStages) % 2), issues multiply(slot) (the slot's wgmma
// into acc) between wgmma_fence and the commit, then waits until only this group is in flight:
// the previous slot's wgmma are complete, so release_previous() may release that slot (the
// caller's call: it knows whether there is one, and who arrives).
// `log` (kernels/trace.cuh: KTileLog, HeldKTileLog) hears of each step and records kFullWait and
// kWgmma of kt: the clock is read after the full wait and before the release, and no record is
// stored between them, so no trace store delays the producer's refill of the slot. (That order
// took the persistent rung 11's trace cost on an H200 from 6.4 % to 6.1 %, and from 19.2 % to
// 17.5 % at K = 8320 with 128 x 192 tiles: tests/gpu/results/2026-11-30_h200_session24/.)
template <typename Config, typename Log, int Accumulators, typename Multiply, typename Release>
__device__ __forceinline__ void consume_k_tile(const TmaRing& ring, int it, int kt, Log& log,
                                               float (&acc)[Accumulators], Multiply multiply,
                                               Release release_previous) {
    const int s = it % Config::kStages;
    hopper::mbarrier_wait(&ring.full[s], (it / Config::kStages) % 2);
    log.filled();
    hopper::wgmma_fence();
    multiply(s);
    hopper::wgmma_commit_group();
    log.committed(kt);
    hopper::wgmma_wait_group<1>();
    hopper::fence_accumulators(acc);
    log.completed();
    release_previous();
    log.released(kt);
}

// Whether this thread's warp records its warpgroup's K tiles in the persistent rungs 11-12: the
// last of the four. Rung 11's slots are released by lane 0 of its first warps (one per CTA of
// the cluster), so the last warp's trace work stays off the path to the producer's refill: with
// the first warp recording, rung 11 took 17.2 % longer traced at 2240x2560x8320 on an H200, with
// the last 6.7 % (tests/gpu/results/2026-12-01_h200_session27, call 1).
__device__ __forceinline__ bool k_tile_recording_warp() {
    return threadIdx.x % hopper::kWarpgroupThreads >= hopper::kWarpgroupThreads - 32;
}

// The wgmma of slot s of a 16-bit ring (rungs 10, 12): Config::kSteps m64nNk16 steps along the
// K tile, A (K-major) and B (MN-major) read through their descriptors moved to the slot; each
// step accumulates into acc except the first step of a `first` K tile, which overwrites it.
template <typename Element, typename Config, int Accumulators>
__device__ __forceinline__ void wgmma_slot(float (&acc)[Accumulators], std::uint64_t a_desc,
                                           std::uint64_t b_desc, int s, bool first) {
#pragma unroll
    for (int step = 0; step < Config::kSteps; ++step) {
        hopper::wgmma_ss<Element, Config::kWgmmaN>(
            acc,
            hopper::advance_descriptor(a_desc,
                                       s * Config::kStageBytes + step * hopper::kAStepBytes),
            hopper::advance_descriptor(b_desc,
                                       s * Config::kStageBytes + step * hopper::kBStepBytes),
            !first || step != 0);
    }
}

// Stores a warpgroup's m64 x (Accumulators * 2) f32 tile to row-major C (m x n, rows ldc floats
// apart) at rows row0 .., columns col0 .., from the wgmma D layout: (thread, i) -> (16 warp + g +
// 8 ((i % 4) / 2), 8 (i / 4) + 2 t + i % 2), g = lane / 4, t = lane % 4, warp within the
// warpgroup. Guarded per float2 where ldc is even (the pair is 8-byte aligned) and both columns
// are inside N, else per float (any N, ldc: rung 14's odd N; a C narrower than its rows).
// Worked example: warp 1, lane 5, i = 6 -> row 16 + 1 + 8 = 25, column 8 + 2 + 0 = 10.
template <int Accumulators>
__device__ __forceinline__ void store_wgmma_tile(float* __restrict__ c, int m, int n,
                                                 std::int64_t ldc, const float (&acc)[Accumulators],
                                                 int row0, int col0, int warp, int lane) {
    const int g = lane / 4;
    const int t = lane % 4;
#pragma unroll
    for (int j = 0; j < Accumulators / 4; ++j) {
        const int col = col0 + 8 * j + 2 * t;
        if (col >= n) {
            continue;
        }
#pragma unroll
        for (int half = 0; half < 2; ++half) {
            const int row = row0 + 16 * warp + g + 8 * half;
            if (row >= m) continue;
            float* out = c + row * ldc + col;
            const float x = acc[4 * j + 2 * half];
            const float y = acc[4 * j + 2 * half + 1];
            if (ldc % 2 == 0 && col + 1 < n) {
                *reinterpret_cast<float2*>(out) = make_float2(x, y);
            } else {
                out[0] = x;
                if (col + 1 < n) out[1] = y;
            }
        }
    }
}

#endif  // TCLENS_HOPPER_DEVICE

}  // namespace tclens::kernels
