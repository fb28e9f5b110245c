// viz/warp_trace_summary.h: time shares per phase kind and the tensor pipe's idle gaps per warp.
#include "viz/warp_trace_summary.h"

#include <gtest/gtest.h>

namespace tclens::viz {
namespace {

WarpPhase phase(int block, int warp, TracePhase kind, std::int64_t start, std::int64_t end) {
    return {block, warp, 7, kind, 0, start, end, 0};
}

TEST(WarpTraceSummary, TheHeaderExample) {
    WarpTrace t;
    t.phases = {phase(0, 0, TracePhase::kWgmma, 0, 10), phase(0, 0, TracePhase::kFullWait, 10, 15),
                phase(0, 0, TracePhase::kWgmma, 15, 25)};
    const TraceSummary s = summarize_trace(t);
    EXPECT_EQ(s.span_ns, 25);
    EXPECT_DOUBLE_EQ(s.shares[static_cast<int>(TracePhase::kWgmma)].share, 0.8);
    EXPECT_DOUBLE_EQ(s.shares[static_cast<int>(TracePhase::kFullWait)].share, 0.2);
    EXPECT_EQ(s.shares[static_cast<int>(TracePhase::kWgmma)].count, 2);
    ASSERT_EQ(s.warps.size(), 1u);
    EXPECT_EQ(s.warps[0].mma_phases, 2);
    EXPECT_EQ(s.warps[0].idle_ns, 5);
    EXPECT_EQ(s.warps[0].longest_idle_ns, 5);
    EXPECT_EQ(s.warps[0].sm, 7);
}

TEST(WarpTraceSummary, GapsAreCountedPerWarpNotAcrossWarps) {
    WarpTrace t;
    t.phases = {phase(0, 0, TracePhase::kWgmma, 0, 10), phase(0, 0, TracePhase::kWgmma, 30, 40),
                phase(0, 0, TracePhase::kWgmma, 45, 50), phase(0, 1, TracePhase::kWgmma, 10, 30),
                phase(1, 0, TracePhase::kStore, 100, 110)};
    const TraceSummary s = summarize_trace(t);
    EXPECT_EQ(s.span_ns, 110);
    ASSERT_EQ(s.warps.size(), 3u);
    EXPECT_EQ(s.warps[0].idle_ns, 25);  // 10..30 and 40..45
    EXPECT_EQ(s.warps[0].longest_idle_ns, 20);
    EXPECT_EQ(s.warps[0].span_ns, 50);
    EXPECT_EQ(s.warps[1].idle_ns, 0);  // one wgmma phase: no gap
    EXPECT_EQ(s.warps[2].mma_phases, 0);
    // Shares are of the summed warp spans: 50 + 20 + 10.
    EXPECT_DOUBLE_EQ(s.shares[static_cast<int>(TracePhase::kStore)].share, 10.0 / 80.0);
}

TEST(WarpTraceSummary, EmptyTraceIsAllZero) {
    const TraceSummary s = summarize_trace(WarpTrace{});
    EXPECT_EQ(s.span_ns, 0);
    EXPECT_TRUE(s.warps.empty());
    for (const PhaseShare& share : s.shares) EXPECT_EQ(share.share, 0.0);
}

TEST(WarpTraceSummary, TensorPipeIdleIsTheHeaderExample) {
    WarpTrace t;
    t.phases = {
        phase(0, 0, TracePhase::kWgmma, 0, 10),  phase(0, 0, TracePhase::kWgmma, 15, 25),
        phase(0, 1, TracePhase::kWgmma, 0, 10),  phase(0, 1, TracePhase::kWgmma, 20, 30),
        phase(0, 1, TracePhase::kWgmma, 35, 40), phase(0, 2, TracePhase::kLoadIssue, 0, 50)};
    const TensorPipeIdle idle = tensor_pipe_idle(summarize_trace(t));
    EXPECT_EQ(idle.warps, 2);  // the load-issuing warp does not count
    EXPECT_EQ(idle.idle_ns, 20);
    EXPECT_EQ(idle.longest_ns, 10);
}

// Rung 8's pattern (kernels/08_mma_cp_async.cu), one warp, one K tile: four k16 steps of
// mma_sync, copy slices before the first three, the wait and barrier after the third; the
// untraced ldmatrix of the next step lie in the gaps. Every mma_sync phase is a multiply phase.
TEST(WarpTraceSummary, RungEightsMmaSyncStepsAreMultiplyPhases) {
    WarpTrace t;
    t.wgmma_per_phase = 32;  // mma.sync per phase
    t.phases = {
        phase(0, 0, TracePhase::kLoadIssue, 0, 2),   phase(0, 0, TracePhase::kMmaSync, 2, 12),
        phase(0, 0, TracePhase::kLoadIssue, 14, 16), phase(0, 0, TracePhase::kMmaSync, 16, 26),
        phase(0, 0, TracePhase::kLoadIssue, 28, 30), phase(0, 0, TracePhase::kMmaSync, 30, 40),
        phase(0, 0, TracePhase::kFullWait, 40, 45),  phase(0, 0, TracePhase::kBlockSync, 45, 50),
        phase(0, 0, TracePhase::kMmaSync, 52, 62),   phase(0, 0, TracePhase::kStore, 62, 72)};
    const TraceSummary s = summarize_trace(t);
    ASSERT_EQ(s.warps.size(), 1u);
    EXPECT_EQ(s.warps[0].mma_phases, 4);
    EXPECT_EQ(s.warps[0].mma_ns, 40);
    EXPECT_EQ(s.mma_instructions, 4 * 32);
    // Gaps 12..16, 26..30, 40..52: 4 + 4 + 12.
    EXPECT_EQ(s.warps[0].idle_ns, 20);
    EXPECT_EQ(s.warps[0].longest_idle_ns, 12);
    EXPECT_EQ(s.shares[static_cast<int>(TracePhase::kMmaSync)].count, 4);
    EXPECT_DOUBLE_EQ(s.shares[static_cast<int>(TracePhase::kLoadIssue)].share, 6.0 / 72.0);
    EXPECT_EQ(s.shares[static_cast<int>(TracePhase::kWgmma)].count, 0);
}

// Rung 11's pattern: two output tiles of two K tiles each. The producer (warp 0) schedules and
// loads; a consumer (warp 4) schedules, waits, multiplies, drains and stores per tile. The tile
// boundary is the consumer's longest tensor-pipe gap: epilogue, store and the next schedule.
TEST(WarpTraceSummary, RungElevensTileBoundaryIsTheConsumersLongestGap) {
    WarpTrace t;
    t.wgmma_per_phase = 4;
    for (int tile = 0; tile < 2; ++tile) {
        const std::int64_t at = tile * 100;
        t.phases.push_back(phase(0, 0, TracePhase::kTileSchedule, at, at + 1));
        t.phases.push_back(phase(0, 0, TracePhase::kEmptyWait, at + 1, at + 2));
        t.phases.push_back(phase(0, 0, TracePhase::kLoadIssue, at + 2, at + 4));
        t.phases.push_back(phase(0, 4, TracePhase::kTileSchedule, at, at + 1));
        t.phases.push_back(phase(0, 4, TracePhase::kFullWait, at + 1, at + 10));
        t.phases.push_back(phase(0, 4, TracePhase::kWgmma, at + 10, at + 40));
        t.phases.push_back(phase(0, 4, TracePhase::kFullWait, at + 40, at + 42));
        t.phases.push_back(phase(0, 4, TracePhase::kWgmma, at + 42, at + 72));
        t.phases.push_back(phase(0, 4, TracePhase::kEpilogue, at + 72, at + 80));
        t.phases.push_back(phase(0, 4, TracePhase::kStore, at + 80, at + 99));
    }
    const TraceSummary s = summarize_trace(t);
    ASSERT_EQ(s.warps.size(), 2u);
    EXPECT_EQ(s.warps[0].mma_phases, 0);  // the producer
    EXPECT_EQ(s.warps[1].mma_phases, 4);  // 2 tiles x 2 K tiles
    EXPECT_EQ(s.mma_instructions, 16);
    EXPECT_EQ(s.warps[1].longest_idle_ns, 110 - 72);  // tile 0's last wgmma to tile 1's first
    EXPECT_EQ(s.warps[1].idle_ns, 2 + 38 + 2);
    EXPECT_EQ(s.shares[static_cast<int>(TracePhase::kTileSchedule)].count, 4);
    const TensorPipeIdle idle = tensor_pipe_idle(s);
    EXPECT_EQ(idle.warps, 1);
    EXPECT_EQ(idle.longest_ns, 38);
}

// Rung 12's fix-up: an owner warp (block 0) multiplies its K range, then waits for and adds two
// contributors' partial tiles before its store; a contributor warp (block 1) stores its partial.
// Fix-up phases are not multiply phases and take their own share.
TEST(WarpTraceSummary, RungTwelvesFixupHasItsOwnShareAndIsNoTensorWork) {
    WarpTrace t;
    t.wgmma_per_phase = 4;
    t.phases = {
        phase(0, 4, TracePhase::kTileSchedule, 0, 1),  phase(0, 4, TracePhase::kWgmma, 1, 31),
        phase(0, 4, TracePhase::kEpilogue, 31, 35),    phase(0, 4, TracePhase::kFixupWait, 35, 55),
        phase(0, 4, TracePhase::kFixupReduce, 55, 60), phase(0, 4, TracePhase::kFixupWait, 60, 61),
        phase(0, 4, TracePhase::kFixupReduce, 61, 66), phase(0, 4, TracePhase::kStore, 66, 80),
        phase(1, 4, TracePhase::kTileSchedule, 0, 1),  phase(1, 4, TracePhase::kWgmma, 1, 31),
        phase(1, 4, TracePhase::kEpilogue, 31, 35),    phase(1, 4, TracePhase::kStore, 35, 40)};
    const TraceSummary s = summarize_trace(t);
    ASSERT_EQ(s.warps.size(), 2u);
    EXPECT_EQ(s.warps[0].mma_phases, 1);
    EXPECT_EQ(s.warps[1].mma_phases, 1);
    EXPECT_EQ(s.mma_instructions, 8);
    EXPECT_EQ(s.shares[static_cast<int>(TracePhase::kFixupWait)].count, 2);
    EXPECT_EQ(s.shares[static_cast<int>(TracePhase::kFixupWait)].total_ns, 21);
    EXPECT_DOUBLE_EQ(s.shares[static_cast<int>(TracePhase::kFixupReduce)].share, 10.0 / 120.0);
    EXPECT_EQ(s.warps[0].span_ns, 80);
}

}  // namespace
}  // namespace tclens::viz
