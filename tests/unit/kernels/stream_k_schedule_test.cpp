// Rung 12's stream-K split (kernels/stream_k_schedule.h): every (tile, K iteration) unit is
// computed by exactly one CTA, each CTA's stream-K units are one contiguous range, CTAs get the
// same work to within one unit, only a CTA's first piece starts inside a tile, and each split
// tile's owner names exactly the CTAs that hold the rest of it.

#include "kernels/stream_k_schedule.h"

#include <gtest/gtest.h>

#include <vector>

namespace tclens::kernels {
namespace {

struct Split {
    int tiles;
    int k_iters;
    int sms;
};

std::vector<Split> splits() {
    return {{288, 48, 132}, {512, 64, 132}, {12, 48, 132},  {24, 48, 132}, {264, 64, 132},
            {1, 1, 132},    {1, 7, 132},    {133, 1, 132},  {131, 3, 132}, {2048, 128, 132},
            {5, 16, 4},     {7, 2, 3},      {1000, 5, 132}, {13, 7, 8}};
}

std::vector<StreamKPiece> pieces_of(const StreamKSchedule& s, int cta) {
    std::vector<StreamKPiece> pieces;
    StreamKPiece p;
    for (int i = 0; s.piece(cta, i, p); ++i) pieces.push_back(p);
    return pieces;
}

TEST(StreamKSchedule, EveryUnitIsComputedExactlyOnce) {
    for (const Split& split : splits()) {
        SCOPED_TRACE(std::to_string(split.tiles) + " tiles x " + std::to_string(split.k_iters) +
                     " on " + std::to_string(split.sms));
        const StreamKSchedule s = make_stream_k_schedule(split.tiles, split.k_iters, split.sms);
        ASSERT_GE(s.ctas, 1);
        ASSERT_LE(s.ctas, split.sms);
        EXPECT_EQ(s.dp_tiles % s.ctas, 0);
        std::vector<int> count(static_cast<std::size_t>(split.tiles) * split.k_iters, 0);
        for (int cta = 0; cta < s.ctas; ++cta) {
            for (const StreamKPiece& p : pieces_of(s, cta)) {
                ASSERT_GE(p.tile, 0);
                ASSERT_LT(p.tile, split.tiles);
                ASSERT_LE(0, p.k_begin);
                ASSERT_LT(p.k_begin, p.k_end);
                ASSERT_LE(p.k_end, split.k_iters);
                for (int k = p.k_begin; k < p.k_end; ++k) {
                    ++count[static_cast<std::size_t>(p.tile) * split.k_iters + k];
                }
            }
        }
        for (std::size_t u = 0; u < count.size(); ++u) {
            ASSERT_EQ(count[u], 1) << "tile " << u / split.k_iters << " k " << u % split.k_iters;
        }
    }
}

TEST(StreamKSchedule, StreamKRangesAreContiguousAndBalancedWithinOneUnit) {
    for (const Split& split : splits()) {
        SCOPED_TRACE(std::to_string(split.tiles) + " tiles x " + std::to_string(split.k_iters) +
                     " on " + std::to_string(split.sms));
        const StreamKSchedule s = make_stream_k_schedule(split.tiles, split.k_iters, split.sms);
        std::int64_t next = static_cast<std::int64_t>(s.dp_tiles) * split.k_iters;
        std::int64_t least = -1;
        std::int64_t most = 0;
        for (int cta = 0; cta < s.ctas; ++cta) {
            std::int64_t work = 0;
            int dp_pieces = 0;
            for (const StreamKPiece& p : pieces_of(s, cta)) {
                work += p.k_end - p.k_begin;
                if (p.tile < s.dp_tiles) {
                    EXPECT_EQ(p.tile % s.ctas, cta);
                    EXPECT_EQ(p.k_end - p.k_begin, split.k_iters);
                    ++dp_pieces;
                    continue;
                }
                // Stream-K pieces follow on from the previous CTA's, in unit order.
                const std::int64_t unit =
                    static_cast<std::int64_t>(p.tile) * split.k_iters + p.k_begin;
                EXPECT_EQ(unit, next) << "CTA " << cta;
                next = unit + (p.k_end - p.k_begin);
            }
            EXPECT_EQ(dp_pieces, s.dp_rounds());
            EXPECT_GE(work, 1) << "CTA " << cta << " has nothing to do";
            least = least < 0 || work < least ? work : least;
            most = work > most ? work : most;
        }
        EXPECT_EQ(next, static_cast<std::int64_t>(split.tiles) * split.k_iters);
        EXPECT_LE(most - least, 1);
    }
}

TEST(StreamKSchedule, OnlyAFirstPieceStartsInsideATileAndOwnersKnowTheirContributors) {
    for (const Split& split : splits()) {
        SCOPED_TRACE(std::to_string(split.tiles) + " tiles x " + std::to_string(split.k_iters) +
                     " on " + std::to_string(split.sms));
        const StreamKSchedule s = make_stream_k_schedule(split.tiles, split.k_iters, split.sms);
        // holders[tile]: the CTAs that compute part of it, in order.
        std::vector<std::vector<int>> holders(split.tiles);
        std::vector<int> first_sk_piece(s.ctas, -1);
        for (int cta = 0; cta < s.ctas; ++cta) {
            const std::vector<StreamKPiece> pieces = pieces_of(s, cta);
            for (std::size_t i = 0; i < pieces.size(); ++i) {
                holders[pieces[i].tile].push_back(cta);
                if (i > static_cast<std::size_t>(s.dp_rounds())) {
                    EXPECT_EQ(pieces[i].k_begin, 0) << "CTA " << cta << " piece " << i;
                }
            }
        }
        for (int cta = 0; cta < s.ctas; ++cta) {
            const std::vector<StreamKPiece> pieces = pieces_of(s, cta);
            for (const StreamKPiece& p : pieces) {
                if (p.k_begin != 0 || p.k_end == split.k_iters) continue;
                // An owner of a split tile: its contributors are exactly the other holders.
                const std::vector<int>& h = holders[p.tile];
                ASSERT_EQ(h.front(), cta);
                EXPECT_EQ(s.last_contributor(p), h.back());
                EXPECT_EQ(static_cast<int>(h.size()), s.last_contributor(p) - cta + 1);
            }
        }
        for (std::int64_t u = 0; u < s.sk_units(); ++u) {
            const int c = s.sk_cta_of_unit(u);
            ASSERT_LE(s.sk_begin(c), u);
            ASSERT_LT(u, s.sk_begin(c + 1));
        }
    }
}

// The H100's numbers the rung's file quotes.
TEST(StreamKSchedule, SplitsTheLastPartialWavePlusOneFullWave) {
    const StreamKSchedule cube3072 = make_stream_k_schedule(288, 48, 132);
    EXPECT_EQ(cube3072.ctas, 132);
    EXPECT_EQ(cube3072.dp_tiles, 132);
    EXPECT_EQ(cube3072.sk_units(), 156 * 48);
    const StreamKSchedule cube4096 = make_stream_k_schedule(512, 64, 132);
    EXPECT_EQ(cube4096.dp_tiles, 264);
    const StreamKSchedule whole_waves = make_stream_k_schedule(264, 64, 132);
    EXPECT_EQ(whole_waves.dp_tiles, 264);
    EXPECT_EQ(whole_waves.sk_units(), 0);
    const StreamKSchedule tiny = make_stream_k_schedule(1, 3, 132);
    EXPECT_EQ(tiny.ctas, 3);
    EXPECT_EQ(tiny.dp_tiles, 0);
}

TEST(StreamKSchedule, SmallMModeRunsUpToSixtyFourRows) {
    EXPECT_EQ(stream_k_mode(16), StreamKMode::kSmallM);
    EXPECT_EQ(stream_k_mode(64), StreamKMode::kSmallM);
    EXPECT_EQ(stream_k_mode(65), StreamKMode::kWide);
    EXPECT_EQ(stream_k_mode(3072), StreamKMode::kWide);
    // 16 x 3072 x 3072: 24 tiles of 64 x 128, 48 K iterations each, over all 132 SMs.
    const StreamKSchedule s = stream_k_schedule_for({16, 3072, 3072}, 132);
    EXPECT_EQ(s.tiles, 24);
    EXPECT_EQ(s.ctas, 132);
    EXPECT_EQ(s.dp_tiles, 0);
    EXPECT_EQ(stream_k_plan_text({16, 3072, 3072}, 132),
              "small-M mode, 64 x 128 tiles: 24 tiles = 0.18 waves on 132 SMs; 24 tiles stream-K "
              "(1152 K iterations, 8-9 per CTA over 132 CTAs)");
    EXPECT_EQ(stream_k_plan_text({3072, 3072, 3072}, 132),
              "wide mode, 128 x 256 tiles: 288 tiles = 2.18 waves on 132 SMs; 132 tiles "
              "data-parallel (1 per CTA); 156 tiles stream-K (7488 K iterations, 56-57 per CTA "
              "over 132 CTAs)");
    EXPECT_EQ(stream_k_plan_text({4096, 4096, 4096}, 132),
              "wide mode, 128 x 256 tiles: 512 tiles = 3.88 waves on 132 SMs; 264 tiles "
              "data-parallel (2 per CTA); 248 tiles stream-K (15872 K iterations, 120-121 per "
              "CTA over 132 CTAs)");
}

TEST(StreamKSchedule, WorkspaceHoldsOneWidePartialTilePerCta) {
    EXPECT_EQ(stream_k_partials_bytes(132), 17301504);  // 16.5 MiB
    EXPECT_EQ(stream_k_flags_bytes(132), 1056);
}

}  // namespace
}  // namespace tclens::kernels
