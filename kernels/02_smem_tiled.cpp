// Rung 2's descriptor: shared-memory tiling (its kernel: 02_smem_tiled.cu).
#include "kernels/02_smem_tiled.h"

#include "kernels/fp32_grid_rung.h"
#include "kernels/ladder.h"

namespace tclens::kernels {
namespace {

using namespace smem_tiled;

std::string smem_tiled_can_run(const GemmProblem& problem) {
    return fp32_grid_can_run(problem, kTile);
}

}  // namespace

KernelDescriptor smem_tiled_kernel() {
    KernelDescriptor d;
    d.id = "smem_tiled.f32";
    d.rung = 2;
    d.title = "shared-memory tiling, 32 x 32 tiles";
    d.adds = "shared-memory tiles: each loaded element is reused TILE = 32 times";
    describe_fp32_grid_rung(d, kTile);
    d.block_tile = {kTile, kTile, kTile};
    d.warp_tile = {1, kTile, 0};
    // A 2-D grid, tiles (blockIdx.y, blockIdx.x). Step 1: thread (tx, ty) copies the word
    // a_tile[ty][tx] and b_tile[ty][tx], i.e. the threads as a kTile x kTile grid over each tile.
    d.schedule.unit_bytes = sizeof(float);
    d.schedule.copy_threads = kTile * kTile;
    d.schedule.a_load = {kTile, kTile};
    d.schedule.b_load = {kTile, kTile};
    d.schedule.load_instruction = "ld.global.f32 -> st.shared.f32, one element per thread";
    d.schedule.pipeline_note = "one buffer: copy, barrier, 32 FMA per thread, barrier";
    // Step 3 for warp 0 (ty = 0) at kk = 0: every lane reads a_tile[0][0] (a broadcast) and
    // lane l reads b_tile[0][l]. Step 1's 4-byte stores along a row (lane l -> (0, 4 l)) are
    // a pattern the bank lab does not have (its only 4-byte store is sts.32.col).
    d.shared_accesses = {{"A.lds", 'A', "lds.32.bcast"}, {"B.lds", 'B', "lds.32.row"}};
    d.threads = kTile * kTile;
    d.can_run = smem_tiled_can_run;
    return d;
}

}  // namespace tclens::kernels
