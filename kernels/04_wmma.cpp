// Rung 4's descriptor (its kernel and launch: 04_wmma.cu).
#include "kernels/04_wmma.h"

#include <climits>
#include <cstdint>
#include <string>

#include "kernels/block_order.h"
#include "kernels/ladder.h"
#include "kernels/sixteen_bit_rung.h"

namespace tclens::kernels {
namespace {

using namespace wmma_rung;

constexpr std::int64_t kMaxDim = std::int64_t{1} << 30;

std::string can_run_wmma(const GemmProblem& problem) {
    if (problem.k % 8 != 0) {
        return "K must be a multiple of 8: rows of A are copied in 16-byte pieces";
    }
    if (problem.n % 8 != 0) {
        return "N must be a multiple of 8: rows of B are copied in 16-byte pieces";
    }
    if (problem.m > kMaxDim || problem.n > kMaxDim || problem.k > kMaxDim) {
        return "M, N and K must be at most 2^30: the kernel indexes with 32-bit ints";
    }
    const std::int64_t tiles =
        (problem.m + kBlockM - 1) / kBlockM * ((problem.n + kBlockN - 1) / kBlockN);
    if (tiles > INT_MAX) {
        return "M x N needs more than 2^31 - 1 thread blocks of 128 x 256";
    }
    return "";
}

}  // namespace

// kF16 and kBF16 give "wmma.f16" / ".bf16" (WMMA has no f32 inputs here, and the TF32 rungs are
// 05/06); any other precision a descriptor that refuses every problem (set_sixteen_bit_inputs).
KernelDescriptor wmma_kernel(Precision precision) {
    const std::string type = precision_name(precision);
    KernelDescriptor descriptor;
    descriptor.rung = 4;
    descriptor.title = "WMMA 16x16x16 " + type + ", padded smem, cp.async";
    descriptor.adds =
        "tensor cores through the CUDA C++ WMMA API: a warp multiplies 16x16x16 tiles";
    descriptor.block_tile = {kBlockM, kBlockN, kBlockK};
    descriptor.warp_tile = {kWarpM, kWarpN, 0};
    descriptor.thread_tile = {0, 0, 0};
    descriptor.mma_tile = {kFrag, kFrag, kFrag};
    descriptor.stages = kStages;
    descriptor.swizzle = "pad:16";
    // Copies (load_tile): chunk c = tid + kThreads i of a tile -> row c / (chunks per row), so
    // the threads form a (kThreads / chunks per row) x (chunks per row) grid over each tile.
    descriptor.schedule.instruction = "wmma.mma_sync 16x16x16 (2 HMMA.16816 each)";
    descriptor.schedule.copy_threads = kThreads;
    descriptor.schedule.a_load = {kThreads / kAChunksPerRow, kAChunksPerRow};
    descriptor.schedule.b_load = {kThreads / kBChunksPerRow, kBChunksPerRow};
    descriptor.schedule.load_instruction = "cp.async 16 B";
    descriptor.schedule.pipeline_note =
        "cp.async ring: K tile t + 3 is copied into the stage tile t - 1 used while tile t is "
        "multiplied";
    descriptor.block_tile_of = row_major_block_tile;
    // load_tile's first copy, warp 0: lane l -> A row l / 4, byte 16 (l % 4) and B row 0,
    // byte 16 l, i.e. the l-th 16-byte chunk of each tile, row-major. The fragment loads are
    // not listed: wmma.load's lane addresses are the compiler's, not the program's.
    descriptor.shared_accesses = {{"A.cp.async", 'A', "cp.async.16"},
                                  {"B.cp.async", 'B', "cp.async.16"}};
    descriptor.threads = kThreads;
    descriptor.dynamic_smem_bytes = kSmemBytes;
    descriptor.min_sm = 80;
    descriptor.size_multiples = {1, 8, 8};
    if (set_sixteen_bit_inputs(descriptor, precision, "wmma", can_run_wmma)) {
        descriptor.layout_ids = {"mma.m16n8k16." + type};
    }
    return descriptor;
}

}  // namespace tclens::kernels
