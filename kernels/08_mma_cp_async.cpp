// Rung 8's descriptor (its kernel and launch: 08_mma_cp_async.cu).
#include "kernels/08_mma_cp_async.h"

#include <string>

#include "kernels/block_order.h"
#include "kernels/ladder.h"
#include "kernels/row_copy_limits.h"
#include "kernels/sixteen_bit_rung.h"

namespace tclens::kernels {
namespace {

using namespace mma_cp_async;

template <typename Config>
std::string mma_cp_async_can_run(const GemmProblem& problem) {
    if (std::string why = row_copy_can_run(problem, kChunkElems, "16-byte pieces"); !why.empty()) {
        return why;
    }
    if (tile_count(problem.m, Config::kBlockM) * tile_count(problem.n, Config::kBlockN) >
        kMaxBlocks) {
        return "C has more than 2147483647 tiles of " + std::to_string(Config::kBlockM) + " x " +
               std::to_string(Config::kBlockN) + ": one block each, gridDim.x limit";
    }
    return "";
}

}  // namespace

// kF16 and kBF16 give "mma_cp_async.f16" / ".bf16", both ChosenConfig; any other precision a
// descriptor that refuses every problem (set_sixteen_bit_inputs).
KernelDescriptor mma_cp_async_kernel(Precision precision) {
    using C = ChosenConfig;
    const std::string tile = std::to_string(C::kBlockM) + " x " + std::to_string(C::kBlockN);
    const std::string stages = std::to_string(C::kStages);
    KernelDescriptor d;
    d.rung = 8;
    d.title = "mma.sync + " + stages + "-stage cp.async pipeline, " + tile + " tiles";
    d.adds = "a " + stages + "-stage cp.async ring in " + std::to_string(C::kSmemBytes / 1024) +
             " KiB of shared memory, " + std::to_string(C::kWarpM) + " x " +
             std::to_string(C::kWarpN) +
             " warp tiles with double-buffered fragments, and an L2-friendly block order";
    d.block_tile = {C::kBlockM, C::kBlockN, C::kBlockK};
    d.warp_tile = {C::kWarpM, C::kWarpN, 0};
    d.thread_tile = {0, 0, 0};
    d.mma_tile = {kMmaM, kMmaN, kMmaK};
    d.stages = C::kStages;
    d.swizzle = "xor";
    // Copies (TileCopier): chunk i of thread tid is row tid / (chunks per row) + row step * i,
    // chunk tid % (chunks per row) of each tile; mma_row walks N back and forth.
    d.schedule.raster = viz::RasterOrder::kColumnBands;
    d.schedule.raster_group = C::kGroupM;
    d.schedule.instruction = "mma.sync.m16n8k16";
    d.schedule.serpentine = true;
    d.schedule.copy_threads = C::kThreads;
    d.schedule.a_load = {C::kARowStep, C::kAChunksPerRow};
    d.schedule.b_load = {C::kBRowStep, C::kBChunksPerRow};
    d.schedule.load_instruction = "cp.async 16 B";
    d.schedule.pipeline_note =
        "cp.async ring: a third of K tile t + 3 is copied at each of k16 steps 0-2 of tile t, "
        "into the stage tile t - 1 used";
    d.block_tile_of = config_block_tile<C>;
    // Warp 0, k16 step 0, first m16 / n16 tile and first chunk of the copies: ldmatrix lane l ->
    // row l % 16, logical chunk l / 16 of each tile; cp.async lane l -> A row l / 8, chunk l % 8
    // and B row 0, chunk l (the l-th 16-byte chunk of each tile, row-major).
    d.shared_accesses = {{"A.ldmatrix", 'A', "ldmatrix.x4"},
                         {"B.ldmatrix", 'B', "ldmatrix.x4.trans"},
                         {"A.cp.async", 'A', "cp.async.16"},
                         {"B.cp.async", 'B', "cp.async.16"}};
    d.threads = C::kThreads;
    d.dynamic_smem_bytes = C::kSmemBytes;
    d.min_sm = 80;
    d.size_multiples = {1, 8, 8};
    if (set_sixteen_bit_inputs(d, precision, "mma_cp_async", mma_cp_async_can_run<C>)) {
        d.layout_ids = {"mma.m16n8k16." + std::string(precision_name(precision)), "ldmatrix.x4",
                        "ldmatrix.x4.trans"};
    }
    // Every warp records per K tile 3 copy slices, 4 k16 steps of mma, a wait and a barrier;
    // outside the loop the prologue's kStages - 1 copies, its wait and barrier, and the store.
    d.traced.wgmma_per_phase = C::kTilesM * C::kTilesN;  // mma.sync per kMmaSync phase
    d.traced.shape = [](const GemmProblem& p) {
        TracedShape shape;
        shape.grid_blocks = tile_count(p.m, C::kBlockM) * tile_count(p.n, C::kBlockN);
        shape.warps_per_block = C::kThreads / 32;
        shape.records_per_warp =
            (C::kCopySlices + C::kSteps + 2) * tile_count(p.k, C::kBlockK) + C::kStages + 2;
        return shape;
    };
    return d;
}

}  // namespace tclens::kernels
