// Rung 6's descriptor (its kernel and launch: 06_mma_tf32_tuned.cu).
#include "kernels/06_mma_tf32_tuned.h"

#include <climits>
#include <cstdint>
#include <string>

#include "kernels/block_order.h"
#include "kernels/ladder.h"
#include "kernels/row_copy_limits.h"

namespace tclens::kernels {
namespace {

using namespace tf32_tuned;

template <class Cfg>
std::string mma_tf32_tuned_can_run(const GemmProblem& problem) {
    if (std::string why = row_copy_can_run(problem, 4, "16-byte (4 x f32) cp.async pieces");
        !why.empty()) {
        return why;
    }
    const std::int64_t tiles = (problem.m + Cfg::kBlockM - 1) / Cfg::kBlockM *
                               ((problem.n + Cfg::kBlockN - 1) / Cfg::kBlockN);
    if (tiles > INT_MAX) {
        return "C has more than 2147483647 block tiles: one block each, gridDim.x limit";
    }
    return "";
}

}  // namespace

KernelDescriptor mma_tf32_tuned_kernel() {
    KernelDescriptor d;
    d.id = "mma_tf32_tuned";
    d.rung = 6;
    d.title = "mma.sync tf32, 48x64 warp tiles, XOR swizzle, 4-stage cp.async";
    d.adds =
        "48x64 warp tiles, conflict-free XOR-swizzled smem (ldmatrix for A, 16-byte loads for B), "
        "a 4-stage cp.async ring, double-buffered fragments, one-add TF32 rounding: aims past "
        "cuBLAS SGEMM";
    d.precision = Precision::kTF32;
    d.block_tile = {ChosenConfig::kBlockM, ChosenConfig::kBlockN, ChosenConfig::kBlockK};
    d.warp_tile = {ChosenConfig::kWarpM, ChosenConfig::kWarpN, 0};
    d.thread_tile = {0, 0, 0};
    d.mma_tile = {ChosenConfig::kMmaM, ChosenConfig::kMmaN, ChosenConfig::kMmaK};
    d.stages = ChosenConfig::kStages;
    d.swizzle = "xor";
    // Copies: thread tid takes chunk tid % (chunks per row) of rows tid / (chunks per row) +
    // row step * p, i.e. the threads as a (row step) x (chunks per row) grid over each tile.
    d.schedule.raster = viz::RasterOrder::kColumnBands;
    d.schedule.raster_group = ChosenConfig::kRasterRows;
    d.schedule.instruction = "mma.sync.m16n8k8.tf32";
    d.schedule.mma_col_stride = ChosenConfig::kTilesPerGroup;
    d.schedule.copy_threads = ChosenConfig::kThreads;
    d.schedule.a_load = {ChosenConfig::kARowStep, ChosenConfig::kAChunksPerRow};
    d.schedule.b_load = {ChosenConfig::kBRowStep, ChosenConfig::kBChunksPerRow};
    d.schedule.load_instruction = "cp.async 16 B";
    d.schedule.pipeline_note =
        "cp.async ring: K tile t + 3 is issued at k8 step 0 of tile t into the stage tile t - 1 "
        "used";
    d.block_tile_of = config_block_tile<ChosenConfig>;
    d.layout_ids = {"mma.m16n8k8.tf32", "ldmatrix.x4"};
    // Warp 0, k8 step 0, first m16 tile and first copy: ldmatrix lane l -> A row l % 16, logical
    // chunk l / 16; cp.async lane l -> A row l / 8, chunk l % 8 and B row 0, chunk l (the l-th
    // 16-byte chunk of each tile, row-major). Not listed: the B fragment loads (ld.shared.v4,
    // lane (g, t) -> row t, chunk q(g) = g / 2 + 4 (g % 2)), a pattern the bank lab lacks.
    d.shared_accesses = {{"A.ldmatrix", 'A', "ldmatrix.x4"},
                         {"A.cp.async", 'A', "cp.async.16"},
                         {"B.cp.async", 'B', "cp.async.16"}};
    d.threads = ChosenConfig::kThreads;
    d.dynamic_smem_bytes = ChosenConfig::kSmemBytes;
    d.min_sm = ChosenConfig::kRound == Tf32Round::kRn ? 90 : 80;
    d.reference_id = "cublas.tf32";
    d.can_run = mma_tf32_tuned_can_run<ChosenConfig>;
    d.size_multiples = {1, 4, 4};
    return d;
}

}  // namespace tclens::kernels
