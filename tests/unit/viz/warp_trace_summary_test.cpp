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
    EXPECT_EQ(s.warps[0].wgmma_phases, 2);
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
    EXPECT_EQ(s.warps[2].wgmma_phases, 0);
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

}  // namespace
}  // namespace tclens::viz
