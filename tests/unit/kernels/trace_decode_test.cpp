// kernels/trace_decode.h: device records -> a warp timeline, with dropped phases counted and
// records that cannot be phases refused.
#include "kernels/trace_decode.h"

#include <gtest/gtest.h>

namespace tclens::kernels {
namespace {

TraceRecord record(viz::TracePhase phase, std::uint64_t start, std::uint64_t end, int k_tile) {
    return {start, end, 3, static_cast<std::uint16_t>(phase), 5, k_tile, 0};
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

}  // namespace
}  // namespace tclens::kernels
