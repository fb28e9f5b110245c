// kernels/trace_decode.h: device records -> a warp timeline, with dropped phases counted and
// records that cannot be phases refused.
#include "kernels/trace_decode.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace tclens::kernels {
namespace {

TraceRecord record(viz::TracePhase phase, std::uint64_t start, std::uint64_t end, int k_tile) {
    return {start, end, 3, static_cast<std::uint16_t>(phase), 5, k_tile, 0};
}

// A full record of [start_ns, end_ns) that read the SM clock `clock` at its start, and `cycles`
// later at its end.
TraceRecord full(viz::TracePhase phase, std::uint64_t start_ns, std::uint64_t end_ns,
                 std::uint32_t clock, std::uint32_t cycles) {
    return {start_ns, end_ns, cycles, static_cast<std::uint16_t>(phase), 5, -1, clock};
}

// A clock-only record of K tile `k_tile`: its global times are junk the decoder must not read.
TraceRecord clock_only(viz::TracePhase phase, std::uint32_t clock, std::uint32_t cycles,
                       int k_tile) {
    return {999999, 1,
            cycles, static_cast<std::uint16_t>(static_cast<int>(phase) | kClockOnlyRecord),
            5,      k_tile,
            clock};
}

// One warp: a schedule from 1000 ns (clock 5000, 2 cycles a ns), two clock-only K-tile phases,
// the epilogue at 1800 ns (clock 6600).
std::vector<TraceRecord> k_loop_between_anchors(std::uint32_t clock0) {
    return {full(viz::TracePhase::kTileSchedule, 1000, 1100, clock0, 200),
            clock_only(viz::TracePhase::kFullWait, clock0 + 200, 400, 0),
            clock_only(viz::TracePhase::kWgmma, clock0 + 600, 1000, 0),
            full(viz::TracePhase::kEpilogue, 1800, 1850, clock0 + 1600, 100)};
}

const viz::WarpPhase& phase_of(const viz::WarpTrace& trace, viz::TracePhase phase, int warp) {
    const auto it = std::find_if(trace.phases.begin(), trace.phases.end(),
                                 [&](const auto& p) { return p.phase == phase && p.warp == warp; });
    EXPECT_NE(it, trace.phases.end());
    return *it;
}

TEST(TraceDecode, TheHeaderExampleDropsPastTheWarpsRecords) {
    TraceSink layout{nullptr, nullptr, 1, 1, 2};
    viz::WarpTrace trace;
    const std::string error = decode_trace({record(viz::TracePhase::kWgmma, 1000, 1200, 0),
                                            record(viz::TracePhase::kStore, 1200, 1300, -1)},
                                           {3}, layout, trace);
    ASSERT_EQ(error, "");
    ASSERT_EQ(trace.phases.size(), 2u);
    EXPECT_EQ(trace.dropped, 1);
    EXPECT_EQ(trace.phases[0].start_ns, 0);
    EXPECT_EQ(trace.phases[1].end_ns, 300);
    EXPECT_EQ(trace.phases[0].sm, 5);
    EXPECT_EQ(trace.phases[0].cycles, 3);
}

TEST(TraceDecode, SlotsMapToBlockAndWarp) {
    TraceSink layout{nullptr, nullptr, 2, 3, 1};
    std::vector<TraceRecord> records(6, record(viz::TracePhase::kFullWait, 0, 0, 0));
    records[5] = record(viz::TracePhase::kWgmma, 10, 20, 4);  // block 1, warp 2
    viz::WarpTrace trace;
    ASSERT_EQ(decode_trace(records, {0, 0, 0, 0, 0, 1}, layout, trace), "");
    ASSERT_EQ(trace.phases.size(), 1u);
    EXPECT_EQ(trace.phases[0].block, 1);
    EXPECT_EQ(trace.phases[0].warp, 2);
    EXPECT_EQ(trace.phases[0].k_tile, 4);
    EXPECT_EQ(trace.dropped, 0);
}

TEST(TraceDecode, RecordsThatAreNotPhasesAndSizeMismatches) {
    TraceSink layout{nullptr, nullptr, 1, 1, 1};
    viz::WarpTrace trace;
    TraceRecord bad = record(viz::TracePhase::kWgmma, 10, 20, 0);
    bad.phase = 99;
    EXPECT_NE(decode_trace({bad}, {1}, layout, trace).find("phase id 99"), std::string::npos);
    EXPECT_NE(decode_trace({record(viz::TracePhase::kWgmma, 20, 10, 0)}, {1}, layout, trace)
                  .find("ends before it starts"),
              std::string::npos);
    EXPECT_NE(decode_trace({}, {1}, layout, trace).find("the layout needs"), std::string::npos);
}

TEST(TraceDecode, ClockOnlyRecordsAreTimedBetweenTheFullRecordsAroundThem) {
    TraceSink layout{nullptr, nullptr, 1, 1, 4};
    viz::WarpTrace trace;
    ASSERT_EQ(decode_trace(k_loop_between_anchors(5000), {4}, layout, trace), "");
    ASSERT_EQ(trace.phases.size(), 4u);
    const viz::WarpPhase& wait = phase_of(trace, viz::TracePhase::kFullWait, 0);
    EXPECT_EQ(wait.start_ns, 100);  // normalised: 1000 ns is 0
    EXPECT_EQ(wait.end_ns, 300);
    EXPECT_EQ(wait.cycles, 400);
    EXPECT_EQ(wait.k_tile, 0);
    const viz::WarpPhase& wgmma = phase_of(trace, viz::TracePhase::kWgmma, 0);
    EXPECT_EQ(wgmma.start_ns, 300);
    EXPECT_EQ(wgmma.end_ns, 800);
    EXPECT_EQ(phase_of(trace, viz::TracePhase::kEpilogue, 0).start_ns, 800);
}

TEST(TraceDecode, ClockOnlyRecordsAcrossTheClocksWrapAreTimedAlike) {
    TraceSink layout{nullptr, nullptr, 1, 1, 4};
    viz::WarpTrace trace;
    // The clock wraps during the wgmma: from 2^32 - 700 to 300 past it.
    ASSERT_EQ(decode_trace(k_loop_between_anchors(0xffffffffu - 1299u), {4}, layout, trace), "");
    const viz::WarpPhase& wgmma = phase_of(trace, viz::TracePhase::kWgmma, 0);
    EXPECT_EQ(wgmma.start_ns, 300);
    EXPECT_EQ(wgmma.end_ns, 800);
}

TEST(TraceDecode, ClockOnlyRecordsOfAWarpWithoutFullOnesUseTheirBlocksOthers) {
    // Warp 1 (a producer) records only clock-only phases; warp 0 of the same block anchors
    // them, one of them past its last full record, where the block's rate (2 cycles a ns)
    // carries on.
    TraceSink layout{nullptr, nullptr, 1, 2, 4};
    std::vector<TraceRecord> records = k_loop_between_anchors(5000);
    records.push_back(clock_only(viz::TracePhase::kEmptyWait, 5400, 600, 3));
    records.push_back(clock_only(viz::TracePhase::kLoadIssue, 7000, 200, 4));
    records.resize(8);
    viz::WarpTrace trace;
    ASSERT_EQ(decode_trace(records, {4, 2}, layout, trace), "");
    const viz::WarpPhase& wait = phase_of(trace, viz::TracePhase::kEmptyWait, 1);
    EXPECT_EQ(wait.start_ns, 200);
    EXPECT_EQ(wait.end_ns, 500);
    const viz::WarpPhase& issue = phase_of(trace, viz::TracePhase::kLoadIssue, 1);
    EXPECT_EQ(issue.start_ns, 1000);
    EXPECT_EQ(issue.end_ns, 1100);
}

TEST(TraceDecode, ClockOnlyRecordsWithoutTwoFullReadingsAreRefused) {
    TraceSink layout{nullptr, nullptr, 2, 1, 2};
    std::vector<TraceRecord> records = {full(viz::TracePhase::kTileSchedule, 10, 20, 100, 20),
                                        clock_only(viz::TracePhase::kWgmma, 120, 50, 0),
                                        clock_only(viz::TracePhase::kWgmma, 100, 50, 0),
                                        clock_only(viz::TracePhase::kWgmma, 150, 50, 1)};
    viz::WarpTrace trace;
    EXPECT_EQ(decode_trace(records, {2, 2}, layout, trace),
              "trace block 1 has clock-only records but not two clock readings of full records "
              "to place them in time");
}

}  // namespace
}  // namespace tclens::kernels
