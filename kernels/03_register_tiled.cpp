// Rung 3's descriptor (its kernel and launch: 03_register_tiled.cu).
#include "kernels/03_register_tiled.h"

#include <string>

#include "kernels/block_order.h"
#include "kernels/ladder.h"

namespace tclens::kernels {
namespace {

using namespace register_tiled;

std::string register_tiled_can_run(const GemmProblem& problem) {
    constexpr std::int64_t kIntMax = 2147483647;
    if (problem.m > kIntMax - kBlockM || problem.n > kIntMax - kBlockN || problem.k > kIntMax) {
        return "M, N and K are 32-bit ints in the kernel: M and N must be at most 2147483519";
    }
    if ((problem.m + kBlockM - 1) / kBlockM > kMaxGridY) {
        return "M must be at most " + std::to_string(kMaxGridY * kBlockM) +
               ": one block row per 128 rows of C, and gridDim.y is at most 65535";
    }
    return "";
}

}  // namespace

KernelDescriptor register_tiled_kernel() {
    KernelDescriptor d;
    d.id = "register_tiled.f32";
    d.rung = 3;
    d.title = "register tiling 8 x 8 + float4 loads + double-buffered shared memory";
    d.adds =
        "register tiles + float4 loads: each thread computes 8x8 outputs, reusing operands "
        "from registers";
    d.precision = Precision::kF32;
    d.block_tile = {kBlockM, kBlockN, kBlockK};
    d.warp_tile = {kWarpM, kWarpN, 0};
    d.thread_tile = {kThreadM, kThreadN, 0};
    d.mma_tile = {0, 0, 0};
    d.stages = kStages;
    d.swizzle = "pad:16";
    // A 2-D grid, tiles (blockIdx.y, blockIdx.x). Copies: thread t takes float4 t of each tile,
    // row-major (A rows of kBlockK / 4 float4, B rows of kBlockN / 4).
    d.schedule.work = viz::WorkKind::kFma;
    d.schedule.instruction = "FFMA";
    d.schedule.lanes_m = 32 / kLanesN;
    d.schedule.lanes_n = kLanesN;
    d.schedule.sub_m = kSub;
    d.schedule.sub_n = kSub;
    d.schedule.copy_threads = kThreads;
    d.schedule.a_load = {kThreads / (kBlockK / 4), kBlockK / 4};
    d.schedule.b_load = {kThreads / (kBlockN / 4), kBlockN / 4};
    d.schedule.load_instruction = "ld.global.v4 -> registers -> st.shared (A stored transposed)";
    d.schedule.pipeline_note =
        "2 stages: the next K tile waits in registers during the math and is stored to the "
        "other stage after it; one barrier a step";
    d.block_tile_of = row_major_block_tile;
    d.layout_ids = {};
    // None of its shared-memory instructions is a bank-lab pattern: the float4 loads of a_t
    // (lane l -> 16-byte chunk l / 8 of the row, 8 lanes each) and of b (chunk l % 8), the
    // transposing 4-byte stores into a_t (lane l -> row 4 (l % 2) + j, byte 4 (l / 2)) and the
    // float4 stores into b (a 16-byte row store; the lab has no sts.128). So none is listed.
    d.shared_accesses = {};
    d.threads = kThreads;
    d.min_sm = 80;
    d.reference_id = "cublas.sgemm";
    d.can_run = register_tiled_can_run;
    return d;
}

}  // namespace tclens::kernels
