// Tests for kernels/fp32_grid_rung.h: the size limits of the 2-D grid rungs and the descriptor
// fields they share.
#include "kernels/fp32_grid_rung.h"

#include <gtest/gtest.h>

namespace tclens::kernels {
namespace {

TEST(Fp32GridCanRun, TakesEveryProblemWhoseBlockRowsFitGridDimY) {
    EXPECT_EQ(fp32_grid_can_run({4096, 4096, 4096}, 8), "");
    EXPECT_EQ(fp32_grid_can_run({65535 * 8, 1, 1}, 8), "");
}

TEST(Fp32GridCanRun, RefusesMoreBlockRowsThanGridDimYHolds) {
    EXPECT_EQ(fp32_grid_can_run({65535 * 8 + 1, 1, 1}, 8),
              "M must be at most 524280: one block row per 8 rows of C, and gridDim.y is at "
              "most 65535");
    EXPECT_EQ(fp32_grid_can_run({65535 * 32 + 1, 1, 1}, 32),
              "M must be at most 2097120: one block row per 32 rows of C, and gridDim.y is at "
              "most 65535");
}

TEST(Fp32GridCanRun, RefusesSidesBeyondA32BitInt) {
    EXPECT_EQ(fp32_grid_can_run({1, std::int64_t{1} << 31, 1}, 8),
              "M, N and K are 32-bit ints in the kernel: each must be at most 2147483647");
}

TEST(DescribeFp32GridRung, FillsTheSharedFields) {
    KernelDescriptor d;
    describe_fp32_grid_rung(d, 32);
    EXPECT_EQ(d.precision, Precision::kF32);
    EXPECT_EQ(d.reference_id, "cublas.sgemm");
    EXPECT_EQ(d.stages, 1);
    EXPECT_EQ(d.swizzle, "none");
    EXPECT_EQ(d.schedule.instruction, "FFMA");
    EXPECT_EQ(d.schedule.lanes_m, 1);
    EXPECT_EQ(d.schedule.lanes_n, 32);
    EXPECT_EQ(d.min_sm, 80);
    ASSERT_TRUE(static_cast<bool>(d.block_tile_of));
    const TileIndex tile = d.block_tile_of(5, 0, 8, 4, 3);
    EXPECT_EQ(tile.row, 1);
    EXPECT_EQ(tile.col, 2);
}

}  // namespace
}  // namespace tclens::kernels
