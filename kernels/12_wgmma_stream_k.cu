// Rung 12: stream-K. Rung 10's warp-specialised wgmma kernel made persistent (one CTA per SM),
// with the K loops of the last partial wave shared among all SMs so that no SM idles at the end.
//
// Wave quantization, with the H100's numbers: 132 SMs each run one 128 x 256 tile at a time.
// 3072^3 has 24 x 12 = 288 tiles = 2.18 waves: a one-tile-per-CTA grid runs 3 waves and the
// third keeps only 24 of 132 SMs busy, so 27 % of the SM time is idle (288 / (3 x 132) = 73 %
// busy, close to the 76 % of cuBLAS that rungs 10-11 reach there). 4096^3 has 512 tiles = 3.88
// waves (97 % busy), 8192^3 2048 tiles = 15.5 waves (97 %). On the lab 6 sweep (N = K = 3072)
// M = 16 has just 12 tiles: 12 of 132 SMs work at all.
//
// Adds to rungs 10-11, the hybrid split of kernels/stream_k_schedule.h (chosen over pure
// stream-K because whole tiles keep rung 11's L2-friendly order for all but the last two waves
// and need no fix-up; the stream-K paper and CUTLASS's scheduler both do "data-parallel waves +
// stream-K for the rest"):
//   - persistent CTAs, grid = the SM count (cudaDevAttrMultiProcessorCount; fewer only when
//     there are fewer K iterations than SMs). The first (T / G - 1) full waves of tiles are
//     data-parallel; the remaining tiles' K iterations are cut into G equal contiguous ranges.
//   - fix-up of split tiles: a CTA whose range begins inside a tile writes its f32 partial tile
//     to its own workspace slot, fenced by a named barrier of its consumer warpgroup, and one
//     thread publishes it with st.release.gpu of the launch's epoch in the CTA's flag (one flag
//     per consumer warpgroup). The CTA holding the tile's first K iteration (the owner) waits for
//     each later contributor's flag (ld.acquire.gpu spin by one thread, then the named barrier),
//     adds its partial (ld.global.cg, L2, never a stale L1 line), and stores C. Owners only wait
//     for higher CTA ids, who publish their partial before anything else (no deadlock).
//   - the producer walks the same pieces as the consumers; the ring and its phases run on
//     across pieces (a running K-iteration counter), as in rung 11.
//   - a small-M mode (kernels/stream_k_schedule.h, M <= 256): one consumer warpgroup, 64 x 128
//     tiles of m64n128k16, 6 stages; 16 x 3072 x 3072 is 24 tiles of 48 K iterations, split
//     over all 132 SMs (8-9 K iterations each) instead of leaving 120 SMs idle.
//
// Workspace (allocated once per device by the launcher, on its first launch, never freed): one
// 128 x 256 f32 partial tile per CTA, SMs x 128 KiB (16.5 MiB on 132 SMs), plus one u32 flag per
// CTA and consumer warpgroup (1056 bytes). Flags are zeroed once, at allocation; every launch
// then uses a fresh epoch (a host counter, 1, 2, ...) as its "published" value, so nothing is
// zeroed per launch and the timed region holds only the kernel. Consequence: two launches of
// this rung must not run concurrently on one device (the runner never does that). Partial slots
// are always written before their flag is published, so they need no clearing.
//
// Tiling and registers as rung 10 (producer warpgroup 0 with 40 registers, consumers with 232;
// consumer c owns rows 64 c .. 64 c + 63 of the tile). Shared memory: 1 KiB alignment slack,
// stages (A box of kBlockM rows, BN / 64 B boxes, "tma128"), full[stages], empty[stages].
// C is stored from registers with guarded float2 stores (rung 10's epilogue).
//
// Edges: K % 8 == 0 and N % 8 == 0 (TMA's 16-byte strides); TMA zero-fills loads past M, N and
// K, and the C stores are guarded, so any M works.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <string>

#include "kernels/12_wgmma_stream_k.h"
#include "kernels/block_order.h"
#include "kernels/hopper.cuh"
#include "kernels/ladder_launches.h"
#include "kernels/sixteen_bit_launch.h"
#include "kernels/smem_opt_in.h"
#include "kernels/stream_k_schedule.h"
#include "kernels/tile_map_spec.h"
#include "kernels/tma_producer.cuh"
#include "kernels/tma_rung.cuh"
#include "kernels/tma_stage_layout.cuh"
#include "kernels/trace.cuh"
#include "kernels/wgmma_consumer.cuh"

