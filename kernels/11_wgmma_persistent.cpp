// Rung 11's descriptor (its kernel and launch: 11_wgmma_persistent.cu).
#include "kernels/11_wgmma_persistent.h"

#include <cstdint>
#include <string>

#include "kernels/ladder.h"
#include "kernels/persistent_gemm.h"
#include "kernels/sixteen_bit_rung.h"
#include "kernels/tile_map_spec.h"
#include "kernels/tma_rung_descriptor.h"
#include "kernels/tma_tile_limits.h"
#include "kernels/wave_choice.h"

namespace tclens::kernels {
namespace wgmma_persistent {
namespace {

// The traced launch's shape with Shape's tile on `clusters` co-resident clusters:
// persistent_launch's grid, kThreads / 32 warps, and per warp the phases of the most output
// tiles a cluster takes: per tile a kTileSchedule, 2 per K tile (the last warp of each consumer
// warpgroup: full wait, wgmma; the producer records 1, its empty wait), and the consumers'
// epilogue and store.
template <typename Shape>
TracedShape persistent_traced_shape_on(const GemmProblem& problem, int clusters) {
    using C = Shape;
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

}  // namespace

TracedShape persistent_traced_shape(const GemmProblem& problem, int clusters) {
    return has_tile<NarrowShape>(persistent_tile_for(problem, clusters))
               ? persistent_traced_shape_on<NarrowShape>(problem, clusters)
               : persistent_traced_shape_on<WideShape>(problem, clusters);
}

}  // namespace wgmma_persistent

namespace {

using namespace wgmma_persistent;

// The narrow tile has the more tiles, so its size limits (tma_gemm_can_run) cover both.
std::string wave_chosen_can_run(const GemmProblem& problem) {
    return tma_tile_can_run<NarrowShape>(problem);
}

// Rung 11's descriptor with Shape's tile (the same geometry for f16 and bf16); `title_note`
// ends the title. Its traced shape assumes kDefaultPersistentSms SMs; the GPU registry's copy
// asks the current device.
template <typename Shape>
KernelDescriptor persistent_descriptor(Precision precision, const std::string& title_note) {
    using C = Shape;
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
    // One consumer warp per warpgroup records the K tiles: a kWgmma phase stands for its four
    // warps' k16 steps.
    d.traced.wgmma_per_phase = C::kBlockK / hopper::kWgmmaK * hopper::kWarpgroupWarps;
    d.traced.shape = [](const GemmProblem& problem) {
        return persistent_traced_shape(problem, kDefaultPersistentSms / WideShape::kClusterM);
    };
    return d;
}

}  // namespace

// kF16 and kBF16 give "wgmma_persistent.f16" / ".bf16": the fields of the 128 x 256 tile, and
// for_problem of the tile each problem gets (kernels/wave_choice.h; launch_plan says which and
// why); any other precision a descriptor that refuses every problem (set_sixteen_bit_inputs).
KernelDescriptor wgmma_persistent_kernel(Precision precision) {
    using Narrow = NarrowShape;
    const std::string narrow_tile =
        std::to_string(Narrow::kBlockM) + " x " + std::to_string(Narrow::kBlockN) + " tiles";
    KernelDescriptor d = persistent_descriptor<WideShape>(
        precision, " (m64n" + std::to_string(Narrow::kWgmmaN) + "k16 and " + narrow_tile +
                       " where they fill the waves better)");
    const int cluster_m = WideShape::kClusterM;
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
                                      : persistent_descriptor<WideShape>(precision, note);
        chosen.launch_plan = [clusters](const GemmProblem& p) {
            return persistent_plan_text(p, clusters);
        };
        return chosen;
    };
    return d;
}

}  // namespace tclens::kernels
