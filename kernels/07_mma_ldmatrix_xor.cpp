// Rung 7's descriptor (its kernel and launch: 07_mma_ldmatrix_xor.cu).
#include "kernels/07_mma_ldmatrix_xor.h"

#include <string>

#include "kernels/block_order.h"
#include "kernels/ladder.h"
#include "kernels/row_copy_limits.h"
#include "kernels/sixteen_bit_rung.h"

namespace tclens::kernels {
namespace {

using namespace mma_ldmatrix_xor;

std::string mma_ldmatrix_xor_can_run(const GemmProblem& problem) {
    if (std::string why = row_copy_can_run(problem, kChunkElems, "16-byte pieces"); !why.empty()) {
        return why;
    }
    if ((problem.m + kBlockM - 1) / kBlockM > kMaxGridY) {
        return "M must be at most " + std::to_string(kMaxGridY * kBlockM) +
               ": one block row per 128 rows of C, and gridDim.y is at most 65535";
    }
    return "";
}

}  // namespace

// kF16 and kBF16 give "mma_ldmatrix_xor.f16" / ".bf16"; any other precision a descriptor that
// refuses every problem (set_sixteen_bit_inputs).
KernelDescriptor mma_ldmatrix_xor_kernel(Precision precision) {
    KernelDescriptor d;
    d.rung = 7;
    d.title = "mma.sync m16n8k16 + ldmatrix + XOR swizzle";
    d.adds =
        "16-bit mma fed by ldmatrix from an XOR-permuted shared-memory layout (each 8-lane "
        "phase hits 32 different banks) and 128-bit global loads";
    d.block_tile = {kBlockM, kBlockN, kBlockK};
    d.warp_tile = {kWarpM, kWarpN, 0};
    d.thread_tile = {0, 0, 0};
    d.mma_tile = {kMmaM, kMmaN, kMmaK};
    d.stages = 1;
    d.swizzle = "xor";
    // A 2-D grid, tiles (blockIdx.y, blockIdx.x). Copies: chunk i of thread tid is row
    // tid / (chunks per row) + row step * i, chunk tid % (chunks per row) of each tile.
    d.schedule.instruction = "mma.sync.m16n8k16";
    d.schedule.copy_threads = kThreads;
    d.schedule.a_load = {kARowStep, kAChunksPerRow};
    d.schedule.b_load = {kBRowStep, kBChunksPerRow};
    d.schedule.load_instruction = "ld.global.v4 -> registers -> st.shared.v4";
    d.schedule.pipeline_note =
        "one buffer: load to registers, store, barrier, 4 k16 steps, barrier";
    d.block_tile_of = row_major_block_tile;
    // Warp 0, kk = 0, mt = pair = 0: lane l addresses row l % 16, logical chunk l / 16 of each
    // tile. The 16-byte stores (lane l -> chunk l of the tile, row-major) are not listed: the
    // bank lab has 16-byte loads and cp.async, but no 16-byte st.shared.
    d.shared_accesses = {{"A.ldmatrix", 'A', "ldmatrix.x4"},
                         {"B.ldmatrix", 'B', "ldmatrix.x4.trans"}};
    d.threads = kThreads;
    d.min_sm = 80;
    d.size_multiples = {1, 8, 8};
    if (set_sixteen_bit_inputs(d, precision, "mma_ldmatrix_xor", mma_ldmatrix_xor_can_run)) {
        d.layout_ids = {"mma.m16n8k16." + std::string(precision_name(precision)), "ldmatrix.x4",
                        "ldmatrix.x4.trans"};
    }
    return d;
}

}  // namespace tclens::kernels
