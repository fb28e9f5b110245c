// Rung 1's descriptor: the naive FP32 GEMM (its kernel: 01_naive_fma.cu).
#include "kernels/01_naive_fma.h"

#include "kernels/fp32_grid_rung.h"
#include "kernels/ladder.h"

namespace tclens::kernels {
namespace {

using namespace naive_fma;

std::string naive_fma_can_run(const GemmProblem& problem) {
    return fp32_grid_can_run(problem, kBlockRows);
}

}  // namespace

KernelDescriptor naive_fma_kernel() {
    KernelDescriptor d;
    d.id = "naive_fma.f32";
    d.rung = 1;
    d.title = "naive FP32 FMA: one thread per output";
    d.adds = "one thread per output: every multiply-add reads A and B from DRAM/L2";
    describe_fp32_grid_rung(d, kBlockCols);
    d.block_tile = {kBlockRows, kBlockCols, 1};
    d.warp_tile = {1, kBlockCols, 0};
    // A 2-D grid, tiles (blockIdx.y, blockIdx.x); warp w = threadIdx.y is row w of the tile.
    d.schedule.load = viz::LoadKind::kNone;
    d.schedule.load_instruction = "none: each thread reads A and B straight from global memory";
    d.schedule.pipeline_note =
        "nothing staged: every K step reads one A and one B element per thread from L1/L2/DRAM";
    d.threads = kBlockCols * kBlockRows;
    d.can_run = naive_fma_can_run;
    return d;
}

}  // namespace tclens::kernels
