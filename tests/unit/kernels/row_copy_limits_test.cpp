// Tests for kernels/row_copy_limits.h: the 32-bit index limit and the 16-byte row pieces.
#include "kernels/row_copy_limits.h"

#include <gtest/gtest.h>

namespace tclens::kernels {
namespace {

TEST(RowCopyCanRun, TakesSidesThatAreWholePieces) {
    EXPECT_EQ(row_copy_can_run({4096, 4096, 4096}, 8, "16-byte pieces"), "");
    EXPECT_EQ(row_copy_can_run({1, 4, 4}, 4, "16-byte (4 x f32) cp.async pieces"), "");
}

TEST(RowCopyCanRun, NamesTheSideThatIsNoWholePiece) {
    EXPECT_EQ(row_copy_can_run({64, 64, 30}, 4, "16-byte (4 x f32) cp.async pieces"),
              "K must be a multiple of 4: A rows are copied in 16-byte (4 x f32) cp.async pieces");
    EXPECT_EQ(row_copy_can_run({64, 60, 64}, 8, "16-byte pieces"),
              "N must be a multiple of 8: B rows are copied in 16-byte pieces");
}

TEST(RowCopyCanRun, RefusesSidesBeyondTwoToThe30) {
    EXPECT_EQ(row_copy_can_run({(std::int64_t{1} << 30) + 8, 8, 8}, 8, "16-byte pieces"),
              "M, N and K are 32-bit ints in the kernel: each must be at most 1073741824");
}

}  // namespace
}  // namespace tclens::kernels
