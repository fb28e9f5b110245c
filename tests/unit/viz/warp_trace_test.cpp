// viz/warp_trace.h: phase names both ways, normalisation (sort, earliest start at 0) and the
// cut to the first blocks.
#include "viz/warp_trace.h"

#include <gtest/gtest.h>

namespace tclens::viz {
namespace {

TEST(WarpTrace, EveryPhaseNameReadsBack) {
    for (int i = 0; i < kTracePhaseCount; ++i) {
        const auto phase = static_cast<TracePhase>(i);
        ASSERT_EQ(phase_from_name(phase_name(phase)), phase) << phase_name(phase);
        EXPECT_NE(std::string(phase_meaning(phase)), "");
    }
    EXPECT_FALSE(phase_from_name("mma"));
    EXPECT_FALSE(phase_from_name(""));
    EXPECT_STREQ(phase_name(TracePhase::kFullWait), "full_wait");
}

// Trace files and device records store these ids and names: appended, never renumbered.
TEST(WarpTrace, PhaseIdsAndNamesOfRungsEightToTwelve) {
    EXPECT_EQ(static_cast<int>(TracePhase::kStore), 6);
    EXPECT_STREQ(phase_name(TracePhase::kMmaSync), "mma_sync");
    EXPECT_EQ(static_cast<int>(TracePhase::kMmaSync), 7);
    EXPECT_STREQ(phase_name(TracePhase::kTileSchedule), "tile_schedule");
    EXPECT_EQ(static_cast<int>(TracePhase::kTileSchedule), 8);
    EXPECT_STREQ(phase_name(TracePhase::kFixupWait), "fixup_wait");
    EXPECT_EQ(static_cast<int>(TracePhase::kFixupWait), 9);
    EXPECT_STREQ(phase_name(TracePhase::kFixupReduce), "fixup_reduce");
    EXPECT_EQ(static_cast<int>(TracePhase::kFixupReduce), 10);
    EXPECT_EQ(kTracePhaseCount, 11);
    for (int i = 0; i < kTracePhaseCount; ++i) {
        const auto phase = static_cast<TracePhase>(i);
        EXPECT_EQ(is_multiply_phase(phase),
                  phase == TracePhase::kWgmma || phase == TracePhase::kMmaSync)
            << phase_name(phase);
        for (int j = 0; j < i; ++j) {
            EXPECT_STRNE(phase_name(phase), phase_name(static_cast<TracePhase>(j)));
        }
    }
}

// Legends and summaries say what a warp does in plain words, one table for every phase: no id
// ("full_wait") and no underscore, and no two phases with the same words.
TEST(WarpTrace, EveryPhaseHasItsOwnWords) {
    EXPECT_STREQ(phase_words(TracePhase::kFullWait), "waits for a full stage");
    EXPECT_STREQ(phase_words(TracePhase::kEmptyWait), "waits for an empty stage");
    for (int i = 0; i < kTracePhaseCount; ++i) {
        const auto phase = static_cast<TracePhase>(i);
        const std::string words = phase_words(phase);
        EXPECT_NE(words, "") << phase_name(phase);
        EXPECT_EQ(words.find('_'), std::string::npos) << words;
        EXPECT_NE(words, phase_name(phase));
        for (int j = 0; j < i; ++j) {
            EXPECT_NE(words, phase_words(static_cast<TracePhase>(j))) << words;
        }
    }
}

TEST(WarpTrace, NormaliseSortsByBlockWarpStartAndShiftsToZero) {
    WarpTrace t;
    t.phases = {{1, 0, 3, TracePhase::kWgmma, 0, 1500, 1600, 10},
                {0, 1, 2, TracePhase::kStore, -1, 1200, 1300, 5},
                {0, 1, 2, TracePhase::kWgmma, 0, 1000, 1100, 7}};
    normalise_trace(t);
    ASSERT_EQ(t.phases.size(), 3u);
    EXPECT_EQ(t.phases[0].start_ns, 0);
    EXPECT_EQ(t.phases[0].phase, TracePhase::kWgmma);
    EXPECT_EQ(t.phases[1].start_ns, 200);
    EXPECT_EQ(t.phases[2].block, 1);
    EXPECT_EQ(t.phases[2].end_ns, 600);
    normalise_trace(t);
    EXPECT_EQ(t.phases[2].end_ns, 600);
}

TEST(WarpTrace, FirstBlocksKeepsOnlyThoseBlocksAndTheirTimes) {
    WarpTrace t;
    t.blocks_launched = 512;
    t.blocks_traced = 3;
    t.phases = {{0, 0, 1, TracePhase::kWgmma, 0, 0, 100, 10},
                {1, 0, 2, TracePhase::kWgmma, 0, 50, 150, 10},
                {2, 4, 3, TracePhase::kStore, -1, 900, 1000, 10}};
    const WarpTrace first = first_blocks(t, 2);
    EXPECT_EQ(first.blocks_traced, 2);
    EXPECT_EQ(first.blocks_launched, 512);
    ASSERT_EQ(first.phases.size(), 2u);
    EXPECT_EQ(first.phases[1].block, 1);
    EXPECT_EQ(first.phases[1].start_ns, 50);
    const WarpTrace all = first_blocks(t, 8);
    EXPECT_EQ(all.blocks_traced, 3);
    EXPECT_EQ(all.phases.size(), 3u);
}

}  // namespace
}  // namespace tclens::viz
