#include "kernels/fp32_grid_rung.h"

#include <cstdint>

#include "kernels/block_order.h"

namespace tclens::kernels {

std::string fp32_grid_can_run(const GemmProblem& problem, int block_rows) {
    constexpr std::int64_t kIntMax = 2147483647;
    constexpr std::int64_t kMaxGridY = 65535;
    if (problem.m > kIntMax || problem.n > kIntMax || problem.k > kIntMax) {
        return "M, N and K are 32-bit ints in the kernel: each must be at most 2147483647";
    }
    if ((problem.m + block_rows - 1) / block_rows > kMaxGridY) {
        return "M must be at most " + std::to_string(kMaxGridY * block_rows) +
               ": one block row per " + std::to_string(block_rows) +
               " rows of C, and gridDim.y is at most 65535";
    }
    return "";
}

void describe_fp32_grid_rung(KernelDescriptor& d, int lanes_n) {
    d.precision = Precision::kF32;
    d.reference_id = "cublas.sgemm";
    d.thread_tile = {1, 1, 0};
    d.mma_tile = {0, 0, 0};
    d.stages = 1;
    d.swizzle = "none";
    d.schedule.work = viz::WorkKind::kFma;
    d.schedule.instruction = "FFMA";
    d.schedule.lanes_m = 1;
    d.schedule.lanes_n = lanes_n;
    d.schedule.sub_m = 1;
    d.schedule.sub_n = 1;
    d.block_tile_of = row_major_block_tile;
    d.layout_ids = {};
    d.min_sm = 80;
}

}  // namespace tclens::kernels
