#include "kernels/descriptor_text.h"

#include <gtest/gtest.h>

#include "kernels/registry.h"

namespace tclens::kernels {
namespace {

TEST(TileText, WritesMxNxKAndLeavesOutAMissingK) {
    EXPECT_EQ(tile_text({128, 256, 64}), "128x256x64");
    EXPECT_EQ(tile_text({64, 64, 0}), "64x64");
    EXPECT_EQ(tile_text({0, 0, 0}), "-");
}

TEST(TypesText, NamesInputsThenAccumulator) {
    const KernelDescriptor* rung8 = find_kernel("mma_cp_async.bf16");
    ASSERT_NE(rung8, nullptr);
    EXPECT_EQ(types_text(*rung8), "bf16/f32");
    KernelDescriptor made_up;
    made_up.precision = Precision::kTF32;
    made_up.accumulate = Precision::kF16;
    EXPECT_EQ(types_text(made_up), "tf32/f16");
}

}  // namespace
}  // namespace tclens::kernels
