// Rung 11: a persistent, clustered version of rung 10. One block per SM (as many as fit at
// once) loops over the output tiles in an L2-friendly order; blocks are paired into clusters of
// two that compute vertically adjacent tiles and share B: each CTA loads half of the B tile and
// TMA multicasts it into both CTAs' shared memory; C leaves through shared memory with TMA
// stores, asynchronous and clipped at the matrix edge.
//
// Adds to rung 10:
//   - persistent tile scheduler: gridDim = the number of co-resident clusters x cluster size;
//     cluster q takes cluster tiles q, q + clusters, ... in grouped raster order (bands of
//     kGroup cluster rows walked down M first, or of kGroup tile columns walked along N first). The
//     producer runs on into the next tile while the consumers are still in the epilogue of this one
//     (the epilogue buffers are not part of the ring); the ring of stages and its barrier phases
//     continue across tiles (a running K-tile counter).
//   - thread-block cluster (ClusterM x 1) with TMA multicast: CTA rank r issues B boxes
//     r * ceil(boxes / ClusterM) .. (the last rank what is left: 2 + 1 of a 128 x 192 tile's 3)
//     with .multicast::cluster to every CTA; each CTA's full barrier expects its own A box plus
//     the whole B tile. A slot may only be refilled once the
//     consumers of every CTA in the cluster have released it, so consumers arrive on the empty
//     barrier of every CTA of the cluster (mapa + mbarrier.arrive.shared::cluster, CTA-scope
//     release). kReleasePerWarpgroup: lane 0 of warp r of each consumer warpgroup arrives on
//     CTA r once the warpgroup's wgmma of the slot are complete (empty expects consumers x
//     ClusterM arrivals; CUTLASS's PipelineTmaAsync does the same), else lanes 0 .. ClusterM-1
//     of every consumer warp arrive, one CTA each (4 x consumers x ClusterM arrivals).
//   - epilogue through shared memory: C is written in subtiles of kStoreRows x 32 f32 (one
//     128-byte swizzled row per C row, so the float2 writes are conflict-free) into one of
//     kStoreBuffers buffers of the store group (a warp for kStoreRows = 16: __syncwarp only;
//     the consumer warpgroup for 64: a named barrier), fenced into the async proxy, and stored
//     by one thread with a TMA store; a buffer is rewritten only after
//     cp.async.bulk.wait_group.read says its previous store has read it.
//
// The kernel, its Config and its launch live in kernels/persistent_gemm.cuh, generic over the
// input type: this rung instantiates them for f16 and bf16, rung 13 (13_wgmma_fp8.cu) for FP8
// e4m3. Tunables: PersistentConfig there (BN, stages, cluster size, raster band and its
// direction, store rows and buffers, release granularity); both descriptors launch
// ChosenPersistentConfig: 128 x 256 x 64 tiles here, 4 stages (192 KiB) + 32 KiB of epilogue
// buffers (one 16-row store group per consumer warp, two 2 KiB buffers each), clusters of 2
// along M sharing B, bands of 8 cluster rows, one empty arrival per consumer warpgroup and CTA.
//
// Two tiles, one per problem: wave quantisation. The grid is one round of as many clusters as
// fit at once (66 on an H100's 132 SMs); a problem of 2.18 waves of 128 x 256 tiles (3072^3:
// 288 tiles) takes 3 rounds with the last one 18 % busy. The same kernel with 128 x 192 tiles
// (NarrowConfig: m64n192k16, 96 accumulators a thread, three B boxes a stage, 2 + 1 of them
// multicast by the two CTAs, six 32-column store subtiles) makes it 384 tiles = 2.91 waves, the
// same 3 rounds 97 % busy. The launch asks kernels/wave_choice.h which tile the problem gets,
// from the co-resident cluster count it looks up: 128 x 192 only where even its higher load per
// multiply-add cannot lose (3072^3, lab 6's M = 1024 and 2048), else 128 x 256 (4096^3,
// 8192^3). NarrowConfig keeps the 4 stages: 4 x (16 + 24) KiB + 32 KiB of epilogue buffers is
// 193 KiB; a fifth stage (233 KiB with them) does not fit the 227 KiB a block may have.
//
// Threads and tiles: as rung 10 (producer warpgroup 0, consumers 1 and 2 with 64 x BN each,
// m64nBNk16, setmaxnreg 40 / 232).
//
// Shared memory: 1 KiB alignment slack; stages (A box 128 rows, BN / 64 B boxes, "tma128");
// epilogue buffers (store group q, buffer b at kStoreBytes x (kStoreBuffers q + b));
// full[stages]; empty[stages] (persistent_gemm.cuh).
//
// Edges: K % 8 == 0 and N % 8 == 0 (TMA's 16-byte strides for A, B and C); everything else is
// TMA's: loads past the matrix read zeros (a cluster's second CTA past M computes a zero tile),
// stores past it are clipped.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <string>