namespace tclens::kernels {
namespace {

using namespace wgmma_stream_k;

#if defined(TCLENS_HOPPER_DEVICE)
// A consumer thread's accumulators into its warpgroup's partial tile at `slot`, through L2
// (st.global.cg): float4 v of thread x at slot + v * 128 + x, so that every access of the
// warpgroup is 2 KiB contiguous.
template <int Accumulators>
__device__ __forceinline__ void write_partial(float4* slot, const float (&acc)[Accumulators],
                                              int wg_tid) {
#pragma unroll
    for (int v = 0; v < Accumulators / 4; ++v) {
        __stcg(slot + v * hopper::kWarpgroupThreads + wg_tid,
               make_float4(acc[4 * v], acc[4 * v + 1], acc[4 * v + 2], acc[4 * v + 3]));
    }
}

// Adds the partial tile at `slot` (write_partial's layout) into the thread's accumulators,
// read through L2 (ld.global.cg: never a stale L1 line).
template <int Accumulators>
__device__ __forceinline__ void add_partial(float (&acc)[Accumulators], const float4* slot,
                                            int wg_tid) {
#pragma unroll
    for (int v = 0; v < Accumulators / 4; ++v) {
        const float4 p = __ldcg(slot + v * hopper::kWarpgroupThreads + wg_tid);
        acc[4 * v] += p.x;
        acc[4 * v + 1] += p.y;
        acc[4 * v + 2] += p.z;
        acc[4 * v + 3] += p.w;
    }
}
#endif  // TCLENS_HOPPER_DEVICE

// Launch bounds of 384 threads for both modes: they cap the registers at 168 a thread, so the
// consumers' setmaxnreg.inc to 232 is an increase in the 256-thread small-M mode too.
// kTraced: the traced variant (kernels/trace.cuh); false is the timed kernel, with no trace code.
// Per piece, thread 0 of the producer and every consumer warp record the tile boundary
// (kTileSchedule: schedule.piece and the tile's coordinates), then per K iteration the
// producer's kEmptyWait and the consumers' kFullWait and kWgmma in the last warp of each
// consumer warpgroup only (clock-only records held in its lanes, as rung 11's; K iterations
// numbered within their tile), and every consumer warp kEpilogue (last group drained, slot
// released); then a contributor's kStore of its partial tile (with the flag's release), or an
// owner's kFixupWait and kFixupReduce per contributor and the kStore of C.
template <typename Element, typename Config, bool kTraced>
__global__ void __launch_bounds__(3 * hopper::kWarpgroupThreads, 1)
    stream_k_gemm(const __grid_constant__ CUtensorMap a_map,
                  const __grid_constant__ CUtensorMap b_map, float* __restrict__ c, int m, int n,
                  std::int64_t ldc, int tiles_m, int tiles_n, StreamKSchedule schedule,
                  float* partials, std::uint32_t* flags, std::uint32_t epoch) {
#if defined(TCLENS_HOPPER_DEVICE)
    using C = Config;
    namespace hp = hopper;
    const TmaRing ring = tma_ring<C>();

    const int tid = threadIdx.x;
    const int cta = static_cast<int>(blockIdx.x);
    using viz::TracePhase;

    // Each role makes its tracer after start_warp_specialized: one made before it lives across
    // the producer's setmaxnreg.dec to 40 registers, where ptxas spilled its pointers to local
    // memory and the consumers loaded them back at every trace point (20 bytes spilled; traced
    // 3072^3 took 5.9 % longer than untraced then, 0.6 % now on an H200:
    // tests/gpu/results/2026-12-01_h200_session31).
    const int warpgroup = start_warp_specialized<C>(&a_map, &b_map, ring);
    if (warpgroup == 0) {
        if (tid == 0) {
            WarpTracer<kTraced> tracer;
            int it = 0;  // K iterations issued so far, over all pieces: slot it % stages
            StreamKPiece piece;
            auto scheduling = tracer.begin();
            for (int i = 0; schedule.piece(cta, i, piece); ++i, scheduling = tracer.begin()) {
                const BlockOrigin block = block_origin<C>(piece.tile, tiles_m, tiles_n);
                tracer.end(scheduling, TracePhase::kTileSchedule, -1);
                auto since = tracer.clock_lap();
                for (int kt = piece.k_begin; kt < piece.k_end; ++kt, ++it) {
                    since = produce_k_tile<C>(ring, it, kt, tracer, since,
                                              [&a_map, &b_map, kt, block](
                                                  unsigned char* stage, std::uint64_t* stage_full) {
                                                  load_k_tile<C>(stage, stage_full, &a_map, &b_map,
                                                                 kt, block.row, block.col);
                                              });
                }
            }
        }
        return;
    }

    const int consumer = warpgroup - 1;
    const int wg_tid = tid % hp::kWarpgroupThreads;
    const int lane = tid % 32;
    const int warp = wg_tid / 32;
    const int barrier_id = 1 + consumer;  // this consumer warpgroup's named barrier
    const std::uint64_t a_desc =
        hp::k_major_descriptor(ring.stages + consumer * hp::kWgmmaM * hp::kSwizzleRowBytes);
    const std::uint64_t b_desc = hp::mn_major_descriptor(ring.stages + C::kABytes, C::kBBoxBytes);
    // Workspace slot of CTA q for this consumer (write_partial says how it is laid out).
    const auto slot = [&](int q) {
        return reinterpret_cast<float4*>(partials) +
               (static_cast<std::int64_t>(q) * C::kConsumers + consumer) * (C::kPartialFloats / 4);
    };

    WarpTracer<kTraced> tracer;
    // The last warp of each consumer warpgroup records its K tiles, held in its lanes.
    HeldKTileLog<kTraced> k_tile_phases(tracer, k_tile_recording_warp());
    float acc[C::kAccumulators] = {};
    int it = 0;
    StreamKPiece piece;
    auto scheduling = tracer.begin();
    for (int i = 0; schedule.piece(cta, i, piece); ++i, scheduling = tracer.begin()) {
        tracer.end(scheduling, TracePhase::kTileSchedule, -1);
        k_tile_phases.start();
        for (int kt = piece.k_begin; kt < piece.k_end; ++kt, ++it) {
            consume_k_tile<C>(
                ring, it, kt, k_tile_phases, acc,
                [&acc, a_desc, b_desc, kt, &piece](int s) {
                    wgmma_slot<Element, C>(acc, a_desc, b_desc, s, kt == piece.k_begin);
                },
                [&ring, it, kt, lane, &piece] {
                    if (kt > piece.k_begin && lane == 0) {
                        hp::mbarrier_arrive(&ring.empty[(it - 1) % C::kStages]);
                    }
                });
        }
        k_tile_phases.flush();
        const auto draining = tracer.begin();
        hp::wgmma_wait_group<0>();
        hp::fence_accumulators(acc);
        if (lane == 0) {
            hp::mbarrier_arrive(&ring.empty[(it - 1) % C::kStages]);
        }
        tracer.end(draining, TracePhase::kEpilogue, -1);

        if (piece.k_begin > 0) {
            // A contributor: publish the partial tile for the owner, store nothing.
            const auto publishing = tracer.begin();
            write_partial(slot(cta), acc, wg_tid);
            hp::named_barrier_sync(barrier_id, hp::kWarpgroupThreads);
            if (wg_tid == 0) {
                hp::store_release_gpu(flags + cta * C::kConsumers + consumer, epoch);
            }
            tracer.end(publishing, TracePhase::kStore, -1);
            continue;
        }
        if (piece.k_end < schedule.k_iters) {
            // The owner of a split tile: add every contributor's partial, in CTA order.
            // Each wait begins where the reduce before it ended: one clock read per contributor.
            const int last = schedule.last_contributor(piece);
            auto waiting = tracer.begin();
            for (int q = cta + 1; q <= last; ++q) {
                if (wg_tid == 0) {
                    while (hp::load_acquire_gpu(flags + q * C::kConsumers + consumer) != epoch) {
                        __nanosleep(64);
                    }
                }
                hp::named_barrier_sync(barrier_id, hp::kWarpgroupThreads);
                const auto reducing = tracer.end(waiting, TracePhase::kFixupWait, -1);
                add_partial(acc, slot(q), wg_tid);
                waiting = tracer.end(reducing, TracePhase::kFixupReduce, -1);
            }
        }
        const auto storing = tracer.begin();

        // The consumer's 64 x BN tile straight from registers (rung 10's epilogue).
        const BlockOrigin block = block_origin<C>(piece.tile, tiles_m, tiles_n);
        store_wgmma_tile(c, m, n, ldc, acc, block.row + hp::kWgmmaM * consumer, block.col, warp,
                         lane);
        tracer.end(storing, TracePhase::kStore, -1);
    }
#else
    (void)a_map, (void)b_map, (void)c, (void)m, (void)n, (void)ldc, (void)tiles_m, (void)tiles_n,
        (void)schedule, (void)partials, (void)flags, (void)epoch;
#endif
}

// The workspace of one device (see the header): allocated on the first launch there.
struct StreamKWorkspace {
    float* partials = nullptr;
    std::uint32_t* flags = nullptr;
    int sms = 0;
    std::uint32_t epoch = 0;  // last epoch handed out
};

constexpr int kMaxDevices = 64;

// The current device's workspace and SM count, and the next epoch; allocates (and zeroes the
// flags, ordered on `stream` and waited for) on the device's first call. Thread-safe.
cudaError_t stream_k_workspace(cudaStream_t stream, StreamKWorkspace* out, std::uint32_t* epoch) {
    static std::mutex mutex;
    static StreamKWorkspace workspaces[kMaxDevices];
    int device = 0;
    cudaError_t status = cudaGetDevice(&device);
    if (status != cudaSuccess) return status;
    if (device < 0 || device >= kMaxDevices) return cudaErrorInvalidDevice;
    const std::lock_guard<std::mutex> lock(mutex);
    StreamKWorkspace& w = workspaces[device];
    if (w.partials == nullptr) {
        int sms = 0;
        status = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        if (status != cudaSuccess) return status;
        void* partials = nullptr;
        void* flags = nullptr;
        if ((status = cudaMalloc(&partials, static_cast<std::size_t>(
                                                stream_k_partials_bytes(sms)))) != cudaSuccess) {
            return status;
        }
        const auto flag_bytes = static_cast<std::size_t>(stream_k_flags_bytes(sms));
        if ((status = cudaMalloc(&flags, flag_bytes)) != cudaSuccess ||
            (status = cudaMemsetAsync(flags, 0, flag_bytes, stream)) != cudaSuccess ||
            (status = cudaStreamSynchronize(stream)) != cudaSuccess) {
            cudaFree(partials);
            if (flags != nullptr) cudaFree(flags);
            return status;
        }
        w.partials = static_cast<float*>(partials);
        w.flags = static_cast<std::uint32_t*>(flags);
        w.sms = sms;
    }
    if (++w.epoch == 0) ++w.epoch;  // 0 is the zeroed flags' value: never "published"
    *out = w;
    *epoch = w.epoch;
    return cudaSuccess;
}

template <typename Element, typename Config, bool kTraced>
cudaError_t stream_k_launch_config(const GemmOperands& operands, cudaStream_t stream) {
    const GemmProblem& p = operands.problem;
    const auto kernel = stream_k_gemm<Element, Config, kTraced>;
    cudaError_t status =
        opt_in_shared_memory(reinterpret_cast<const void*>(kernel), Config::kSmemBytes, false);
    if (status != cudaSuccess) return status;
    StreamKWorkspace workspace;
    std::uint32_t epoch = 0;
    if ((status = stream_k_workspace(stream, &workspace, &epoch)) != cudaSuccess) return status;
    TmaTileOperands t;
    if (!encode_tma_tile_operands<Element, Config>(operands, &t)) {
        return cudaErrorInvalidValue;
    }
    const StreamKSchedule schedule = stream_k_schedule_for(p, workspace.sms);
    kernel<<<static_cast<unsigned>(schedule.ctas), Config::kThreads, Config::kSmemBytes, stream>>>(
        t.a_map, t.b_map, operands.c, static_cast<int>(p.m), static_cast<int>(p.n),
        c_stride(operands), t.tiles_m, t.tiles_n, schedule, workspace.partials, workspace.flags,
        epoch);
    return cudaGetLastError();
}

// The mode stream_k_mode picks for M (the traced variant with kTraced).
template <typename Element, bool kTraced = false>
cudaError_t stream_k_launch(const GemmOperands& operands, cudaStream_t stream) {
    return stream_k_mode(operands.problem.m) == StreamKMode::kSmallM
               ? stream_k_launch_config<Element, SmallMConfig, kTraced>(operands, stream)
               : stream_k_launch_config<Element, WideConfig, kTraced>(operands, stream);
}

// The traced variant: the same launch, with this file's trace sink set first.
template <typename Element>
cudaError_t stream_k_traced_launch(const GemmOperands& operands, const TraceSink& sink,
                                   cudaStream_t stream) {
    return with_trace_sink(sink, stream,
                           [&] { return stream_k_launch<Element, true>(operands, stream); });
}

// The current device's SM count; kDefaultPersistentSms without one.
int current_sms() {
    int device = 0;
    int sms = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
        sms < 1) {
        return kDefaultPersistentSms;
    }
    return sms;
}

}  // namespace

void attach_wgmma_stream_k_launches(KernelDescriptor& d) {
    attach_sixteen_bit_launch(d, stream_k_launch<__half>, stream_k_launch<__nv_bfloat16>);
    attach_tma_traced_launch(d, stream_k_traced_launch<__half>,
                             stream_k_traced_launch<__nv_bfloat16>);
    d.traced.shape = [](const GemmProblem& problem) {
        return stream_k_traced_shape(problem, current_sms());
    };
}

}  // namespace tclens::kernels
