// Rung 12's descriptor (its kernel and launch: 12_wgmma_stream_k.cu).
#include "kernels/12_wgmma_stream_k.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "kernels/block_order.h"
#include "kernels/hopper_shapes.h"
#include "kernels/ladder.h"
#include "kernels/sixteen_bit_rung.h"
#include "kernels/stream_k_schedule.h"
#include "kernels/tile_map_spec.h"
#include "kernels/tma_rung_descriptor.h"
#include "kernels/tma_tile_limits.h"

namespace tclens::kernels {
namespace wgmma_stream_k {

// The traced launch's shape (gemm.h) for `problem` on `sms` SMs: the schedule's grid, the mode's
// warps, and per warp the most phases any CTA's warp records, walking its pieces as the kernel
// does. Per piece: one kTileSchedule and per K iteration the producer's empty wait and 2 in the
// last warp of each consumer warpgroup (full wait, wgmma); the consumers add the epilogue,
// then a contributor its partial store, an owner 2 per contributor (fix-up wait, reduce) and its
// store.
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
            producer += 1 + k_iters;
            consumer += 1 + 2 * k_iters + 1 + 1;
            if (piece.k_begin == 0 && piece.k_end < schedule.k_iters) {
                consumer += 2 * (schedule.last_contributor(piece) - cta);
            }
        }
        shape.records_per_warp = std::max({shape.records_per_warp, producer, consumer});
    }
    return shape;
}

}  // namespace wgmma_stream_k

namespace {

using namespace wgmma_stream_k;

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
    set_sixteen_bit_inputs(d, precision, "wgmma_streamk", stream_k_can_run);
    // Both modes issue 4 wgmma (k16 steps of a 64-deep K iteration) per consumer warp and K
    // iteration; one warp per warpgroup records it, so a kWgmma phase stands for four warps'.
    d.traced.wgmma_per_phase = C::kSteps * hopper::kWarpgroupWarps;
    // On kDefaultPersistentSms SMs; the GPU registry's copy asks the current device.
    d.traced.shape = [](const GemmProblem& problem) {
        return stream_k_traced_shape(problem, kDefaultPersistentSms);
    };
    return d;
}

}  // namespace tclens::kernels
