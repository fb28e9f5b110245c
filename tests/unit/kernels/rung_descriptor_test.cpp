// The rungs' descriptors as tclens_kernels_model builds them (kernels/NN_<idea>.cpp, no CUDA):
// complete descriptions without a launch, traced rungs traceable by their shape alone, and a
// trace request checked (kernels/trace_limits.h) without the CUDA layer.
#include <gtest/gtest.h>

#include <vector>

#include "kernels/ladder.h"
#include "kernels/tile_map_spec.h"
#include "kernels/trace_limits.h"

namespace tclens::kernels {
namespace {

// Every rung and reference, one precision each.
std::vector<KernelDescriptor> model_descriptors() {
    return {naive_fma_kernel(),
            smem_tiled_kernel(),
            register_tiled_kernel(),
            wmma_kernel(Precision::kF16),
            mma_tf32_puzzle_kernel(),
            mma_tf32_tuned_kernel(),
            mma_ldmatrix_xor_kernel(Precision::kBF16),
            mma_cp_async_kernel(Precision::kF16),
            wgmma_tma_kernel(Precision::kBF16),
            wgmma_warp_specialized_kernel(Precision::kF16),
            wgmma_persistent_kernel(Precision::kBF16),
            wgmma_stream_k_kernel(Precision::kBF16),
            wgmma_fp8_kernel(),
            dispatch_kernel(Precision::kF16),
            cublas_kernel(Precision::kF32),
            cublaslt_e4m3_kernel()};
}

TEST(RungDescriptor, DescribesWithoutALaunch) {
    for (const KernelDescriptor& d : model_descriptors()) {
        SCOPED_TRACE(d.id);
        EXPECT_FALSE(d.id.empty());
        EXPECT_FALSE(d.title.empty());
        ASSERT_NE(d.can_run, nullptr);
        EXPECT_EQ(d.can_run({4096, 4096, 4096}), "");
        EXPECT_EQ(d.launch, nullptr);
        EXPECT_EQ(d.traced.launch, nullptr);
        if (d.rung > 0) {
            EXPECT_GT(d.threads, 0);
        }
    }
}

TEST(RungDescriptor, TracedRungsAreTraceableByTheirShape) {
    for (const KernelDescriptor& d : model_descriptors()) {
        const bool traced = d.rung >= 8 && d.rung <= 12;
        EXPECT_EQ(d.traced.traceable(), traced) << d.id;
    }
    const KernelDescriptor cp_async = mma_cp_async_kernel(Precision::kBF16);
    EXPECT_EQ(trace_blocks_error(cp_async, {4096, 4096, 4096}, 4), "");
    EXPECT_GT(cp_async.traced.shape({4096, 4096, 4096}).grid_blocks, 4);
    EXPECT_EQ(trace_blocks_error(naive_fma_kernel(), {4096, 4096, 4096}, 1)
                  .rfind("kernel 'naive_fma.f32' has no trace points", 0),
              0u);
}

// Rung 11's traced grid without a GPU: kDefaultPersistentSms / 2 clusters of 2 CTAs, or as many as
// there are cluster tiles. 4096^3: 16 x 16 cluster tiles of 2 x (128 x 256) on 66 clusters, at
// most 4 a cluster, each 2 x 64 K tiles + 3 phases a warp; 128 x 192 x 64 is one cluster tile
// of the 128 x 192 tile it gets.
TEST(RungDescriptor, PersistentTracedShapeAssumesTheDefaultSms) {
    ASSERT_EQ(kDefaultPersistentSms, 132);
    const KernelDescriptor d = wgmma_persistent_kernel(Precision::kF16);
    const TracedShape large = d.traced.shape({4096, 4096, 4096});
    EXPECT_EQ(large.grid_blocks, 132);
    EXPECT_EQ(large.warps_per_block, 12);
    EXPECT_EQ(large.records_per_warp, 4 * (2 * 64 + 3));
    const TracedShape one_tile = d.traced.shape({128, 192, 64});
    EXPECT_EQ(one_tile.grid_blocks, 2);
    EXPECT_EQ(one_tile.records_per_warp, 2 * 1 + 3);
    // The tile a problem gets describes itself without a launch too.
    const KernelDescriptor narrow = d.for_problem({3072, 3072, 3072}, 132);
    EXPECT_EQ(narrow.block_tile.n, 192);
    EXPECT_EQ(narrow.launch, nullptr);
    EXPECT_TRUE(narrow.traced.traceable());
}

}  // namespace
}  // namespace tclens::kernels
