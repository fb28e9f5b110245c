// kernels/trace_capture.h without a GPU: which kernels have trace points, the cap on the blocks
// traced and the buffer size it is checked against.
#include "kernels/trace_capture.h"

#include <gtest/gtest.h>

#include "kernels/registry.h"

namespace tclens::kernels {
namespace {

const KernelDescriptor& kernel(const char* id) {
    const KernelDescriptor* d = find_kernel(id);
    EXPECT_NE(d, nullptr) << id;
    return *d;
}

TEST(TraceCapture, RungsNineAndTenHaveTracePointsOthersSaySo) {
    const GemmProblem p{4096, 4096, 4096};
    for (const char* id : {"wgmma_tma.f16", "wgmma_tma.bf16", "wgmma_ws.f16", "wgmma_ws.bf16"}) {
        EXPECT_EQ(trace_blocks_error(kernel(id), p, 8), "") << id;
    }
    EXPECT_EQ(trace_blocks_error(kernel("mma_cp_async.f16"), p, 8),
              "kernel 'mma_cp_async.f16' has no trace points (traced kernels: the wgmma_tma and "
              "wgmma_ws rungs)");
}

TEST(TraceCapture, BlocksOutsideOneToTheGridOrTheCapAreRefused) {
    const KernelDescriptor& ws = kernel("wgmma_ws.bf16");  // 128 x 256 tiles
    const GemmProblem p{512, 512, 512};                    // 4 x 2 = 8 blocks
    EXPECT_EQ(ws.traced.grid_blocks(p), 8);
    EXPECT_EQ(trace_blocks_error(ws, p, 8), "");
    EXPECT_EQ(trace_blocks_error(ws, p, 0), "--blocks 0 must be at least 1");
    EXPECT_EQ(trace_blocks_error(ws, p, -3), "--blocks -3 must be at least 1");
    EXPECT_EQ(trace_blocks_error(ws, p, 9),
              "--blocks 9 is more than the 8 blocks wgmma_ws.bf16 launches on this size");
    const GemmProblem big{16384, 16384, 64};
    EXPECT_NE(trace_blocks_error(ws, big, kMaxTracedBlocks + 1).find("at most"), std::string::npos);
}

TEST(TraceCapture, BuffersGrowWithKAndAreCapped) {
    const KernelDescriptor& tma = kernel("wgmma_tma.f16");  // 4 warps, 4 phases per K tile
    // K = 4096: 64 K tiles x 4 + (4 stages + 1) = 261 records of 32 bytes per warp.
    EXPECT_EQ(trace_records_per_warp(tma, {4096, 4096, 4096}), 261);
    EXPECT_EQ(trace_buffer_bytes(tma, {4096, 4096, 4096}, 2), 2 * 4 * (261 * 32 + 4));
    const GemmProblem deep{16384, 16384, 1 << 20};
    EXPECT_NE(trace_blocks_error(tma, deep, 1024).find("bytes of trace buffers"),
              std::string::npos);
}

}  // namespace
}  // namespace tclens::kernels
