// Tests for kernels/cuda_util.h: the one format of a CUDA error, and a DeviceBuffer that stays
// empty when the allocation fails (no GPU here; on a GPU machine the failure is forced by size).
#include "kernels/cuda_util.h"

#include <gtest/gtest.h>

#include <utility>

namespace tclens::kernels {
namespace {

TEST(CudaText, NamesTheErrorThenSaysWhatItMeans) {
    EXPECT_EQ(cuda_text(cudaErrorLaunchFailure),
              "cudaErrorLaunchFailure: unspecified launch failure");
    EXPECT_EQ(cuda_text(cudaSuccess), "cudaSuccess: no error");
}

TEST(DeviceBuffer, StaysEmptyWhenTheAllocationFails) {
    DeviceBuffer buffer;
    EXPECT_EQ(buffer.get(), nullptr);
    // More than any GPU has: fails on every machine, GPU or not.
    EXPECT_NE(buffer.allocate(std::int64_t{1} << 60), cudaSuccess);
    EXPECT_EQ(buffer.get(), nullptr);
    cudaGetLastError();
    DeviceBuffer moved(std::move(buffer));
    EXPECT_EQ(moved.get(), nullptr);
}

}  // namespace
}  // namespace tclens::kernels
