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
// e4m3. Tunables: PersistentShape in kernels/persistent_gemm.h (BN, stages, cluster size, raster
// band and its direction, store rows and buffers, release granularity), whose numbers the Config
// takes; both descriptors describe ChosenPersistentShape: 128 x 256 x 64 tiles here, 4 stages
// (192 KiB) + 32 KiB of epilogue buffers (one 16-row store group per consumer warp, two 2 KiB
// buffers each), clusters of 2 along M sharing B, bands of 8 cluster rows, one empty arrival per
// consumer warpgroup and CTA. The descriptor: 11_wgmma_persistent.cpp; the two tiles:
// 11_wgmma_persistent.h.
//
// Two tiles, one per problem: wave quantisation. The grid is one round of as many clusters as
// fit at once (66 on an H100's 132 SMs); a problem of 2.18 waves of 128 x 256 tiles (3072^3:
// 288 tiles) takes 3 rounds with the last one 18 % busy. The same kernel with 128 x 192 tiles
// (NarrowShape: m64n192k16, 96 accumulators a thread, three B boxes a stage, 2 + 1 of them
// multicast by the two CTAs, six 32-column store subtiles) makes it 384 tiles = 2.91 waves, the
// same 3 rounds 97 % busy. The launch asks kernels/wave_choice.h which tile the problem gets,
// from the co-resident cluster count it looks up: 128 x 192 only where even its higher load per
// multiply-add cannot lose (3072^3, lab 6's M = 1024 and 2048), else 128 x 256 (4096^3,
// 8192^3). NarrowShape keeps the 4 stages: 4 x (16 + 24) KiB + 32 KiB of epilogue buffers is
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

#include <type_traits>

#include "kernels/11_wgmma_persistent.h"
#include "kernels/ladder_launches.h"
#include "kernels/persistent_gemm.cuh"
#include "kernels/sixteen_bit_launch.h"
#include "kernels/tile_map_spec.h"
#include "kernels/tma_rung.cuh"
#include "kernels/trace.cuh"
#include "kernels/wave_choice.h"

namespace tclens::kernels {
namespace {

using namespace wgmma_persistent;

// The kernel's Configs of the two tiles (11_wgmma_persistent.h) for Element.
template <typename Element>
using WideConfig = PersistentConfigOf<Element, WideShape>;
template <typename Element>
using NarrowConfig = PersistentConfigOf<Element, NarrowShape>;
static_assert(std::is_same_v<WideConfig<__half>, ChosenPersistentConfig<__half>>,
              "the wide tile is the tuning rungs 11 and 13 share");
static_assert(std::is_base_of_v<WideShape, WideConfig<__nv_bfloat16>> &&
                  std::is_base_of_v<NarrowShape, NarrowConfig<__nv_bfloat16>>,
              "the kernel's Configs have the descriptor's numbers");

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
    return has_tile<NarrowShape>(persistent_tile_for(operands.problem, clusters))
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

// The traced shape of the tile the problem gets on the current device (without one,
// kDefaultPersistentSms / kClusterM clusters).
template <typename Element>
TracedShape device_traced_shape(const GemmProblem& problem) {
    int clusters = 0;
    if (persistent_co_resident_clusters<WideConfig<Element>>(&clusters) != cudaSuccess) {
        clusters = kDefaultPersistentSms / WideShape::kClusterM;
    }
    return persistent_traced_shape(problem, clusters);
}

// The launches of `d`, a descriptor of either tile: both pick the tile per problem.
void attach_persistent_launches(KernelDescriptor& d) {
    attach_sixteen_bit_launch(d, wave_chosen_launch<__half>, wave_chosen_launch<__nv_bfloat16>);
    attach_tma_traced_launch(d, persistent_traced_launch<__half>,
                             persistent_traced_launch<__nv_bfloat16>);
    if (d.precision == Precision::kBF16) {
        d.traced.shape = device_traced_shape<__nv_bfloat16>;
    } else {
        d.traced.shape = device_traced_shape<__half>;
    }
}

}  // namespace

void attach_wgmma_persistent_launches(KernelDescriptor& d) {
    attach_persistent_launches(d);
    if (d.for_problem == nullptr) return;
    d.for_problem = [describe = d.for_problem](const GemmProblem& problem, int sms) {
        KernelDescriptor chosen = describe(problem, sms);
        attach_persistent_launches(chosen);
        return chosen;
    };
}

}  // namespace tclens::kernels
