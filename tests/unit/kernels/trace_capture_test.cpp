// kernels/trace_capture.h without a GPU: which kernels have trace points, the cap on the blocks
// traced and the buffer size it is checked against.
#include "kernels/trace_capture.h"

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include "kernels/registry.h"
#include "kernels/tile_map_spec.h"

namespace tclens::kernels {
namespace {

const KernelDescriptor& kernel(const char* id) {
    const KernelDescriptor* d = find_kernel(id);
    EXPECT_NE(d, nullptr) << id;
    return *d;
}

TEST(TraceCapture, RungsEightToTwelveHaveTracePointsOthersSaySo) {
    const GemmProblem p{4096, 4096, 4096};
    for (const char* id :
         {"mma_cp_async.f16", "mma_cp_async.bf16", "wgmma_tma.f16", "wgmma_tma.bf16",
          "wgmma_ws.f16", "wgmma_ws.bf16", "wgmma_persistent.f16", "wgmma_persistent.bf16",
          "wgmma_streamk.f16", "wgmma_streamk.bf16"}) {
        EXPECT_EQ(trace_blocks_error(kernel(id), p, 8), "") << id;
    }
    EXPECT_EQ(trace_blocks_error(kernel("mma_ldmatrix_xor.f16"), p, 8),
              "kernel 'mma_ldmatrix_xor.f16' has no trace points (traced kernels: rungs 8-12, "
              "mma_cp_async, wgmma_tma, wgmma_ws, wgmma_persistent and wgmma_streamk)");
    EXPECT_NE(trace_blocks_error(kernel("wgmma_fp8.e4m3"), p, 8).find("no trace points"),
              std::string::npos);
}

TEST(TraceCapture, BlocksOutsideOneToTheGridOrTheCapAreRefused) {
    const KernelDescriptor& ws = kernel("wgmma_ws.bf16");  // 128 x 256 tiles
    const GemmProblem p{512, 512, 512};                    // 4 x 2 = 8 blocks
    EXPECT_EQ(ws.traced.shape(p).grid_blocks, 8);
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

// Rung 8, one block per 128 x 256 tile, 8 warps: per K tile 3 copy slices + 4 mma_sync + a wait
// + a barrier, outside the loop 3 prologue copies + a wait + a barrier + the store.
TEST(TraceCapture, RungEightRecordsNinePhasesPerKTile) {
    const KernelDescriptor& cp = kernel("mma_cp_async.bf16");
    const TracedShape shape = cp.traced.shape({4096, 4096, 4096});
    EXPECT_EQ(shape.grid_blocks, 32 * 16);
    EXPECT_EQ(shape.warps_per_block, 8);
    EXPECT_EQ(shape.records_per_warp, 9 * 64 + 6);
    EXPECT_EQ(cp.traced.wgmma_per_phase, 32);  // a warp's 4 x 8 m16n8k16 per k16 step
}

// The persistent rungs' grid is the device's: its SMs, and for rung 11 the 2-CTA clusters that
// fit at once. Without a GPU the shapes assume kDefaultPersistentSms (132, as on an H100 or H200).
bool has_device() {
    int devices = 0;
    return cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
}

int sms_here() {
    int device = 0;
    int sms = 0;
    if (!has_device() || cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) {
        return kDefaultPersistentSms;
    }
    return sms;
}

// Rung 11 at 4096^3: 32 x 16 tiles of 128 x 256 = 256 cluster tiles (2 x 1 clusters) on the grid's
// clusters (66 without a GPU), so at most ceil(256 / clusters) tiles per cluster (4); per tile a
// warp records a schedule, 2 per K tile (the last warp of each consumer warpgroup; the producer
// 1) and (consumers) the epilogue and store: 1 + 2 x 64 + 2. A wgmma phase of that last warp
// stands for its warpgroup's 4 warps x 4 k16 steps.
TEST(TraceCapture, RungElevenRecordsItsMostTilesPerCluster) {
    const KernelDescriptor& persistent = kernel("wgmma_persistent.bf16");
    const TracedShape shape = persistent.traced.shape({4096, 4096, 4096});
    if (!has_device()) {
        EXPECT_EQ(shape.grid_blocks, 132);
    }
    ASSERT_GT(shape.grid_blocks, 0);
    ASSERT_EQ(shape.grid_blocks % 2, 0) << "whole 2-CTA clusters";
    const std::int64_t clusters = shape.grid_blocks / 2;
    EXPECT_EQ(shape.warps_per_block, 12);
    EXPECT_EQ(shape.records_per_warp, (256 + clusters - 1) / clusters * (1 + 2 * 64 + 2));
    EXPECT_EQ(persistent.traced.wgmma_per_phase, 16);
    const std::string grid = std::to_string(shape.grid_blocks);
    EXPECT_EQ(trace_blocks_error(persistent, {4096, 4096, 4096}, shape.grid_blocks), "");
    EXPECT_EQ(trace_blocks_error(persistent, {4096, 4096, 4096}, shape.grid_blocks + 1),
              "--blocks " + std::to_string(shape.grid_blocks + 1) + " is more than the " + grid +
                  " blocks wgmma_persistent.bf16 launches on this size");
}

// Rung 12, wide mode, 384 x 256 x 5632: 3 tiles of 88 K iterations, all stream-K over 132 CTAs,
// 2 iterations each; CTAs 0, 44 and 88 own a tile and fix up the 43 CTAs after them. The last
// warp of an owner's consumer warpgroup records a schedule, 2 x 2 (its K iterations), the
// epilogue, 2 x 43 fix-up phases and the store.
// Worked out for 132 SMs: without a GPU, on an H100 and on an H200.
TEST(TraceCapture, RungTwelveCountsTheOwnersFixups) {
    if (sms_here() != 132)
        GTEST_SKIP() << "skipped: worked out for 132 SMs; this GPU has " << sms_here();
    const KernelDescriptor& stream_k = kernel("wgmma_streamk.bf16");
    const TracedShape wide = stream_k.traced.shape({384, 256, 5632});
    EXPECT_EQ(wide.grid_blocks, 132);
    EXPECT_EQ(wide.warps_per_block, 12);
    EXPECT_EQ(wide.records_per_warp, 1 + 2 * 2 + 1 + 2 * 43 + 1);
    // The last warp of each consumer warpgroup records the K iterations, for its 4 warps.
    EXPECT_EQ(stream_k.traced.wgmma_per_phase, 4 * 4);
    // Small-M mode (M <= 256): one consumer warpgroup, 8 warps; 64 x 128 tiles, 24 of 48 K
    // iterations at 64 x 3072 x 3072.
    const TracedShape small = stream_k.traced.shape({64, 3072, 3072});
    EXPECT_EQ(small.warps_per_block, 8);
    EXPECT_EQ(small.grid_blocks, 132);
    EXPECT_GT(small.records_per_warp, 0);
}

}  // namespace
}  // namespace tclens::kernels
