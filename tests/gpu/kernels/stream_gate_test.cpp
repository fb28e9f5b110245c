// StreamGate on the GPU: work enqueued behind a closed gate waits until open(), and a gate nobody
// opens gives up after its time-out.

#include "kernels/stream_gate.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "tests/gpu/gpu_test_support.h"

namespace tclens::kernels {
namespace {

using Clock = std::chrono::steady_clock;

class StreamGateOnGpu : public ::testing::Test {
  protected:
    void SetUp() override {
        TCLENS_REQUIRE_GPU();
        ASSERT_EQ(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), cudaSuccess);
        ASSERT_EQ(cudaEventCreate(&behind_), cudaSuccess);
    }
    void TearDown() override {
        if (behind_ != nullptr) cudaEventDestroy(behind_);
        if (stream_ != nullptr) cudaStreamDestroy(stream_);
    }
    cudaStream_t stream_ = nullptr;
    cudaEvent_t behind_ = nullptr;
};

TEST_F(StreamGateOnGpu, WorkBehindAClosedGateWaitsUntilOpen) {
    StreamGate gate;
    ASSERT_EQ(gate.close(stream_), "");
    ASSERT_EQ(cudaEventRecord(behind_, stream_), cudaSuccess);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(cudaEventQuery(behind_), cudaErrorNotReady) << "the gate let the stream through";
    gate.open();
    EXPECT_EQ(cudaEventSynchronize(behind_), cudaSuccess);

    // Closing again re-arms it.
    ASSERT_EQ(gate.close(stream_), "");
    ASSERT_EQ(cudaEventRecord(behind_, stream_), cudaSuccess);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(cudaEventQuery(behind_), cudaErrorNotReady);
    gate.open();
    EXPECT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
}

TEST_F(StreamGateOnGpu, AGateNobodyOpensGivesUpAfterItsTimeOut) {
    StreamGate gate;
    const Clock::time_point start = Clock::now();
    ASSERT_EQ(gate.close(stream_, 20'000'000), "");  // 20 ms
    ASSERT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
    const double waited_ms =
        std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    EXPECT_GE(waited_ms, 19.0);
    EXPECT_LT(waited_ms, 2000.0);
}

}  // namespace
}  // namespace tclens::kernels