#include "kernels/ladder.h"
#include "kernels/persistent_gemm.cuh"
#include "kernels/sixteen_bit_launch.h"
#include "kernels/sixteen_bit_rung.h"
#include "kernels/tile_map_spec.h"
#include "kernels/tma_rung.cuh"
#include "kernels/trace.cuh"
#include "kernels/wave_choice.h"

namespace tclens::kernels {
namespace {

// The two tiles (see the header): ChosenPersistentConfig's 128 x 256, and the same tuning with
// 128 x 192.
template <typename Element>
using WideConfig = ChosenPersistentConfig<Element>;
template <typename Element>
using NarrowConfig = PersistentConfig<Element, 192, 4, 2, 8, 16, 2, true>;

template <typename Config>
constexpr bool has_tile(PersistentTile tile) {
    return Config::kBlockM == tile.block_m && Config::kBlockN == tile.block_n &&
           Config::kClusterM == tile.cluster_m;
}
static_assert(has_tile<WideConfig<__half>>(kPersistentWideTile) &&
                  has_tile<NarrowConfig<__half>>(kPersistentNarrowTile),
              "the configs are the tiles kernels/wave_choice.h chooses between");
static_assert(NarrowConfig<__half>::kSmemBytes < WideConfig<__half>::kSmemBytes,
              "the descriptor's shared memory (the wide tile's) covers both");

// The tile persistent_tile_for picks for the problem, on the clusters of the wide config that
// fit at once (persistent_clusters, after the shared-memory opt-in it needs); kTraced launches
// that tile's traced variant.
template <typename Element, bool kTraced = false>
cudaError_t wave_chosen_launch(const GemmOperands& operands, cudaStream_t stream) {
    int clusters = 0;
    const cudaError_t status = persistent_co_resident_clusters<WideConfig<Element>>(&clusters);
    if (status != cudaSuccess) {
        return status;
    }
    return has_tile<NarrowConfig<Element>>(persistent_tile_for(operands.problem, clusters))
               ? persistent_launch<NarrowConfig<Element>, kTraced>(operands, stream)
               : persistent_launch<WideConfig<Element>, kTraced>(operands, stream);
}

// The traced variant (persistent_gemm.cuh, kTraced): the same choice of tile and launch, with
// this file's trace sink set first.
template <typename Element>
cudaError_t persistent_traced_launch(const GemmOperands& operands, const TraceSink& sink,
                                     cudaStream_t stream) {
    const cudaError_t status = set_trace_sink(sink, stream);
    if (status != cudaSuccess) return status;
    return wave_chosen_launch<Element, true>(operands, stream);
}

// The traced launch's shape (gemm.h) with Config's tile on `clusters` co-resident clusters:
// persistent_launch's grid, kThreads / 32 warps, and per warp the phases of the most output
// tiles a cluster takes: per tile a kTileSchedule, 2 per K tile (producer: empty wait, load
// issue; consumers: full wait, wgmma), and the consumers' epilogue and store.
template <typename Config>
TracedShape persistent_traced_shape_on(const GemmProblem& problem, int clusters) {
    using C = Config;
    TracedShape shape;
    shape.grid_blocks = persistent_grid<C>(problem, clusters);
    shape.warps_per_block = C::kThreads / 32;
    const std::int64_t cluster_tiles =
        tiles_covering(tiles_covering(problem.m, C::kBlockM), C::kClusterM) *
        tiles_covering(problem.n, C::kBlockN);
    const std::int64_t grid_clusters = shape.grid_blocks / C::kClusterM;
    const std::int64_t tiles_per_cluster =
        grid_clusters > 0 ? tiles_covering(cluster_tiles, static_cast<int>(grid_clusters)) : 0;
    shape.records_per_warp = tiles_per_cluster * (2 * tiles_covering(problem.k, C::kBlockK) + 3);
    return shape;
}

// The shape of the tile the problem gets on the current device (without one,
// kDefaultPersistentSms / kClusterM clusters).
template <typename Element>
TracedShape persistent_traced_shape(const GemmProblem& problem) {
    int clusters = 0;
    if (persistent_co_resident_clusters<WideConfig<Element>>(&clusters) != cudaSuccess) {
        clusters = kDefaultPersistentSms / WideConfig<Element>::kClusterM;
    }
    return has_tile<NarrowConfig<Element>>(persistent_tile_for(problem, clusters))
               ? persistent_traced_shape_on<NarrowConfig<Element>>(problem, clusters)
               : persistent_traced_shape_on<WideConfig<Element>>(problem, clusters);
}

// The narrow tile has the more tiles, so its size limits (tma_gemm_can_run) cover both.
std::string wave_chosen_can_run(const GemmProblem& problem) {
    return tma_tile_can_run<NarrowConfig<__half>>(problem);
}

// Rung 11's descriptor with Config's tile (the same geometry for __half and __nv_bfloat16);
// `title_note` ends the title.
template <typename Config>
KernelDescriptor persistent_descriptor(Precision precision, const std::string& title_note) {
    using C = Config;
    const std::string n = std::to_string(C::kWgmmaN);
    KernelDescriptor d;
    d.rung = 11;
    d.title = "persistent, " + std::to_string(C::kClusterM) + "x1 clusters with TMA multicast, " +
              "TMA-store epilogue, wgmma m64n" + n + "k16" + title_note;
    d.adds = "a persistent tile loop in bands of " + std::to_string(C::kGroup) +
             (C::kRasterAlongN ? " tile columns" : " cluster rows") + ", B multicast to a " +
             std::to_string(C::kClusterM) +
             "-CTA cluster, C stored from swizzled shared memory by TMA, and the tile per problem "
             "that leaves fewer SMs idle in the last wave";
    describe_tma_rung<C>(d, 1, C::kConsumers, 16);  // warpgroup 0 is the producer
    describe_persistent_schedule<C>(d);
    set_sixteen_bit_inputs(d, precision, "wgmma_persistent", wave_chosen_can_run);
    attach_sixteen_bit_launch(d, wave_chosen_launch<__half>, wave_chosen_launch<__nv_bfloat16>);
    static_assert(WideConfig<__half>::kBlockK == C::kBlockK, "both tiles run 4 wgmma per K tile");
    attach_tma_traced_launch(d, persistent_traced_launch<__half>,
                             persistent_traced_launch<__nv_bfloat16>);
    d.traced.wgmma_per_phase = C::kBlockK / hopper::kWgmmaK;
    if (precision == Precision::kBF16) {
        d.traced.shape = persistent_traced_shape<__nv_bfloat16>;
    } else {
        d.traced.shape = persistent_traced_shape<__half>;
    }
    return d;
}

}  // namespace

// kF16 and kBF16 give "wgmma_persistent.f16" / ".bf16": the fields of the 128 x 256 tile, the
// launch and for_problem of the tile each problem gets (kernels/wave_choice.h; launch_plan says
// which and why); any other precision a descriptor that refuses every problem
// (set_sixteen_bit_inputs).
KernelDescriptor wgmma_persistent_kernel(Precision precision) {
    using Narrow = NarrowConfig<__half>;
    const std::string narrow_tile =
        std::to_string(Narrow::kBlockM) + " x " + std::to_string(Narrow::kBlockN) + " tiles";
    KernelDescriptor d = persistent_descriptor<WideConfig<__half>>(
        precision, " (m64n" + std::to_string(Narrow::kWgmmaN) + "k16 and " + narrow_tile +
                       " where they fill the waves better)");
    const int cluster_m = WideConfig<__half>::kClusterM;
    d.launch_plan = [cluster_m](const GemmProblem& problem) {
        return persistent_plan_text(problem, kDefaultPersistentSms / cluster_m);
    };
    d.for_problem = [precision, cluster_m](const GemmProblem& problem, int sms) {
        const int clusters = sms / cluster_m > 0 ? sms / cluster_m : 1;
        const PersistentTile tile = persistent_tile_for(problem, clusters);
        const std::string note = " (" + std::to_string(tile.block_m) + " x " +
                                 std::to_string(tile.block_n) + " tiles for this size)";
        KernelDescriptor chosen = has_tile<Narrow>(tile)
                                      ? persistent_descriptor<Narrow>(precision, note)
                                      : persistent_descriptor<WideConfig<__half>>(precision, note);
        chosen.launch_plan = [clusters](const GemmProblem& p) {
            return persistent_plan_text(p, clusters);
        };
        return chosen;
    };
    return d;
}

}  // namespace tclens::kernels
