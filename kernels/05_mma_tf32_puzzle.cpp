// Rung 5's descriptor (its kernel and launch: 05_mma_tf32_puzzle.cu).
#include "kernels/05_mma_tf32_puzzle.h"

#include <string>

#include "kernels/block_order.h"
#include "kernels/ladder.h"
#include "kernels/row_copy_limits.h"

namespace tclens::kernels {
namespace {

using namespace tf32_puzzle;

std::string mma_tf32_puzzle_can_run(const GemmProblem& problem) {
    if (std::string why = row_copy_can_run(problem, 4, "16-byte (4 x f32) cp.async pieces");
        !why.empty()) {
        return why;
    }
    if ((problem.m + kBlockM - 1) / kBlockM > kMaxGridY) {
        return "M must be at most " + std::to_string(kMaxGridY * kBlockM) +
               ": one block row of 128 per gridDim.y (limit 65535)";
    }
    return "";
}

}  // namespace

KernelDescriptor mma_tf32_puzzle_kernel() {
    KernelDescriptor d;
    d.id = "mma_tf32_puzzle";
    d.rung = 5;
    d.title = "mma.sync m16n8k8 tf32, as Mojo puzzle 33 writes it";
    d.adds =
        "tensor cores (mma.sync m16n8k8 tf32) dropped into the tiled kernel as the puzzle "
        "writes it: no padding, one stage";
    d.precision = Precision::kTF32;
    d.block_tile = {kBlockM, kBlockN, kBlockK};
    d.warp_tile = {kWarpM, kWarpN, 0};
    d.thread_tile = {0, 0, 0};
    d.mma_tile = {kMmaM, kMmaN, kMmaK};
    d.stages = 1;
    d.swizzle = "none";
    // A 2-D grid, tiles (blockIdx.y, blockIdx.x). Only warp 0 copies, as row_major(kCopyRows,
    // kCopyCols) threads laid over each tile.
    d.schedule.instruction = "mma.sync.m16n8k8.tf32";
    d.schedule.unit_bytes = kChunk * sizeof(float);
    d.schedule.copy_threads = kCopyThreads;
    d.schedule.a_load = {kCopyRows, kCopyCols};
    d.schedule.b_load = {kCopyRows, kCopyCols};
    d.schedule.load_instruction = "cp.async 16 B, by warp 0 only (threads 32-255 idle)";
    d.schedule.pipeline_note =
        "one buffer: warp 0 copies, wait for all copies, barrier, compute; the next step's "
        "barrier guards the buffer";
    d.block_tile_of = row_major_block_tile;
    d.layout_ids = {"mma.m16n8k8.tf32"};
    // The A copy (warp 0, i = 0: lane l -> row l / 8, byte 16 (l % 8) of the 128-byte rows) is
    // the l-th 16-byte chunk of the tile, row-major. Not listed, as no bank-lab pattern has
    // their lanes: the B copy (lane l -> row l / 8, chunk l % 8 of the 256-byte rows) and the
    // scalar fragment loads (A: lane (g, t) -> row g, byte 4 t; B: row t, byte 4 g).
    d.shared_accesses = {{"A.cp.async", 'A', "cp.async.16"}};
    d.threads = kThreads;
    d.min_sm = 80;
    d.reference_id = "cublas.tf32";
    d.can_run = mma_tf32_puzzle_can_run;
    d.size_multiples = {1, 4, 4};
    return d;
}

}  // namespace tclens::kernels
