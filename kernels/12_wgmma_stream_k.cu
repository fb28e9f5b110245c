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

#include "kernels/block_order.h"
#include "kernels/hopper.cuh"
#include "kernels/ladder.h"
#include "kernels/sixteen_bit_rung.h"
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

template <int Consumers, int BlockN, int Stages, int Group>
struct StreamKConfig : TmaStageLayout<Consumers * hopper::kWgmmaM, BlockN> {
    static constexpr int kConsumers = Consumers;  // consumer warpgroups, 64 rows of C each
    static constexpr int kBlockM = kConsumers * hopper::kWgmmaM;
    static constexpr int kBlockN = BlockN;
    static constexpr int kBlockK = hopper::kBoxElems;
    static constexpr int kStages = Stages;
    static constexpr int kGroup = Group;  // raster bands of kGroup tile rows

    static constexpr int kThreads = (1 + kConsumers) * hopper::kWarpgroupThreads;
    static constexpr int kWgmmaN = kBlockN;
    static constexpr int kSteps = kBlockK / hopper::kWgmmaK;  // wgmma k16 steps per K tile
    static constexpr int kAccumulators = kWgmmaN / 2;         // per consumer thread

    // The ring, then full[stages] and empty[stages].
    static constexpr int kSmemBytes = TmaStageLayout<kBlockM, kBlockN>::ring_smem_bytes(kStages, 2);
    // Floats of one consumer warpgroup's partial tile in the workspace.
    static constexpr int kPartialFloats = hopper::kWarpgroupThreads * kAccumulators;

    static_assert(kBlockN == 128 || kBlockN == 256, "wgmma_ss has N 64/128/256; 128 or 256 here");
    static_assert(kConsumers == 1 || kConsumers == 2, "one or two consumer warpgroups");
    static_assert(kStages >= 2, "the producer refills one slot while another is consumed");
    static_assert(kSmemBytes <= 227 * 1024, "shared memory must fit one H100 block");

    // Tile id -> (tile row, tile col): bands of kGroup tile rows (kernels/block_order.h).
    __host__ __device__ static void block_tile(int id, int tiles_m, int tiles_n, int& tile_m,
                                               int& tile_n) {
        rasterise_column_bands(id, tiles_m, tiles_n, kGroup, tile_m, tile_n);
    }
};

using WideConfig = StreamKConfig<2, 256, 4, 8>;
using SmallMConfig = StreamKConfig<1, 128, 6, 8>;
static_assert(WideConfig::kBlockM == kStreamKWideShape.block_m &&
                  WideConfig::kBlockN == kStreamKWideShape.block_n &&
                  WideConfig::kConsumers == kStreamKWideShape.consumers,
              "the wide config is the schedule's wide shape");
static_assert(SmallMConfig::kBlockM == kStreamKSmallMShape.block_m &&
                  SmallMConfig::kBlockN == kStreamKSmallMShape.block_n &&
                  SmallMConfig::kConsumers == kStreamKSmallMShape.consumers,
              "the small-M config is the schedule's small-M shape");
static_assert(SmallMConfig::kPartialFloats * SmallMConfig::kConsumers <=
                  WideConfig::kPartialFloats * WideConfig::kConsumers,
              "a workspace slot holds either mode's partial tile");
