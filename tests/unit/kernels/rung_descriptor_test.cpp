// The rungs' descriptors as tclens_kernels_model builds them (kernels/NN_<idea>.cpp, no CUDA):
// complete descriptions without a launch, traced rungs traceable by their shape alone, and a
// trace request checked (kernels/trace_limits.h) without the CUDA layer.
#include <gtest/gtest.h>

#include <vector>

#include "kernels/ladder.h"
#include "kernels/trace_limits.h"

namespace tclens::kernels {
namespace {

// The split rungs and references (11 and 13 still build theirs in tclens_kernels).
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
            wgmma_stream_k_kernel(Precision::kBF16),
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
        if (d.rung > 0) EXPECT_GT(d.threads, 0);
    }
}

TEST(RungDescriptor, TracedRungsAreTraceableByTheirShape) {
    for (const KernelDescriptor& d : model_descriptors()) {
        const bool traced = d.rung == 8 || d.rung == 9 || d.rung == 10 || d.rung == 12;
        EXPECT_EQ(d.traced.traceable(), traced) << d.id;
    }
    const KernelDescriptor cp_async = mma_cp_async_kernel(Precision::kBF16);
    EXPECT_EQ(trace_blocks_error(cp_async, {4096, 4096, 4096}, 4), "");
    EXPECT_GT(cp_async.traced.shape({4096, 4096, 4096}).grid_blocks, 4);
    EXPECT_EQ(trace_blocks_error(naive_fma_kernel(), {4096, 4096, 4096}, 1)
                  .rfind("kernel 'naive_fma.f32' has no trace points", 0),
              0u);
}

}  // namespace
}  // namespace tclens::kernels
