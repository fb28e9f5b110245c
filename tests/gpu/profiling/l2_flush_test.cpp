// L2Flusher on the GPU: its buffer is three times the L2, allocated on the first flush, and
// repeated flushes run without a CUDA error. (That a flush empties the L2 shows in the profiles:
// kernel_profile_test's DRAM-bound case and the ncu comparison, both with --cache-control all.)

#include "profiling/l2_flush.h"

#include <gtest/gtest.h>

#include "tests/gpu/gpu_test_support.h"

namespace tclens::profiling {
namespace {

TEST(L2FlusherOnGpu, BufferIsThreeL2sAndFlushRunsClean) {
    TCLENS_REQUIRE_GPU();
    int device = 0;
    int l2_bytes = 0;
    ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
    ASSERT_EQ(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device), cudaSuccess);
    L2Flusher flusher;
    EXPECT_EQ(flusher.buffer_bytes(), 0u) << "allocated before the first flush";
    ASSERT_EQ(flusher.flush(nullptr), "");
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(flusher.buffer_bytes(), 3u * static_cast<std::size_t>(l2_bytes));
    for (int i = 0; i < 3; ++i) ASSERT_EQ(flusher.flush(nullptr), "");
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

}  // namespace
}  // namespace tclens::profiling