static_assert(SmallMConfig::kSteps == WideConfig::kSteps,
              "both modes issue the same wgmma per K iteration (the traced launch's phases)");

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
// (kTileSchedule: schedule.piece and the tile's coordinates), then per K iteration rung 10's
// phases (producer: kEmptyWait, kLoadIssue; consumers: kFullWait, kWgmma, K iterations numbered
// within their tile), and the consumers kEpilogue (last group drained, slot released); then a
// contributor's kStore of its partial tile (with the flag's release), or an owner's kFixupWait
// and kFixupReduce per contributor and the kStore of C.
template <typename Element, typename Config, bool kTraced>
__global__ void __launch_bounds__(3 * hopper::kWarpgroupThreads, 1)
    stream_k_gemm(const __grid_constant__ CUtensorMap a_map,
                  const __grid_constant__ CUtensorMap b_map, float* __restrict__ c, int m, int n,
                  int tiles_m, int tiles_n, StreamKSchedule schedule, float* partials,
                  std::uint32_t* flags, std::uint32_t epoch) {
#if defined(TCLENS_HOPPER_DEVICE)
    using C = Config;
    namespace hp = hopper;
    const TmaRing ring = tma_ring<C>();

    const int tid = threadIdx.x;
    const int cta = static_cast<int>(blockIdx.x);
    using viz::TracePhase;
    WarpTracer<kTraced> tracer;

    const int warpgroup = start_warp_specialized<C>(&a_map, &b_map, ring);
    if (warpgroup == 0) {
        if (tid == 0) {
            int it = 0;  // K iterations issued so far, over all pieces: slot it % stages
            StreamKPiece piece;
            auto scheduling = tracer.begin();
            for (int i = 0; schedule.piece(cta, i, piece); ++i, scheduling = tracer.begin()) {
                const BlockOrigin block = block_origin<C>(piece.tile, tiles_m, tiles_n);
                tracer.end(scheduling, TracePhase::kTileSchedule, -1);
                for (int kt = piece.k_begin; kt < piece.k_end; ++kt, ++it) {
                    produce_k_tile<C>(ring, it, kt, tracer,
                                      [&a_map, &b_map, kt, block](unsigned char* stage,
                                                                  std::uint64_t* stage_full) {
                                          load_k_tile<C>(stage, stage_full, &a_map, &b_map, kt,
                                                         block.row, block.col);
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

    float acc[C::kAccumulators] = {};
    int it = 0;
    StreamKPiece piece;
    auto scheduling = tracer.begin();
    for (int i = 0; schedule.piece(cta, i, piece); ++i, scheduling = tracer.begin()) {
        tracer.end(scheduling, TracePhase::kTileSchedule, -1);
        for (int kt = piece.k_begin; kt < piece.k_end; ++kt, ++it) {
            consume_k_tile<C>(ring, it, kt, tracer, acc, [&acc, a_desc, b_desc, kt, &piece](int s) {
                wgmma_slot<Element, C>(acc, a_desc, b_desc, s, kt == piece.k_begin);
            });
            if (kt > piece.k_begin && lane == 0) {
                hp::mbarrier_arrive(&ring.empty[(it - 1) % C::kStages]);
            }
        }
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
            const int last = schedule.last_contributor(piece);
            for (int q = cta + 1; q <= last; ++q) {
                const auto waiting = tracer.begin();
                if (wg_tid == 0) {
                    while (hp::load_acquire_gpu(flags + q * C::kConsumers + consumer) != epoch) {
                        __nanosleep(64);
                    }
                }
                hp::named_barrier_sync(barrier_id, hp::kWarpgroupThreads);
                const auto reducing = tracer.end(waiting, TracePhase::kFixupWait, -1);
                add_partial(acc, slot(q), wg_tid);
                tracer.end(reducing, TracePhase::kFixupReduce, -1);
            }
        }
        const auto storing = tracer.begin();

        // The consumer's 64 x BN tile straight from registers (rung 10's epilogue).
        const BlockOrigin block = block_origin<C>(piece.tile, tiles_m, tiles_n);
        store_wgmma_tile(c, m, n, acc, block.row + hp::kWgmmaM * consumer, block.col, warp, lane);
        tracer.end(storing, TracePhase::kStore, -1);
    }
#else
    (void)a_map, (void)b_map, (void)c, (void)m, (void)n, (void)tiles_m, (void)tiles_n,
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
        t.a_map, t.b_map, operands.c, static_cast<int>(p.m), static_cast<int>(p.n), t.tiles_m,
        t.tiles_n, schedule, workspace.partials, workspace.flags, epoch);
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

// The traced launch's shape (gemm.h) for `problem` on `sms` SMs: the schedule's grid, the mode's
// warps, and per warp the most phases any CTA's warp records, walking its pieces as the kernel
// does. Per piece: one kTileSchedule and 2 per K iteration (producer: empty wait, load issue;
// consumers: full wait, wgmma); the consumers add the epilogue, then a contributor its partial
// store, an owner 2 per contributor (fix-up wait, reduce) and its store.
TracedShape stream_k_traced_shape(const GemmProblem& problem, int sms) {
    const StreamKSchedule schedule = stream_k_schedule_for(problem, sms);
    TracedShape shape;
    shape.grid_blocks = schedule.ctas;
    shape.warps_per_block = (1 + stream_k_shape(stream_k_mode(problem.m)).consumers) * 4;
    for (int cta = 0; cta < schedule.ctas; ++cta) {
        std::int64_t producer = 0;
        std::int64_t consumer = 0;
        StreamKPiece piece;
        for (int i = 0; schedule.piece(cta, i, piece); ++i) {
            const std::int64_t k_iters = piece.k_end - piece.k_begin;
            producer += 1 + 2 * k_iters;
            consumer += 1 + 2 * k_iters + 1 + 1;
            if (piece.k_begin == 0 && piece.k_end < schedule.k_iters) {
                consumer += 2 * (schedule.last_contributor(piece) - cta);
            }
        }
        shape.records_per_warp = std::max({shape.records_per_warp, producer, consumer});
    }
    return shape;
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

// tma_gemm_can_run's limits for the mode's tile (sides <= 2^30, K and N multiples of 8, tiles
// a 32-bit int); the schedule's unit arithmetic is 64-bit, so nothing more.
std::string stream_k_can_run(const GemmProblem& problem) {
    const StreamKModeShape shape = stream_k_shape(stream_k_mode(problem.m));
    return tma_gemm_can_run(problem, shape.block_m, shape.block_n);
}

// The tile map's block -> tile (one tile per block, the wide mode's raster order): see the
// descriptor's pipeline note for what it leaves out.
TileIndex stream_k_block_tile(int block, int round, int blocks, int tiles_m, int tiles_n) {
    TileIndex tile;
    const int id = block + round * blocks;
    if (id >= tiles_m * tiles_n) return tile;
    WideConfig::block_tile(id, tiles_m, tiles_n, tile.row, tile.col);
    return tile;
}

}  // namespace

// kF16 and kBF16 give "wgmma_streamk.f16" / ".bf16"; any other precision a descriptor that
// refuses every problem (set_sixteen_bit_inputs). The descriptor describes the wide mode; the
// small-M mode (M <= 256) is named by launch_plan.
KernelDescriptor wgmma_stream_k_kernel(Precision precision) {
    using C = WideConfig;
    const std::string n = std::to_string(C::kWgmmaN);
    KernelDescriptor d;
    d.rung = 12;
    d.title = "stream-K persistent, producer + 2 wgmma m64n" + n +
              "k16 consumers, small-M mode m64n128k16";
    d.adds =
        "data-parallel waves, then the last partial wave's K loops split evenly over every SM "
        "with an f32 fix-up of split tiles; M <= 256: one consumer, 64 x 128 tiles, split-K over "
        "all SMs";
    describe_tma_rung<C>(d, 1, C::kConsumers, 16);  // warpgroup 0 is the producer
    d.layout_ids.push_back("wgmma.m64n" + std::to_string(SmallMConfig::kWgmmaN) +
                           "k16.f16");  // the small-M mode's instruction
    d.schedule.raster = viz::RasterOrder::kColumnBands;
    d.schedule.raster_group = C::kGroup;
    d.schedule.ring_across_tiles = true;
    d.schedule.load_instruction = "TMA 2-D box (cp.async.bulk.tensor) from the producer";
    // The tile map's model has one C tile per block and no K ranges: it draws the tiles in the
    // kernel's raster order, one block each, and this note says what it cannot draw.
    d.schedule.pipeline_note =
        "persistent CTAs, one per SM: the first full waves take whole tiles in this order, the "
        "K loops of the last tiles are split evenly over all CTAs and summed through an f32 "
        "workspace (the map cannot draw K ranges; tclens kernels --mnk prints the split)";
    d.block_tile_of = stream_k_block_tile;
    d.launch_plan = [](const GemmProblem& problem) {
        return stream_k_plan_text(problem, kDefaultPersistentSms);
    };
    set_sixteen_bit_inputs(d, precision, "wgmma_streamk", stream_k_can_run, stream_k_launch<__half>,
                           stream_k_launch<__nv_bfloat16>);
    // Both modes issue 4 wgmma (k16 steps of a 64-deep K iteration) per consumer warp and phase.
    set_tma_traced_launch<C>(d, precision, stream_k_traced_launch<__half>,
                             stream_k_traced_launch<__nv_bfloat16>, C::kSteps);
    d.traced.shape = [](const GemmProblem& problem) {
        return stream_k_traced_shape(problem, current_sms());
    };
    return d;
}

}  // namespace tclens::kernels
