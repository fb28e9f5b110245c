// copy_rows on the GPU: every element of dst is src's where src has the column and zero past it,
// for 1-, 2- and 4-byte elements, rows widened and cropped, rows shorter and longer than one
// warp's chunk, more items than the launch has warps (grid-stride), two copies in one launch.

#include "kernels/pad_copy.cuh"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernels/cuda_util.h"
#include "tests/gpu/gpu_test_support.h"

namespace tclens::kernels {
namespace {

struct CopyCase {
    std::int64_t rows;
    std::int64_t src_cols;
    std::int64_t dst_cols;
};

// src's bytes: element (r, c) holds the low bytes of r * 7919 + c + 1.
std::vector<std::uint8_t> source_bytes(const CopyCase& c, int elem) {
    std::vector<std::uint8_t> bytes(c.rows * c.src_cols * elem);
    for (std::int64_t r = 0; r < c.rows; ++r) {
        for (std::int64_t col = 0; col < c.src_cols; ++col) {
            const std::uint32_t value = static_cast<std::uint32_t>(r * 7919 + col + 1);
            std::memcpy(&bytes[(r * c.src_cols + col) * elem], &value, elem);
        }
    }
    return bytes;
}

// dst's bytes as copy_rows must leave them.
std::vector<std::uint8_t> expected_bytes(const CopyCase& c, int elem,
                                         const std::vector<std::uint8_t>& src) {
    std::vector<std::uint8_t> bytes(c.rows * c.dst_cols * elem, 0);
    for (std::int64_t r = 0; r < c.rows; ++r) {
        for (std::int64_t col = 0; col < std::min(c.src_cols, c.dst_cols); ++col) {
            std::memcpy(&bytes[(r * c.dst_cols + col) * elem], &src[(r * c.src_cols + col) * elem],
                        elem);
        }
    }
    return bytes;
}

// Runs `cases` (1 or 2) in one copy_rows launch over dst buffers filled with 0xff first.
void check_copies(const std::vector<CopyCase>& cases, int elem) {
    std::vector<std::vector<std::uint8_t>> sources;
    std::vector<DeviceBuffer> src_buffers(cases.size());
    std::vector<DeviceBuffer> dst_buffers(cases.size());
    std::vector<RowCopy> copies;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const CopyCase& c = cases[i];
        sources.push_back(source_bytes(c, elem));
        const std::size_t dst_bytes = c.rows * c.dst_cols * elem;
        ASSERT_EQ(src_buffers[i].allocate(sources.back().size()), cudaSuccess);
        ASSERT_EQ(dst_buffers[i].allocate(dst_bytes), cudaSuccess);
        ASSERT_EQ(cudaMemcpy(src_buffers[i].get(), sources.back().data(), sources.back().size(),
                             cudaMemcpyHostToDevice),
                  cudaSuccess);
        ASSERT_EQ(cudaMemset(dst_buffers[i].get(), 0xff, dst_bytes), cudaSuccess);
        copies.push_back(
            {src_buffers[i].get(), dst_buffers[i].get(), c.rows, c.src_cols, c.dst_cols});
    }
    ASSERT_EQ(copy_rows(copies.data(), static_cast<int>(copies.size()), elem, nullptr),
              cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const CopyCase& c = cases[i];
        std::vector<std::uint8_t> got(c.rows * c.dst_cols * elem);
        ASSERT_EQ(cudaMemcpy(got.data(), dst_buffers[i].get(), got.size(), cudaMemcpyDeviceToHost),
                  cudaSuccess);
        EXPECT_TRUE(got == expected_bytes(c, elem, sources[i]))
            << "copy " << i << " of " << cases.size() << ": " << c.rows << " rows of " << c.src_cols
            << " -> " << c.dst_cols << " columns of " << elem << " bytes";
    }
}

TEST(PadCopyOnGpu, WidensAndCropsRowsOfEveryElementSize) {
    TCLENS_REQUIRE_GPU();
    for (const int elem : {1, 2, 4}) {
        SCOPED_TRACE(elem);
        check_copies({{3, 1, 8}}, elem);        // narrower than a warp
        check_copies({{5, 251, 256}}, elem);    // just under one chunk of 8 elements a lane
        check_copies({{4, 300, 304}}, elem);    // just past it
        check_copies({{7, 1001, 1008}}, elem);  // several chunks
        check_copies({{6, 304, 300}}, elem);    // cropped (C copied back)
    }
}

TEST(PadCopyOnGpu, CopiesTwoMatricesInOneLaunch) {
    TCLENS_REQUIRE_GPU();
    check_copies({{17, 129, 136}, {129, 33, 40}}, 2);
    check_copies({{2, 5000, 5008}, {3000, 9, 16}}, 2);
}

TEST(PadCopyOnGpu, GridStridesOverMoreItemsThanItsBlocksHaveWarps) {
    TCLENS_REQUIRE_GPU();
    // 40000 rows of one item each: more than 2048 blocks of 8 warps take in one pass.
    check_copies({{40000, 37, 40}}, 2);
}

TEST(PadCopyOnGpu, RefusesOtherCountsAndElementSizes) {
    TCLENS_REQUIRE_GPU();
    RowCopy copy;
    EXPECT_EQ(copy_rows(&copy, 0, 2, nullptr), cudaErrorInvalidValue);
    EXPECT_EQ(copy_rows(&copy, 3, 2, nullptr), cudaErrorInvalidValue);
    EXPECT_EQ(copy_rows(&copy, 1, 3, nullptr), cudaErrorInvalidValue);
}

}  // namespace
}  // namespace tclens::kernels
