// Rung 14's split-K (kernels/split_k_gemm.cu) on the GPU: one launch, whose last range of each C
// tile sums the tile's slices (kernels/split_k_sum.cuh). Its C must be the in-order sum of the
// slices the ranges stored, bit for bit: the separate sum kernel (sum_split_ranges) over the same
// workspace gives it; the same again in a second launch, whichever CTA of a tile came last then;
// and every arrival count must be back at zero after each launch, or the next would sum early.
// (The products themselves are verified against the reference with every dispatch size:
// dispatch_test.cpp.)

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "kernels/cuda_util.h"
#include "kernels/gemm_data.h"
#include "kernels/split_k_gemm.cuh"
#include "tests/gpu/gpu_test_support.h"

namespace tclens::kernels {
namespace {

struct SplitCase {
    GemmProblem problem;
    Rung9Tile tile;
    int splits;
};

// C of one split_k_launch into `c`, its arrival counts checked for zeros after it.
void launch_and_expect_counts_zero(const GemmOperands& operands, const SplitCase& s,
                                   float* workspace, unsigned* arrivals, std::int64_t counts) {
    ASSERT_EQ(
        split_k_launch(Precision::kBF16, s.tile, operands, s.splits, workspace, arrivals, nullptr),
        cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<unsigned> left(static_cast<std::size_t>(counts));
    ASSERT_EQ(
        cudaMemcpy(left.data(), arrivals, left.size() * sizeof(unsigned), cudaMemcpyDeviceToHost),
        cudaSuccess);
    for (std::size_t tile = 0; tile < left.size(); ++tile) {
        ASSERT_EQ(left[tile], 0u) << "the arrival count of tile " << tile << " after the launch";
    }
}

std::vector<float> to_host(const float* device, std::int64_t count) {
    std::vector<float> host(static_cast<std::size_t>(count));
    EXPECT_EQ(cudaMemcpy(host.data(), device, host.size() * sizeof(float), cudaMemcpyDeviceToHost),
              cudaSuccess);
    return host;
}

// Lab 6's M = 64 in 64 x 128 tiles and 5 ranges (rung 14's choice); ragged M and N over 7 ranges
// of 128 x 128 tiles; 128 x 64 tiles in 3; 16 ranges of one K tile each.
TEST(SplitKOnGpu, CIsTheInOrderSumOfTheSlicesBitForBitAndTheCountsEndAtZero) {
    TCLENS_REQUIRE_GPU();
    for (const SplitCase& s : {SplitCase{{64, 3072, 3072}, Rung9Tile::kFewRows, 5},
                               SplitCase{{200, 520, 3000}, Rung9Tile::kSquare, 7},
                               SplitCase{{300, 136, 4096}, Rung9Tile::kNarrowN, 3},
                               SplitCase{{48, 512, 1024}, Rung9Tile::kFewRows, 16}}) {
        const GemmProblem& p = s.problem;
        SCOPED_TRACE(std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k) +
                     " in " + std::to_string(s.splits) + " splits");
        const int ranges = split_k_ranges(p.k, s.splits);
        ASSERT_GT(ranges, 1);
        const std::int64_t counts = split_k_arrival_counts(p, s.tile);
        DeviceBuffer a, b, c, again, in_order, workspace, arrivals;
        ASSERT_EQ(a.allocate(p.m * p.k * 2), cudaSuccess);
        ASSERT_EQ(b.allocate(p.k * p.n * 2), cudaSuccess);
        for (DeviceBuffer* out : {&c, &again, &in_order}) {
            ASSERT_EQ(out->allocate(p.m * p.n * 4), cudaSuccess);
        }
        ASSERT_EQ(workspace.allocate(split_k_workspace_floats(p, s.splits) * 4), cudaSuccess);
        ASSERT_EQ(arrivals.allocate(counts * 4), cudaSuccess);
        ASSERT_EQ(cudaMemset(arrivals.get(), 0, static_cast<std::size_t>(counts) * 4), cudaSuccess);
        ASSERT_EQ(fill_random(a.get(), p.m * p.k, Precision::kBF16, 1, nullptr), cudaSuccess);
        ASSERT_EQ(fill_random(b.get(), p.k * p.n, Precision::kBF16, 2, nullptr), cudaSuccess);
        auto* const counters = static_cast<unsigned*>(arrivals.get());

        GemmOperands operands{a.get(), b.get(), c.as_float(), p};
        launch_and_expect_counts_zero(operands, s, workspace.as_float(), counters, counts);
        ASSERT_EQ(sum_split_ranges(workspace.as_float(), p.m * p.n, p.n, ranges,
                                   in_order.as_float(), {p.m, p.n}, p.n, nullptr),
                  cudaSuccess);
        operands.c = again.as_float();
        launch_and_expect_counts_zero(operands, s, workspace.as_float(), counters, counts);

        const std::vector<float> first = to_host(c.as_float(), p.m * p.n);
        const std::vector<float> expected = to_host(in_order.as_float(), p.m * p.n);
        const std::vector<float> second = to_host(again.as_float(), p.m * p.n);
        EXPECT_EQ(std::memcmp(first.data(), expected.data(), first.size() * 4), 0)
            << "C differs from the in-order sum of the slices";
        EXPECT_EQ(std::memcmp(first.data(), second.data(), first.size() * 4), 0)
            << "two launches on the same inputs differ";
    }
}

}  // namespace
}  // namespace tclens::kernels
