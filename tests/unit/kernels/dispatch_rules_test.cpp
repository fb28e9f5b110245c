// Rung 14's rules (kernels/dispatch_rules.h, kernels/fp8_dispatch_rules.h) and descriptors
// (kernels/14_dispatch.h): the configuration representative shapes of the H200 sweep (16-bit)
// and of issue 34's FP8 shapes get on 132 SMs, the reason lines, and, over a grid of shapes and
// SM counts (odd sizes, primes, 1, 16384, 65536), that the chosen configuration's own can_run
// accepts what it is given: a rule that picks a configuration that cannot run the shape fails
// here.

#include "kernels/dispatch_rules.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "kernels/14_dispatch.h"
#include "kernels/fp8_dispatch_rules.h"
#include "kernels/gpu_registry.h"
#include "kernels/registry.h"
#include "kernels/short_k_gemm.h"
#include "kernels/split_k_gemm.h"
#include "kernels/tile_map_spec.h"

namespace tclens::kernels {
namespace {

DispatchConfig config_of(const GemmProblem& problem, int sms = kDefaultPersistentSms) {
    return choose_dispatch(problem, sms).config;
}

TEST(DispatchRules, BigWellShapedProblemsRunRung11) {
    EXPECT_EQ(config_of({4096, 4096, 4096}), DispatchConfig::kPersistent);
    EXPECT_EQ(config_of({8192, 8192, 8192}), DispatchConfig::kPersistent);
    // 2 rounds of a deep K: stream-K lost there (0.57x against rung 11's 0.99x).
    EXPECT_EQ(config_of({2240, 2560, 8320}), DispatchConfig::kPersistent);
    // 0.76 of a wave: at or above 70 % rung 11 runs.
    EXPECT_EQ(config_of({12800, 192, 64}), DispatchConfig::kPersistent);
}

// Where rung 9's 128 x 128 tiles give the busiest SM at most 70 % of the outputs rung 11's give
// it, in at most two rounds over K >= 448, rung 9's kernel runs (session 26: 6448x208x9136 69.2 %
// of cuBLAS on it, 46.3 on rung 11).
TEST(DispatchRules, RoundsOfRung11sWideTilesThatRung9sTilesLightenRunRung9) {
    const DispatchChoice past_n = choose_dispatch({6448, 208, 9136}, kDefaultPersistentSms);
    EXPECT_EQ(past_n.config, DispatchConfig::kTmaTiles);
    EXPECT_EQ(past_n.tile, Rung9Tile::kSquare);
    EXPECT_EQ(past_n.reason,
              "rung 9, one CTA per 128 x 128 tile, 102 CTAs: rung 11's 102 tiles (128 x 192) give "
              "the busiest SM 24576 outputs in 1 round, rung 9's 128 x 128 ones 16384 in 1 (67 %), "
              "102 tiles: more than half of 132 SMs, unsplit");
    // Two rounds of each.
    EXPECT_EQ(config_of({384, 9792, 7616}), DispatchConfig::kTmaTiles);
    EXPECT_EQ(config_of({1056, 3344, 832}), DispatchConfig::kTmaTiles);
    // As many outputs (16016x288x3168: two rounds of 128 x 192 against three of 128 x 128), more
    // rounds (608x12960x176: 4 of rung 9's), 75 % (320x15680x384) or K < 448: rung 11.
    EXPECT_EQ(config_of({16016, 288, 3168}), DispatchConfig::kPersistent);
    EXPECT_EQ(config_of({608, 12960, 1760}), DispatchConfig::kPersistent);
    EXPECT_EQ(config_of({320, 15680, 3840}), DispatchConfig::kPersistent);
    EXPECT_EQ(config_of({4176, 800, 64}), DispatchConfig::kPersistent);
    EXPECT_EQ(config_of({4176, 800, 440}), DispatchConfig::kPersistent);
    EXPECT_EQ(config_of({4176, 800, 448}), DispatchConfig::kTmaTiles);
}

TEST(DispatchRules, TwoRoundsOfRung9sSquareTilesRunRung11InOne) {
    const DispatchChoice two_rounds = choose_dispatch({2944, 768, 2304}, kDefaultPersistentSms);
    EXPECT_EQ(two_rounds.config, DispatchConfig::kPersistent);
    EXPECT_EQ(two_rounds.reason,
              "rung 11 persistent: 92 tiles (128 x 192) = 0.70 waves on 132 SMs, 1 round 70 % "
              "filled: rung 9's 138 tiles (128 x 128) would take 2 rounds");
    // Rung 11's 128 x 256 tiles too, as many outputs per SM as rung 9's two rounds.
    EXPECT_EQ(config_of({320, 7168, 1024}), DispatchConfig::kPersistent);
    // One round of rung 9's tiles stays there, and so does a C rung 11 would copy back over a
    // short K (N = 190 -> 192, K = 300).
    EXPECT_EQ(config_of({192, 7360, 9024}), DispatchConfig::kTmaTiles);
    const DispatchChoice copy_back = choose_dispatch({9088, 190, 300}, kDefaultPersistentSms);
    EXPECT_EQ(copy_back.config, DispatchConfig::kTmaTiles);
    EXPECT_EQ(copy_back.tile, Rung9Tile::kSquare);
}

TEST(DispatchRules, TwoRoundsOfRung9sSquareTilesRun64x128OnesThatFitOneWave) {
    const DispatchChoice one_wave = choose_dispatch({400, 4352, 1280}, kDefaultPersistentSms);
    EXPECT_EQ(one_wave.config, DispatchConfig::kTmaTiles);
    EXPECT_EQ(one_wave.tile, Rung9Tile::kFewRows);
    EXPECT_EQ(one_wave.reason,
              "rung 9, one CTA per 64 x 128 tile, 238 CTAs: rung 11's 92 tiles (128 x 192): < 70 "
              "% of a wave on 132 SMs, K = 1280 < 1536, 238 tiles > 8; 64 x 128 tiles (4 stages, "
              "2 CTAs an SM): they fit one wave of 264 CTAs (2 per SM on 132 SMs), 128 x 128 ones "
              "take 2 rounds");
    // 5 x 45 tiles fit the 264 slots (M = 320), 6 x 45 do not (M = 352): rung 11's one round.
    const DispatchChoice fits = choose_dispatch({320, 5760, 1024}, kDefaultPersistentSms);
    EXPECT_EQ(fits.config, DispatchConfig::kTmaTiles);
    EXPECT_EQ(fits.tile, Rung9Tile::kFewRows);
    EXPECT_EQ(config_of({352, 5760, 1024}), DispatchConfig::kPersistent);
    // Where 128 x 128 tiles take one round, they stay (208x7664x13920: 120 of them), but where 64 x
    // 128 ones compute fewer rows (192x7360x9024: 192 rows, not 256; DeepKPastOneSquareTile).
    EXPECT_EQ(choose_dispatch({208, 7664, 13920}, kDefaultPersistentSms).tile, Rung9Tile::kSquare);
    EXPECT_EQ(choose_dispatch({192, 7360, 9024}, kDefaultPersistentSms).tile, Rung9Tile::kFewRows);
}

TEST(DispatchRules, ALastRoundLeftMostlyIdleOverADeepKRunsStreamK) {
    const DispatchChoice choice = choose_dispatch({1344, 7104, 3200}, kDefaultPersistentSms);
    EXPECT_EQ(choice.config, DispatchConfig::kStreamK);
    EXPECT_EQ(choice.reason,
              "rung 12 stream-K: rung 11's 308 tiles (128 x 256) = 2.33 waves on 132 SMs, 3 rounds "
              "78 % filled, K = 3200 >= 2048");
    // The same tiles over a short K stay on rung 11.
    EXPECT_EQ(config_of({1344, 7104, 1024}), DispatchConfig::kPersistent);
}

TEST(DispatchRules, FewTilesOverALongKSplitK) {
    const DispatchChoice skinny = choose_dispatch({432, 16, 7696}, kDefaultPersistentSms);
    ASSERT_EQ(skinny.config, DispatchConfig::kSplitK);
    // 4 tiles of 128 x 64 (N <= 64): one CTA per SM would make 33 ranges, K / 256 = 30 are
    // allowed; every slot: 66, but K / 768 = 10 allowed. 121 K tiles make ranges of 5, and so 25
    // of them, shallower than 768: 7 tiles of 64 x 64 instead, one CTA per SM makes 18 ranges of 7
    // K tiles (K / 256 = 30 allowed).
    EXPECT_EQ(skinny.tile, Rung9Tile::kSmall);
    EXPECT_EQ(skinny.splits, 18);
    EXPECT_EQ(skinny.reason,
              "split-K 18, 64 x 64 tiles, 126 CTAs of K 448: N = 16 <= 128, narrower than rung "
              "11's 128 x 192 tiles, K = 7696 >= 1536; 64 x 64 tiles (6 stages, 2 CTAs an SM): "
              "128 x 64 ones would split K 25 ways, into ranges of 320 < 768");
    // More rows over a deep K keep 128 x 128 tiles: 18 of them, 7 ranges make 126 CTAs.
    const DispatchChoice wide = choose_dispatch({768, 320, 15552}, kDefaultPersistentSms);
    EXPECT_EQ(wide.config, DispatchConfig::kSplitK);
    EXPECT_EQ(wide.tile, Rung9Tile::kSquare);
    EXPECT_EQ(wide.splits, 7);
    // 200 rows: 64 x 64 tiles, 16 of them; one CTA per SM makes 8 ranges (K / 256 = 11 allowed),
    // every slot 16, but K / 768 = 3 allowed.
    const DispatchChoice few = choose_dispatch({200, 200, 3000}, kDefaultPersistentSms);
    EXPECT_EQ(few.tile, Rung9Tile::kSmall);
    EXPECT_EQ(few.splits, 8);  // 47 K tiles in ranges of 6
    // 90 tiles of 128 x 128, more than half the SMs: one CTA per SM, unsplit.
    const DispatchChoice square = choose_dispatch({1280, 1152, 5184}, kDefaultPersistentSms);
    EXPECT_EQ(square.tile, Rung9Tile::kSquare);
    EXPECT_EQ(square.config, DispatchConfig::kTmaTiles);
}

// Split-K's case with a wide N splits too (it ran stream-K while split-K was mma.sync on 64 x 64
// tiles, and for M <= 64 until session 23; dispatch_rules.cpp says what rung 9's tiles measured).
TEST(DispatchRules, FewTilesOverALongKSplitKWhateverN) {
    const DispatchChoice lab6_m128 = choose_dispatch({128, 3072, 3072}, kDefaultPersistentSms);
    EXPECT_EQ(lab6_m128.config, DispatchConfig::kSplitK);
    // 96 tiles of 64 x 64: one per SM makes 1 range, every slot (two an SM) 2.
    EXPECT_EQ(lab6_m128.splits, 2);
    EXPECT_EQ(lab6_m128.tile, Rung9Tile::kSmall);
    EXPECT_EQ(lab6_m128.reason,
              "split-K 2, 64 x 64 tiles, 192 CTAs of K 1536: rung 11's 16 tiles (128 x 192): < 70 "
              "% of a wave on 132 SMs, K = 3072 >= 1536; 64 x 64 tiles (6 stages, 2 CTAs an SM): "
              "128 x 128 ones would fill <= 50 % of 132 SMs");
    // 256 tiles of 64 x 64 fill 264 slots unsplit.
    const DispatchChoice llm_m128 = choose_dispatch({128, 8192, 8192}, kDefaultPersistentSms);
    EXPECT_EQ(llm_m128.config, DispatchConfig::kTmaTiles);
    EXPECT_EQ(llm_m128.tile, Rung9Tile::kSmall);
}

// A few rows over a wide N split K too, on 64 x 128 tiles (M <= 64), no longer stream-K's
// small-M mode (dispatch_rules.cpp: session 23's measurements).
TEST(DispatchRules, AFewRowsOverAWideNSplitK) {
    const DispatchChoice llm_m16 = choose_dispatch({16, 8192, 8192}, kDefaultPersistentSms);
    EXPECT_EQ(llm_m16.config, DispatchConfig::kSplitK);
    EXPECT_EQ(llm_m16.tile, Rung9Tile::kFewRows);
    EXPECT_EQ(llm_m16.reason,
              "split-K 4, 64 x 128 tiles, 256 CTAs of K 2048: rung 11's 43 tiles (128 x 192): < 70 "
              "% of a wave on 132 SMs, K = 8192 >= 1536");
    // 24 tiles at M = 16 and 32: one per SM makes 5 ranges, every slot 4 (K / 768).
    EXPECT_EQ(choose_dispatch({32, 3072, 3072}, kDefaultPersistentSms).splits, 5);
    EXPECT_EQ(config_of({16, 3072, 3072}), DispatchConfig::kSplitK);
}

TEST(DispatchRules, SmallOrShallowProblemsRunRung9) {
    const DispatchChoice shallow = choose_dispatch({2016, 496, 112}, kDefaultPersistentSms);
    EXPECT_EQ(shallow.config, DispatchConfig::kTmaTiles);
    EXPECT_EQ(shallow.reason,
              "rung 9, one CTA per 64 x 64 tile, 256 CTAs: rung 11's 48 tiles (128 x 192): < 70 % "
              "of a wave on 132 SMs, K = 112 < 768; 64 x 64 tiles (6 stages, 2 CTAs an SM): 128 x "
              "128 ones would fill <= 50 % of 132 SMs");
    // 64 tiles of 64 x 64 take one wave: the deep configuration.
    const DispatchChoice cube = choose_dispatch({512, 512, 512}, kDefaultPersistentSms);
    EXPECT_EQ(cube.tile, Rung9Tile::kSmallDeep);
    EXPECT_EQ(cube.reason,
              "rung 9, one CTA per 64 x 64 tile, 64 CTAs: rung 11's 12 tiles (128 x 192): < 70 % "
              "of a wave on 132 SMs, K = 512 < 768; 64 x 64 tiles (12 stages, 1 CTA an SM): 128 "
              "x 128 ones would fill <= 50 % of 132 SMs");
    // 68 tiles of 128 x 128 fill more than half of the SMs in one round, over K < 512: 136 of 64 x
    // 128, one wave of two an SM (session 30, calls 4-5).
    const DispatchChoice one_round = choose_dispatch({2176, 496, 112}, kDefaultPersistentSms);
    EXPECT_EQ(one_round.tile, Rung9Tile::kFewRows);
    EXPECT_EQ(one_round.reason,
              "rung 9, one CTA per 64 x 128 tile, 136 CTAs: rung 11's 51 tiles (128 x 192): < 70 % "
              "of a wave on 132 SMs, K = 112 < 768; 64 x 128 tiles (4 stages, 2 CTAs an SM): they "
              "fit one wave of 264 CTAs (2 per SM on 132 SMs), 128 x 128 ones take 1 round over K "
              "= 112 < 512");
    // From K = 512 one round keeps 128 x 128 tiles.
    EXPECT_EQ(choose_dispatch({2176, 496, 504}, kDefaultPersistentSms).tile, Rung9Tile::kFewRows);
    EXPECT_EQ(choose_dispatch({2176, 496, 512}, kDefaultPersistentSms).tile, Rung9Tile::kSquare);
    // A deep K, but 87 tiles of 128 x 128 leave no room for a second range in one wave.
    const DispatchChoice many = choose_dispatch({11056, 80, 2992}, kDefaultPersistentSms);
    EXPECT_EQ(many.config, DispatchConfig::kTmaTiles);
    EXPECT_EQ(many.reason,
              "rung 9, one CTA per 128 x 128 tile, 87 CTAs: N = 80 <= 128, narrower than rung 11's "
              "128 x 192 tiles, 87 tiles: more than half of 132 SMs, unsplit");
}

// N <= 128 runs rung 9's kernel whatever the wave: rung 11's 128 x 192 tiles would multiply
// zeros for a third or more of their width. 14199 x 28 x 4767 (0.44x of cuBLAS on rung 11,
// session 20) is 111 tiles of 128 x 64, two CTAs per SM: split in 2, one wave.
TEST(DispatchRules, ANarrowNRunsRung9sKernelInNarrowTiles) {
    const GemmProblem tall{14199, 28, 4767};
    const DispatchChoice choice = choose_dispatch(tall, kDefaultPersistentSms);
    EXPECT_EQ(choice.config, DispatchConfig::kSplitK);
    EXPECT_EQ(choice.tile, Rung9Tile::kNarrowN);
    EXPECT_EQ(choice.splits, 2);
    EXPECT_EQ(choice.reason,
              "N = 28 -> 32, K = 4767 -> 4768 (zero-padded copies): split-K 2, 128 x 64 tiles, 222 "
              "CTAs of K 2432: N = 32 <= 128, narrower than rung 11's 128 x 192 tiles, K = 4768 "
              ">= 1536");
    // Rung 11's tiles would be 0.84 of a wave: at or above 70 % it ran them before.
    EXPECT_EQ(choose_dispatch({14199, 200, 4767}, kDefaultPersistentSms).config,
              DispatchConfig::kPersistent);
    // Over a short K, 64 x 64 tiles where they fill one wave of two an SM (134 of them) at N = 64;
    // for N < 64 128 x 64 tiles where they take one CTA an SM and 64 x 64 ones would not (67 and
    // 134 of them); 64 x 64 where those are at most the SMs (128: one wave, deep).
    const DispatchChoice shallow = choose_dispatch({8576, 64, 1024}, kDefaultPersistentSms);
    EXPECT_EQ(shallow.config, DispatchConfig::kTmaTiles);
    EXPECT_EQ(shallow.tile, Rung9Tile::kSmall);
    EXPECT_EQ(shallow.reason,
              "rung 9, one CTA per 64 x 64 tile, 134 CTAs: N = 64 <= 128, narrower than rung 11's "
              "128 x 192 tiles, K = 1024 < 1536, 134 tiles > 8; 64 x 64 tiles (6 stages, 2 CTAs "
              "an SM): they fill one wave of 264 CTAs (2 per SM on 132 SMs)");
    const DispatchChoice fewer_columns = choose_dispatch({8576, 56, 1024}, kDefaultPersistentSms);
    EXPECT_EQ(fewer_columns.tile, Rung9Tile::kNarrowN);
    EXPECT_EQ(fewer_columns.reason,
              "rung 9, one CTA per 128 x 64 tile, 67 CTAs: N = 56 <= 128, narrower than rung 11's "
              "128 x 192 tiles, K = 1024 < 1536, 67 tiles > 8; 128 x 64 tiles (4 stages, 2 CTAs an "
              "SM): 67 of them, at most one CTA an SM on 132 SMs; 134 of 64 x 64 would put two on "
              "some");
    EXPECT_EQ(choose_dispatch({8448, 56, 1024}, kDefaultPersistentSms).tile, Rung9Tile::kSmallDeep);
    EXPECT_EQ(choose_dispatch({8192, 64, 1024}, kDefaultPersistentSms).tile, Rung9Tile::kSmallDeep);
    // 132 tiles of 128 x 64 still take one CTA an SM (264 of 64 x 64 would fill both slots).
    EXPECT_EQ(choose_dispatch({16896, 40, 1024}, kDefaultPersistentSms).tile, Rung9Tile::kNarrowN);
    EXPECT_EQ(choose_dispatch({480, 64, 64}, kDefaultPersistentSms).tile, Rung9Tile::kSmallDeep);
    // More tiles than one wave of 64 x 64 holds: 128 x 64.
    EXPECT_EQ(choose_dispatch({20000, 64, 1024}, kDefaultPersistentSms).tile, Rung9Tile::kNarrowN);
    // 65 <= N <= 128: rung 9's own tile.
    EXPECT_EQ(choose_dispatch({16384, 128, 16384}, kDefaultPersistentSms).tile, Rung9Tile::kSquare);
}

// Rung 11 with N not a multiple of 4 stores into padded C rows copied back: over K < 448, where
// C is most of the work, rung 9 stores in place instead (an even N: an odd one runs the short-K
// GEMM, below).
TEST(DispatchRules, AShortKWhoseCWouldBeCopiedBackRunsRung9) {
    const DispatchChoice even = choose_dispatch({3423, 13026, 249}, kDefaultPersistentSms);
    EXPECT_EQ(even.config, DispatchConfig::kTmaTiles);
    EXPECT_EQ(even.reason,
              "N = 13026 -> 13032, K = 249 -> 256 (zero-padded copies): rung 9, one CTA per 128 "
              "x 128 tile, 2754 CTAs: rung 11's TMA store would copy C back (N = 13026, no "
              "multiple of 4), too dear at K = 256 < 448, K = 256 < 768");
    // N a multiple of 4 (rows of 16 bytes), or K from 448: rung 11.
    EXPECT_EQ(config_of({3423, 13028, 249}), DispatchConfig::kPersistent);
    EXPECT_EQ(config_of({10959, 7593, 461}), DispatchConfig::kPersistent);
    EXPECT_EQ(config_of({10959, 7594, 440}), DispatchConfig::kTmaTiles);
}

// An odd N over up to six K tiles (past the two any N gets): the short-K GEMM, whose stores take
// any row length, where the padded copies and rung 9's C stored a float at a time ran 0.55x of
// cuBLAS at 4006x977x149 against its 1.08x (session 28).
TEST(DispatchRules, AnOddNOverUpToSixKTilesRunsTheShortKGemm) {
    const DispatchChoice odd = choose_dispatch({4006, 977, 149}, kDefaultPersistentSms);
    EXPECT_EQ(odd.config, DispatchConfig::kShortK);
    EXPECT_TRUE(same_problem(odd.padded, {4006, 977, 149}));
    EXPECT_EQ(odd.reason,
              "short-K GEMM, one CTA per 128 x 128 tile, 256 CTAs: N = 977, odd, K = 149 <= 384 "
              "read as they are, no padded copies");
    EXPECT_EQ(config_of({3423, 13025, 249}), DispatchConfig::kShortK);
    EXPECT_EQ(config_of({10959, 7593, 384}), DispatchConfig::kShortK);
    EXPECT_EQ(config_of({10959, 7593, 385}), DispatchConfig::kTmaTiles);    // seven K tiles
    EXPECT_EQ(config_of({10959, 7593, 448}), DispatchConfig::kPersistent);  // rung 11 from 448
    EXPECT_EQ(config_of({10959, 7594, 200}), DispatchConfig::kTmaTiles);    // even N
    EXPECT_EQ(config_of({1500, 3000, 250}), DispatchConfig::kPersistent);   // N % 4 = 0: in place
}

// Past one K tile, fewer short-K tiles than half the SMs run rung 9's smaller tiles on padded
// copies where they are at most one per 8 SMs or K fills more than half of the second K tile:
// 300x500x100 ran 0.68x of cuBLAS on the short-K GEMM's 12 tiles, 0.82-0.83x on rung 9's 64 x 64
// ones; 383x2551x83 (60 tiles) 0.94x on the short-K GEMM, 0.68x on rung 9's.
TEST(DispatchRules, AShortKGemmOfTooFewTilesGivesWayToRung9) {
    const DispatchChoice few = choose_dispatch({300, 500, 100}, kDefaultPersistentSms);
    EXPECT_EQ(few.config, DispatchConfig::kTmaTiles);
    EXPECT_EQ(rung9_tile_shape(few.tile).block_m, 64);
    EXPECT_EQ(rung9_tile_shape(few.tile).block_n, 64);
    EXPECT_NE(few.reason.find("; not the short-K GEMM: its 12 tiles, at most one per 8 of 132 SMs"),
              std::string::npos)
        << few.reason;
    const DispatchChoice deeper = choose_dispatch({1590, 261, 107}, kDefaultPersistentSms);
    EXPECT_EQ(deeper.config, DispatchConfig::kTmaTiles);
    EXPECT_NE(deeper.reason.find("; not the short-K GEMM: its 39 tiles, fewer than one per 2 of "
                                 "132 SMs, over K = 107 > 96"),
              std::string::npos)
        << deeper.reason;
    // 65 tiles on 132 SMs, 66 on 132 and 65 on 130: on each side of the half.
    EXPECT_NE(config_of({8320, 101, 200}), DispatchConfig::kShortK);
    EXPECT_EQ(config_of({8448, 101, 200}), DispatchConfig::kShortK);
    EXPECT_EQ(config_of({8320, 101, 200}, 130), DispatchConfig::kShortK);
    // 16 tiles on 132 SMs are few, 17 not, over K = 96; 17 are over K = 97.
    EXPECT_NE(config_of({2048, 101, 96}), DispatchConfig::kShortK);
    EXPECT_EQ(config_of({2176, 101, 96}), DispatchConfig::kShortK);
    EXPECT_NE(config_of({2176, 101, 97}), DispatchConfig::kShortK);
    EXPECT_EQ(config_of({383, 2551, 83}), DispatchConfig::kShortK);  // 60 tiles
    EXPECT_EQ(config_of({2000, 600, 60}), DispatchConfig::kShortK);  // 80 tiles
    EXPECT_EQ(config_of({300, 500, 64}), DispatchConfig::kShortK);   // one K tile
}

// N or K that TMA cannot stride over K <= 128 runs the short-K GEMM on the operands as they are:
// no padded copies (a launch as long as the GEMM there: 6310x119x33 ran 0.43x of cuBLAS through
// them in session 20).
TEST(DispatchRules, APaddedShortKRunsTheShortKGemm) {
    const DispatchChoice odd = choose_dispatch({6310, 119, 33}, kDefaultPersistentSms);
    EXPECT_EQ(odd.config, DispatchConfig::kShortK);
    EXPECT_TRUE(same_problem(odd.padded, {6310, 119, 33}));  // nothing padded
    EXPECT_EQ(odd.reason,
              "short-K GEMM, one CTA per 128 x 128 tile, 50 CTAs: N = 119, K = 33 <= 128 read as "
              "they are, no padded copies");
    EXPECT_EQ(config_of({1691, 2297, 128}), DispatchConfig::kShortK);  // two K tiles
    EXPECT_EQ(config_of({1, 1, 1}), DispatchConfig::kShortK);
    // Aligned shapes keep TMA; K past two tiles keeps the copies for an even N.
    EXPECT_EQ(config_of({6312, 120, 40}), DispatchConfig::kTmaTiles);
    EXPECT_NE(config_of({1691, 2298, 129}), DispatchConfig::kShortK);
    const KernelDescriptor d = dispatch_configuration(odd, Precision::kBF16, kDefaultPersistentSms);
    EXPECT_EQ(d.id, "short_k.bf16");
    EXPECT_EQ(d.ctas_per_sm, 2);  // the sweep's wave model counts 264 CTAs a wave
    EXPECT_EQ(d.can_run({6310, 119, 33}), "");
    EXPECT_EQ(d.can_run({6310, 119, 512}), "");
    EXPECT_NE(d.can_run({6310, 119, 513}), "");
    const auto spec = tile_map_spec(d, {6310, 119, 33}, kDefaultPersistentSms);
    EXPECT_TRUE(spec) << spec.error();
}

// Over many tiles whose C rung 11 can store in place (N a multiple of 4), the padded copies cost
// less than the short-K GEMM's slower stores: 8192^2 x 43 took 1.94x of 8192^2 x 48 on it,
// 1.08-1.17x through the copies and rung 11.
TEST(DispatchRules, ManyTilesOfAnAlignedNTakeThePaddedPathOverAShortK) {
    const DispatchChoice big = choose_dispatch({8192, 8192, 43}, kDefaultPersistentSms);
    EXPECT_EQ(big.config, DispatchConfig::kPersistent);
    EXPECT_TRUE(same_problem(big.padded, {8192, 8192, 48}));
    EXPECT_EQ(big.reason,
              "K = 43 -> 48 (zero-padded copies): rung 11 persistent: 2048 tiles (128 x 256) = "
              "15.52 waves on 132 SMs, 16 rounds 97 % filled; not the short-K GEMM: its 4096 "
              "tiles >= 1024, C stored faster by TMA in place");
    EXPECT_NE(config_of({5745, 4116, 23}), DispatchConfig::kShortK);  // 1485 tiles
    // Fewer tiles, or an N whose C rung 11 would copy back: the short-K GEMM.
    EXPECT_EQ(config_of({10939, 936, 18}), DispatchConfig::kShortK);  // 688 tiles
    EXPECT_EQ(config_of({9991, 6207, 24}), DispatchConfig::kShortK);  // N odd
    EXPECT_EQ(config_of({9991, 6210, 24}), DispatchConfig::kShortK);  // N % 4 = 2
    // N <= 128 would run rung 9, which stores C from registers too: the short-K GEMM stays.
    EXPECT_EQ(config_of({140000, 128, 43}), DispatchConfig::kShortK);  // 1094 tiles
}

// M <= 64 (and N > 64) runs 64 x 128 tiles, where 128 rows would be half zeros or more, where
// there are 16 or more of them; fewer, 64 x 64. Over a deep K, M > 32 takes 64 x 64 tiles up to 24
// of the 64 x 128 ones (session 29, call 6: 48x2048x4096 95.8 on 64 x 128 / 105.2 on 64 x 64);
// over K < 1536 64 x 64 tiles where they are no more than the SMs (session 30, call 4).
TEST(DispatchRules, AFewRowsRunRung9sKernelInShortTiles) {
    const DispatchChoice wide = choose_dispatch({32, 2048, 4096}, kDefaultPersistentSms);
    EXPECT_EQ(wide.config, DispatchConfig::kSplitK);
    EXPECT_EQ(wide.tile, Rung9Tile::kFewRows);
    // 16 tiles: one CTA per SM makes 8 ranges, 4096 / 256 = 16 allowed; every slot 4096 / 768 = 5.
    EXPECT_EQ(wide.splits, 8);
    EXPECT_EQ(wide.reason,
              "split-K 8, 64 x 128 tiles, 128 CTAs of K 512: rung 11's 11 tiles (128 x 192): < 70 "
              "% of a wave on 132 SMs, K = 4096 >= 1536");
    // M = 33: more than half of a 64-row tile, 16 tiles of 64 x 128: 32 of 64 x 64, one CTA per
    // SM makes 4 ranges, every slot 5.
    const DispatchChoice full = choose_dispatch({33, 2048, 4096}, kDefaultPersistentSms);
    EXPECT_EQ(full.tile, Rung9Tile::kSmall);
    EXPECT_EQ(full.splits, 5);
    EXPECT_EQ(full.reason,
              "split-K 5, 64 x 64 tiles, 160 CTAs of K 832: rung 11's 11 tiles (128 x 192): < 70 % "
              "of a wave on 132 SMs, K = 4096 >= 1536; 64 x 64 tiles (6 stages, 2 CTAs an SM): 128 "
              "x 128 ones would fill <= 50 % of 132 SMs, M = 33 > 32 over 16 tiles of 64 x 128 <= "
              "24");
    EXPECT_EQ(choose_dispatch({64, 3072, 3072}, kDefaultPersistentSms).tile, Rung9Tile::kSmall);
    EXPECT_EQ(choose_dispatch({64, 3073, 3072}, kDefaultPersistentSms).tile,
              Rung9Tile::kFewRows);  // 25 tiles of 64 x 128
    // Over K < 1536, unsplit, 64 x 64 tiles where they are no more than the SMs (48 here), in 12
    // stages: one wave, one CTA an SM (session 30, call 4).
    const DispatchChoice unsplit = choose_dispatch({64, 3072, 1528}, kDefaultPersistentSms);
    EXPECT_EQ(unsplit.tile, Rung9Tile::kSmallDeep);
    EXPECT_EQ(
        unsplit.reason,
        "rung 9, one CTA per 64 x 64 tile, 48 CTAs: rung 11's 16 tiles (128 x 192): < 70 % "
        "of a wave on 132 SMs, K = 1528 < 1536, 48 tiles > 8; 64 x 64 tiles (12 stages, 1 CTA "
        "an SM): 128 x 128 ones would fill <= 50 % of 132 SMs, M = 64 over K = 1528 < 1536: "
        "48 of them <= 132 SMs");
    EXPECT_EQ(choose_dispatch({64, 8448, 512}, kDefaultPersistentSms).tile,
              Rung9Tile::kSmallDeep);  // 132 tiles of 64 x 64
    EXPECT_EQ(choose_dispatch({64, 8512, 512}, kDefaultPersistentSms).tile,
              Rung9Tile::kFewRows);  // 67 of 128 x 128: not few
    // 4 tiles of 64 x 128: 8 of 64 x 64, one CTA per SM makes 16 ranges.
    const DispatchChoice narrow = choose_dispatch({48, 512, 4096}, kDefaultPersistentSms);
    EXPECT_EQ(narrow.tile, Rung9Tile::kSmall);
    EXPECT_EQ(narrow.splits, 16);
    EXPECT_EQ(choose_dispatch({64, 1000, 512}, kDefaultPersistentSms).tile, Rung9Tile::kSmallDeep);
    EXPECT_EQ(choose_dispatch({64, 3072, 512}, kDefaultPersistentSms).tile, Rung9Tile::kSmallDeep);
    // 65 rows over 128 tiles of 128 x 128, one round over K < 512: 256 of 64 x 128 fill one wave.
    EXPECT_EQ(choose_dispatch({65, 16384, 504}, kDefaultPersistentSms).tile, Rung9Tile::kFewRows);
    EXPECT_EQ(choose_dispatch({65, 16384, 512}, kDefaultPersistentSms).tile, Rung9Tile::kSquare);
    // 65 rows in 8 tiles of 128 x 128: few, so 64 x 64 tiles, 32 of them.
    EXPECT_EQ(choose_dispatch({65, 1000, 512}, kDefaultPersistentSms).tile, Rung9Tile::kSmallDeep);
}

// A few tiles split K from 768 up (session 25, call 2: 64x64x1216 76.8 unsplit, 92.3 on 4
// ranges); more tiles, or a shorter K, stay unsplit.
TEST(DispatchRules, AFewTilesSplitAShorterKToo) {
    const DispatchChoice one = choose_dispatch({64, 64, 1216}, kDefaultPersistentSms);
    EXPECT_EQ(one.config, DispatchConfig::kSplitK);
    EXPECT_EQ(one.tile, Rung9Tile::kSmall);  // split: two CTAs an SM, not the deep tile
    EXPECT_EQ(one.splits, 4);                // one per SM: K / 256 = 4 ranges allowed
    EXPECT_EQ(one.reason,
              "split-K 4, 64 x 64 tiles, 4 CTAs of K 320: N = 64 <= 128, narrower than rung 11's "
              "128 x 192 tiles, 1 tile <= 8 over K = 1216 >= 768; 64 x 64 tiles (6 stages, 2 CTAs "
              "an SM): 128 x 128 ones would fill <= 50 % of 132 SMs");
    EXPECT_EQ(choose_dispatch({240, 64, 848}, kDefaultPersistentSms).splits, 3);  // 4 tiles
    EXPECT_EQ(config_of({1152, 64, 576}), DispatchConfig::kTmaTiles);             // K < 768
    EXPECT_EQ(config_of({912, 192, 768}), DispatchConfig::kTmaTiles);             // 45 tiles
}

// Over a short K, 64 x 64 tiles wherever they fill one wave of two CTAs an SM (1792x576x832: 70
// tiles of 128 x 128, 252 of 64 x 64); more of them (624x1904x2192: 300) keep 128 x 128.
TEST(DispatchRules, SixtyFourSquareTilesWhereTheyFillOneWave) {
    const DispatchChoice wave = choose_dispatch({1792, 576, 832}, kDefaultPersistentSms);
    EXPECT_EQ(wave.tile, Rung9Tile::kSmall);
    EXPECT_EQ(wave.reason,
              "rung 9, one CTA per 64 x 64 tile, 252 CTAs: rung 11's 42 tiles (128 x 192): < 70 % "
              "of a wave on 132 SMs, K = 832 < 1536, 252 tiles > 8; 64 x 64 tiles (6 stages, 2 "
              "CTAs an SM): they fill one wave of 264 CTAs (2 per SM on 132 SMs)");
    EXPECT_EQ(choose_dispatch({624, 1904, 2192}, kDefaultPersistentSms).tile, Rung9Tile::kSquare);
    // Over a deep K, 64 x 64 tiles beyond one an SM only where they fill 90 % of both slots
    // (256 of 264); 172 of them: 64 x 128 tiles, split.
    EXPECT_EQ(choose_dispatch({128, 8192, 8192}, kDefaultPersistentSms).tile, Rung9Tile::kSmall);
    const DispatchChoice deep = choose_dispatch({128, 5472, 14816}, kDefaultPersistentSms);
    EXPECT_EQ(deep.tile, Rung9Tile::kFewRows);
    EXPECT_EQ(deep.splits, 3);
    // Those 64 x 128 tiles run unsplit below K = 2048 (session 33: 25 of 25 shapes ahead of 2
    // ranges, 1.141x): 256x3072x1536 (192 of 264 slots, 73 %), and split from there.
    const DispatchChoice below = choose_dispatch({256, 3072, 1536}, kDefaultPersistentSms);
    EXPECT_EQ(below.config, DispatchConfig::kTmaTiles);
    EXPECT_EQ(below.tile, Rung9Tile::kFewRows);
    EXPECT_EQ(below.reason,
              "rung 9, one CTA per 64 x 128 tile, 96 CTAs: rung 11's 32 tiles (128 x 192): < 70 % "
              "of a wave on 132 SMs, K = 1536 >= 1536; 64 x 128 tiles (4 stages, 2 CTAs an SM): "
              "192 of 64 x 64 would fill 73 % of 264 CTAs (2 per SM on 132 SMs), over K = 1536 < "
              "2048: unsplit");
    const DispatchChoice from = choose_dispatch({256, 3072, 2048}, kDefaultPersistentSms);
    EXPECT_EQ(from.config, DispatchConfig::kSplitK);
    EXPECT_EQ(from.tile, Rung9Tile::kFewRows);
    EXPECT_EQ(from.splits, 2);
}

// M of 129-256 over a deep K across 32 or more 128 x 128 tiles: 64 x 128 tiles where they compute
// fewer rows (M % 128 of 1-64), 128 x 128 where they do not from K = 8192 (session 29, call 6).
TEST(DispatchRules, DeepKPastOneSquareTile) {
    const DispatchChoice fewer = choose_dispatch({144, 5936, 13776}, kDefaultPersistentSms);
    EXPECT_EQ(fewer.config, DispatchConfig::kTmaTiles);
    EXPECT_EQ(fewer.tile, Rung9Tile::kFewRows);
    EXPECT_EQ(fewer.reason,
              "rung 9, one CTA per 64 x 128 tile, 141 CTAs: rung 11's 62 tiles (128 x 192): < 70 % "
              "of a wave on 132 SMs, 141 tiles: more than half of 264 CTAs (2 per SM on 132 SMs), "
              "unsplit; 64 x 128 tiles (4 stages, 2 CTAs an SM): M = 144 computes 192 rows in "
              "them, 256 in 128 x 128 ones, over K >= 1536");
    EXPECT_EQ(choose_dispatch({129, 2048, 8192}, kDefaultPersistentSms).tile, Rung9Tile::kFewRows);
    EXPECT_EQ(choose_dispatch({192, 2048, 8192}, kDefaultPersistentSms).tile, Rung9Tile::kFewRows);
    // As many rows either way: 128 x 128 from K = 8192.
    const DispatchChoice square = choose_dispatch({193, 2048, 8192}, kDefaultPersistentSms);
    EXPECT_EQ(square.config, DispatchConfig::kSplitK);
    EXPECT_EQ(square.tile, Rung9Tile::kSquare);
    EXPECT_EQ(square.splits, 4);  // 32 tiles: one CTA per SM makes 4 ranges
    EXPECT_NE(square.reason.find("128 x 128 tiles (4 stages, 1 CTA an SM): M = 193 computes 256 "
                                 "rows in them, as many in 64 x 128 ones, over K >= 8192"),
              std::string::npos)
        << square.reason;
    EXPECT_EQ(choose_dispatch({256, 3536, 14896}, kDefaultPersistentSms).tile, Rung9Tile::kSquare);
    // Below K = 8192 the earlier rules: 64 x 64 tiles, here.
    EXPECT_EQ(choose_dispatch({240, 4096, 8184}, kDefaultPersistentSms).tile, Rung9Tile::kSmall);
    // Not below K = 1536, not for M <= 128 or M > 256, not over fewer than 32 tiles.
    EXPECT_EQ(choose_dispatch({144, 4096, 1528}, kDefaultPersistentSms).tile, Rung9Tile::kSmall);
    EXPECT_EQ(choose_dispatch({128, 3072, 3072}, kDefaultPersistentSms).tile, Rung9Tile::kSmall);
    EXPECT_EQ(choose_dispatch({257, 2048, 8192}, kDefaultPersistentSms).reason.find("computes"),
              std::string::npos);  // 128 x 128 tiles by the earlier rules
    EXPECT_EQ(choose_dispatch({200, 200, 3000}, kDefaultPersistentSms).tile, Rung9Tile::kSmall);
    EXPECT_EQ(choose_dispatch({144, 1920, 8192}, kDefaultPersistentSms).tile,
              Rung9Tile::kSmall);  // 30 tiles
}

// Where the 128 x 128 (128 x 64) tiles would split K into ranges shallower than 768, 64 x 64
// tiles, split by the same rule, as long as they are no more than the SMs (dispatch_rules.cpp:
// session 30's measurements).
TEST(DispatchRules, ShallowRangesOfLargerTilesTakeSmallTiles) {
    // 9 tiles of 128 x 128 would make 5 ranges of 320; 36 of 64 x 64 make 3.
    const DispatchChoice shallow = choose_dispatch({1152, 128, 1600}, kDefaultPersistentSms);
    EXPECT_EQ(shallow.config, DispatchConfig::kSplitK);
    EXPECT_EQ(shallow.tile, Rung9Tile::kSmall);
    EXPECT_EQ(shallow.splits, 3);
    EXPECT_EQ(shallow.reason,
              "split-K 3, 64 x 64 tiles, 108 CTAs of K 576: N = 128 <= 128, narrower than rung "
              "11's 128 x 192 tiles, K = 1600 >= 1536; 64 x 64 tiles (6 stages, 2 CTAs an SM): 128 "
              "x 128 ones would split K 5 ways, into ranges of 320 < 768");
    // The bound: 14 ranges of 704 (K = 9728) take 64 x 64 tiles, 14 of 768 (K = 10240) do not.
    EXPECT_EQ(choose_dispatch({1152, 128, 9728}, kDefaultPersistentSms).tile, Rung9Tile::kSmall);
    const DispatchChoice deep = choose_dispatch({1152, 128, 10240}, kDefaultPersistentSms);
    EXPECT_EQ(deep.tile, Rung9Tile::kSquare);
    EXPECT_EQ(deep.splits, 14);
    // 126 tiles of 64 x 64 (N = 448) are no more than the SMs, 144 (N = 512) are.
    EXPECT_EQ(choose_dispatch({1152, 448, 1600}, kDefaultPersistentSms).tile, Rung9Tile::kSmall);
    const DispatchChoice many = choose_dispatch({1152, 512, 1600}, kDefaultPersistentSms);
    EXPECT_EQ(many.tile, Rung9Tile::kSquare);
    EXPECT_EQ(many.splits, 3);
    // 128 x 64 tiles (N <= 64): 32 ranges of 384 -> 24 ranges of 64 x 64.
    const DispatchChoice narrow = choose_dispatch({320, 64, 12160}, kDefaultPersistentSms);
    EXPECT_EQ(narrow.tile, Rung9Tile::kSmall);
    EXPECT_EQ(narrow.splits, 24);
}

TEST(DispatchRules, TheSmCountDecides) {
    // 32 tiles of 128 x 192 are two full rounds on 16 SMs (rung 9's 128 x 128 tiles would take
    // three) but a few idle ones on 132.
    EXPECT_EQ(config_of({256, 3072, 3072}, 16), DispatchConfig::kPersistent);
    EXPECT_EQ(config_of({256, 3072, 3072}, kDefaultPersistentSms), DispatchConfig::kSplitK);
    // M = 64 leaves half of each of rung 11's clusters of two 128-row tiles empty: on 16 SMs its
    // 16 tiles take two rounds, where rung 9's tiles give an SM two thirds of the outputs.
    EXPECT_EQ(config_of({64, 3072, 3072}, 16), DispatchConfig::kTmaTiles);
}

TEST(DispatchRules, OddNOrKRunOnZeroPaddedCopies) {
    const DispatchChoice odd = choose_dispatch({17, 33, 129}, kDefaultPersistentSms);
    EXPECT_TRUE(same_problem(odd.padded, {17, 40, 136}));
    EXPECT_EQ(odd.reason.rfind("N = 33 -> 40, K = 129 -> 136 (zero-padded copies): rung 9", 0), 0u)
        << odd.reason;
    EXPECT_TRUE(needs_padding({1, 1, 1}));
    EXPECT_FALSE(needs_padding({1, 8, 8}));  // M needs no padding: rows past M are not stored
    EXPECT_EQ(choose_dispatch({4096, 4096, 4095}, kDefaultPersistentSms)
                  .reason.rfind("K = 4095 -> 4096", 0),
              0u);
}

TEST(DispatchRules, SplitRangesAreWholeKSteps) {
    EXPECT_EQ(split_k_depth(7696, 15), 576);  // 121 K tiles of 64 / 15 -> 9 tiles
    EXPECT_EQ(split_k_ranges(7696, 15), 14);
    EXPECT_EQ(split_k_ranges(96, 16), 2);  // 2 K tiles cannot make more than 2 ranges
    EXPECT_EQ(split_k_ranges(100000, 1), 1);
}

// Rung 9's square tile is the registered rung's, and each tile's descriptor draws that tile.
TEST(DispatchRules, Rung9TilesAreTheirDescriptorsTiles) {
    const KernelDescriptor* rung9 = find_kernel("wgmma_tma.bf16");
    ASSERT_NE(rung9, nullptr);
    EXPECT_EQ(rung9->block_tile.m, rung9_tile_shape(Rung9Tile::kSquare).block_m);
    EXPECT_EQ(rung9->block_tile.n, rung9_tile_shape(Rung9Tile::kSquare).block_n);
    // Split-K is rung 9's kernel over K ranges: its ranges are whole K tiles of rung 9's.
    EXPECT_EQ(rung9->block_tile.k, kSplitKBlockK);
    for (const Rung9Tile tile : {Rung9Tile::kNarrowN, Rung9Tile::kFewRows}) {
        const Rung9TileShape shape = rung9_tile_shape(tile);
        const KernelDescriptor d = wgmma_tma_tile_descriptor(Precision::kBF16, tile);
        EXPECT_EQ(d.block_tile.m, shape.block_m);
        EXPECT_EQ(d.block_tile.n, shape.block_n);
        EXPECT_EQ(d.block_tile.k, kSplitKBlockK);
        EXPECT_EQ(shape.blocks_per_sm, 2);
        EXPECT_EQ(d.can_run({17, 33, 129}).empty(), false);  // N and K not multiples of 8
        EXPECT_EQ(d.can_run({17, 40, 136}), "");
    }
    EXPECT_EQ(wgmma_tma_tile_descriptor(Precision::kBF16, Rung9Tile::kNarrowN).id,
              "wgmma_tma_128x64.bf16");
    EXPECT_EQ(wgmma_tma_tile_descriptor(Precision::kF16, Rung9Tile::kFewRows).id,
              "wgmma_tma_64x128.f16");
}

// Every choice on the grid names a configuration whose own can_run accepts the padded problem,
// with N and K multiples of 8, at most kSplitKMaxSplits ranges and a one-line reason.
TEST(DispatchRules, EveryChoiceCanRunWhatItIsGiven) {
    const std::vector<std::int64_t> sides = {1,   2,   7,    8,    16,   17,   63,    64,   127,
                                             129, 257, 1021, 1536, 4093, 7696, 16384, 65536};
    int checked = 0;
    for (int sms : {1, 2, 46, 108, 114, 132, 144}) {
        for (std::int64_t m : sides) {
            for (std::int64_t n : sides) {
                for (std::int64_t k : sides) {
                    const GemmProblem problem{m, n, k};
                    const DispatchChoice c = choose_dispatch(problem, sms);
                    const std::string where = std::to_string(m) + "x" + std::to_string(n) + "x" +
                                              std::to_string(k) + " on " + std::to_string(sms) +
                                              " SMs: " + c.reason;
                    ASSERT_EQ(dispatch_configuration_can_run(c, Precision::kBF16), "") << where;
                    ASSERT_EQ(c.padded.m, m) << where;
                    if (c.config == DispatchConfig::kShortK) {  // read as it is
                        ASSERT_TRUE(same_problem(c.padded, problem)) << where;
                        ASSERT_LE(k, kShortKMaxK) << where;
                        ASSERT_TRUE(needs_padding(problem)) << where;
                    } else {
                        ASSERT_TRUE(c.padded.n % 8 == 0 && c.padded.n >= n && c.padded.n < n + 8)
                            << where;
                        ASSERT_TRUE(c.padded.k % 8 == 0 && c.padded.k >= k && c.padded.k < k + 8)
                            << where;
                    }
                    ASSERT_TRUE(c.splits >= 1 && c.splits <= kSplitKMaxSplits) << where;
                    ASSERT_EQ(c.splits > 1, c.config == DispatchConfig::kSplitK) << where;
                    // A narrower tile only for rung 9's kernel, where its side is enough.
                    const bool rung9 = c.config == DispatchConfig::kTmaTiles ||
                                       c.config == DispatchConfig::kSplitK;
                    ASSERT_TRUE(rung9 || c.tile == Rung9Tile::kSquare) << where;
                    ASSERT_TRUE(c.tile != Rung9Tile::kNarrowN || c.padded.n <= 64) << where;
                    // 64 x 128 where M <= 64, where 128 x 128 tiles fill half the SMs or less or
                    // one round over K < 512, or where M of 129-192 over K >= 1536 needs fewer
                    // 64-row tiles.
                    const std::int64_t square_tiles = (m + 127) / 128 * ((c.padded.n + 127) / 128);
                    ASSERT_TRUE(c.tile != Rung9Tile::kFewRows || c.padded.m <= 64 ||
                                2 * square_tiles <= sms ||
                                (square_tiles <= sms && c.padded.k < 512) ||
                                (m > 128 && m <= 192 && c.padded.k >= 1536))
                        << where;
                    ASSERT_FALSE(c.reason.empty()) << where;
                    ASSERT_EQ(c.reason.find('\n'), std::string::npos) << where;
                    ++checked;
                }
            }
        }
    }
    EXPECT_EQ(checked, 7 * 17 * 17 * 17);
}

// The configurations dispatch_candidates times: every one can run its shape, split counts
// only where K makes that many ranges, the short-K GEMM only where it takes the shape as it is.
TEST(DispatchCandidates, EachCanRunItsShape) {
    const auto names = [](const std::vector<DispatchCandidate>& candidates) {
        std::vector<std::string> out;
        for (const DispatchCandidate& c : candidates) {
            EXPECT_EQ(dispatch_configuration_can_run(c.choice, Precision::kBF16), "") << c.name;
            out.push_back(c.name);
        }
        return out;
    };
    // K = 512: 8 K tiles make 1, 2, 3, 4, 6 (of 2 tiles, 4 ranges: not 6) ... ranges.
    const std::vector<std::string> square =
        names(dispatch_candidates({512, 512, 512}, Precision::kBF16));
    EXPECT_EQ(square.front(), "rung 9 128x128");
    EXPECT_NE(std::find(square.begin(), square.end(), "rung 9 64x128 split 8"), square.end());
    EXPECT_EQ(std::find(square.begin(), square.end(), "rung 9 64x128 split 6"), square.end());
    EXPECT_NE(std::find(square.begin(), square.end(), "rung 11"), square.end());
    EXPECT_EQ(std::find(square.begin(), square.end(), "short-K"), square.end());  // K % 8 == 0
    // K = 64: one K tile, no split; N = 33 takes the short-K GEMM on the shape as it is.
    const std::vector<DispatchCandidate> odd = dispatch_candidates({100, 33, 64}, Precision::kBF16);
    for (const DispatchCandidate& c : odd) EXPECT_EQ(c.choice.splits, 1) << c.name;
    ASSERT_FALSE(odd.empty());
    EXPECT_EQ(odd.back().name, "short-K");
    EXPECT_TRUE(same_problem(odd.back().choice.padded, {100, 33, 64}));
    EXPECT_TRUE(same_problem(odd.front().choice.padded, {100, 40, 64}));
}

// Rung 9's kernel in each tile rung 14 runs it in: the descriptor (tile map, kernels view) says
// the tile's own block, stages, CTAs an SM and how far ahead its K tiles are issued.
TEST(DispatchDescriptor, EachRung9TileDescribesItsOwnPipeline) {
    for (const Rung9Tile tile : kRung9Tiles) {
        const Rung9TileShape shape = rung9_tile_shape(tile);
        const KernelDescriptor d = wgmma_tma_tile_descriptor(Precision::kBF16, tile);
        SCOPED_TRACE(d.id);
        EXPECT_EQ(d.block_tile.m, shape.block_m);
        EXPECT_EQ(d.block_tile.n, shape.block_n);
        EXPECT_EQ(d.stages, shape.stages);
        EXPECT_EQ(d.ctas_per_sm, shape.blocks_per_sm);
        EXPECT_NE(d.schedule.pipeline_note.find("K tile t + " + std::to_string(shape.stages - 1) +
                                                " into the stage of tile t - 1"),
                  std::string::npos)
            << d.schedule.pipeline_note;
    }
    EXPECT_EQ(wgmma_tma_tile_descriptor(Precision::kBF16, Rung9Tile::kSmallDeep).title,
              "rung 9's kernel in 64 x 64 tiles, 12 stages, 1 CTA per SM");
}

TEST(DispatchDescriptor, RunsAnySizeAndSaysWhatRunsIt) {
    for (const char* id : {"dispatch.f16", "dispatch.bf16"}) {
        const KernelDescriptor* d = find_kernel(id);
        ASSERT_NE(d, nullptr) << id;
        EXPECT_EQ(d->rung, 14);
        EXPECT_EQ(d->min_sm, 90);
        EXPECT_FALSE(d->launch) << id;  // a description; its launch: the GPU registry's copy
        EXPECT_TRUE(find_gpu_kernel(id)->launch) << id;
        EXPECT_EQ(d->size_multiples.m, 1);
        EXPECT_EQ(d->size_multiples.n, 1);
        EXPECT_EQ(d->size_multiples.k, 1);
        EXPECT_EQ(d->can_run({17, 33, 129}), "");
        EXPECT_EQ(d->can_run({65536, 65536, 65535}), "");
        EXPECT_EQ(d->can_run({1, 1, (std::int64_t{1} << 30) + 1}),
                  "M, N and K must each be at most 1073741824 (32-bit index arithmetic)");
    }
    const KernelDescriptor& d = *find_kernel("dispatch.bf16");
    EXPECT_EQ(d.reference_id, "cublas.bf16");
    EXPECT_EQ(d.launch_plan({432, 16, 7696}),
              choose_dispatch({432, 16, 7696}, kDefaultPersistentSms).reason);
    // for_problem: what runs, so the tile map draws it.
    const KernelDescriptor big = d.for_problem({4096, 4096, 4096}, kDefaultPersistentSms);
    EXPECT_EQ(big.id, "wgmma_persistent.bf16");
    EXPECT_EQ(big.block_tile.n, 256);
    const KernelDescriptor lab = d.for_problem({1024, 3072, 3072}, kDefaultPersistentSms);
    EXPECT_EQ(lab.block_tile.n, 192);  // rung 11's own tile choice, applied
    EXPECT_EQ(d.for_problem({11056, 80, 2992}, kDefaultPersistentSms).id, "wgmma_tma.bf16");
    EXPECT_EQ(d.for_problem({1344, 7104, 3200}, kDefaultPersistentSms).id, "wgmma_streamk.bf16");
    const KernelDescriptor split = d.for_problem({14199, 28, 4767}, kDefaultPersistentSms);
    EXPECT_EQ(split.id, "split_k.bf16");
    EXPECT_EQ(split.block_tile.m, 128);
    EXPECT_EQ(split.block_tile.n, 64);  // N = 28: the narrow tile
    EXPECT_EQ(split.k_ranges, 2);       // the ranges the rules chose, for the sweep's loss model
    const auto spec = tile_map_spec(d, {14199, 28, 4767}, kDefaultPersistentSms);
    ASSERT_TRUE(spec) << spec.error();
    EXPECT_EQ(spec->kernel, "split_k.bf16");
    EXPECT_EQ(spec->block_m, 128);
    EXPECT_EQ(spec->block_n, 64);
    EXPECT_EQ(d.for_problem({8576, 64, 1024}, kDefaultPersistentSms).id, "wgmma_tma_64x64.bf16");
    EXPECT_EQ(d.for_problem({20000, 64, 1024}, kDefaultPersistentSms).id, "wgmma_tma_128x64.bf16");
    EXPECT_EQ(d.for_problem({512, 512, 512}, kDefaultPersistentSms).id,
              "wgmma_tma_64x64_deep.bf16");
    EXPECT_EQ(d.for_problem({2176, 496, 112}, kDefaultPersistentSms).id, "wgmma_tma_64x128.bf16");
}

DispatchConfig fp8_config_of(const GemmProblem& problem, int sms = kDefaultPersistentSms) {
    return choose_fp8_dispatch(problem, sms).config;
}

// Where rung 13's 128 x 256 tiles fill their rounds (97 %), rung 13 runs: 2048^3 to 8192^3,
// where it measured 96-101 % of cuBLASLt on an H200 (issue 34).
TEST(Fp8DispatchRules, WellFilledRoundsOf128x256TilesRunRung13) {
    EXPECT_EQ(fp8_config_of({4096, 4096, 4096}), DispatchConfig::kFp8Tile256);
    EXPECT_EQ(fp8_config_of({8192, 8192, 8192}), DispatchConfig::kFp8Tile256);
    const DispatchChoice square = choose_fp8_dispatch({2048, 2048, 2048}, kDefaultPersistentSms);
    EXPECT_EQ(square.config, DispatchConfig::kFp8Tile256);
    EXPECT_EQ(square.reason,
              "rung 13, 128 x 256: 128 tiles, 1 round 97 % filled on 132 SMs (128 x 192: 176 "
              "tiles, 2 rounds 67 % filled; 128 x 128: 256 tiles, 2 rounds 97 % filled)");
}

// 3072^3's 288 tiles of 128 x 256 are 3 rounds 73 % filled (78 % of cuBLASLt); 128 x 192 tiles
// fill the same 3 rounds 97 %, as for lab 6's M = 1024 and 2048 (80-81 %).
TEST(Fp8DispatchRules, BadlyFilledLastRoundsRun128x192Tiles) {
    const DispatchChoice cube = choose_fp8_dispatch({3072, 3072, 3072}, kDefaultPersistentSms);
    EXPECT_EQ(cube.config, DispatchConfig::kFp8Tile192);
    EXPECT_EQ(cube.reason,
              "FP8 128 x 192: 384 tiles, 3 rounds 97 % filled on 132 SMs (128 x 256: 288 tiles, "
              "3 rounds 73 % filled; 128 x 128: 576 tiles, 5 rounds 87 % filled)");
    EXPECT_EQ(fp8_config_of({2048, 3072, 3072}), DispatchConfig::kFp8Tile192);
    EXPECT_EQ(fp8_config_of({1024, 3072, 3072}), DispatchConfig::kFp8Tile192);
}

// Where the 16-bit rules run rung 9's kernel on the shape with half the K, that kernel runs with
// e4m3 inputs, in their tile and split: 1024^3 (74 % of cuBLASLt on rung 13's kernel in 128 x 128
// tiles, 101 % this way on an H200), 512^3, lab 6's M <= 512, the decode shapes at 8192^2.
TEST(Fp8DispatchRules, WhereTheSixteenBitRulesRunRung9sKernelOnHalfTheKItRunsInE4m3) {
    const DispatchChoice cube = choose_fp8_dispatch({1024, 1024, 1024}, kDefaultPersistentSms);
    EXPECT_EQ(cube.config, DispatchConfig::kTmaTiles);
    EXPECT_EQ(cube.tile, Rung9Tile::kSmall);
    EXPECT_EQ(cube.splits, 1);
    EXPECT_EQ(cube.reason, "e4m3 as 16-bit 1024x1024x512: " +
                               choose_dispatch({1024, 1024, 512}, kDefaultPersistentSms).reason);
    EXPECT_EQ(fp8_config_of({512, 512, 512}), DispatchConfig::kTmaTiles);
    EXPECT_EQ(fp8_config_of({512, 3072, 3072}), DispatchConfig::kTmaTiles);
    EXPECT_EQ(fp8_config_of({128, 8192, 8192}), DispatchConfig::kTmaTiles);
    // Split as the 16-bit equivalent is: the same K tiles a range (128 e4m3, 64 16-bit elements).
    const DispatchChoice lab6 = choose_fp8_dispatch({64, 3072, 3072}, kDefaultPersistentSms);
    const DispatchChoice lab6_16 = choose_dispatch({64, 3072, 1536}, kDefaultPersistentSms);
    ASSERT_EQ(lab6.config, DispatchConfig::kSplitK);
    EXPECT_EQ(lab6.tile, lab6_16.tile);
    EXPECT_EQ(lab6.splits, lab6_16.splits);
    EXPECT_EQ(split_k_ranges(3072, lab6.splits, split_k_block_k(Precision::kE4M3)),
              split_k_ranges(1536, lab6_16.splits));
    const DispatchChoice skinny = choose_fp8_dispatch({432, 16, 7696}, kDefaultPersistentSms);
    EXPECT_EQ(skinny.config, DispatchConfig::kSplitK);
    EXPECT_EQ(skinny.splits, choose_dispatch({432, 16, 3848}, kDefaultPersistentSms).splits);
    EXPECT_EQ(fp8_config_of({16, 8192, 8192}), DispatchConfig::kSplitK);
}

// Where the 16-bit rules run rung 11 (or 12), rung 13's kernel runs, in the tile of rung 11's
// rule over three: 2048 x 1024 x 512's 128 tiles of 128 x 128 fill one round (97 %).
TEST(Fp8DispatchRules, ElseRung13sKernelInTheTileThatFillsItsRoundsBest) {
    const DispatchChoice wide = choose_fp8_dispatch({2048, 1024, 512}, kDefaultPersistentSms);
    EXPECT_EQ(wide.config, DispatchConfig::kFp8Tile128);
    EXPECT_EQ(wide.splits, 1);
    EXPECT_EQ(wide.reason,
              "FP8 128 x 128: 128 tiles, 1 round 97 % filled on 132 SMs (128 x 256: 64 tiles, 1 "
              "round 48 % filled; 128 x 192: 96 tiles, 1 round 73 % filled)");
    EXPECT_EQ(choose_dispatch({2048, 1024, 256}, kDefaultPersistentSms).config,
              DispatchConfig::kPersistent);
}

TEST(Fp8DispatchRules, NOrKThatTmaCannotStrideRunOnZeroPaddedCopies) {
    const DispatchChoice odd = choose_fp8_dispatch({17, 33, 129}, kDefaultPersistentSms);
    EXPECT_TRUE(same_problem(odd.padded, {17, 36, 144}));
    EXPECT_EQ(
        odd.reason.rfind(
            "N = 33 -> 36, K = 129 -> 144 (zero-padded copies): e4m3 as 16-bit 17x40x72: ", 0),
        0u)
        << odd.reason;
    EXPECT_TRUE(same_problem(fp8_padded_problem({1, 4, 16}), {1, 4, 16}));
    EXPECT_TRUE(same_problem(sixteen_bit_equivalent({17, 36, 144}), {17, 40, 72}));
    EXPECT_EQ(split_k_depth(3000, 2, split_k_block_k(Precision::kE4M3)), 1536);  // 24 K tiles
}

// Every FP8 choice on the grid names a configuration whose own can_run accepts the padded
// problem (N a multiple of 4, K of 16), with splits only for split-K and a one-line reason.
TEST(Fp8DispatchRules, EveryChoiceCanRunWhatItIsGiven) {
    const std::vector<std::int64_t> sides = {1,   2,   7,    8,    16,   17,   63,    64,   127,
                                             129, 257, 1021, 1536, 4093, 7696, 16384, 65536};
    std::set<DispatchConfig> reached;
    for (int sms : {1, 2, 46, 108, 114, 132, 144}) {
        for (std::int64_t m : sides) {
            for (std::int64_t n : sides) {
                for (std::int64_t k : sides) {
                    const DispatchChoice c = choose_fp8_dispatch({m, n, k}, sms);
                    const std::string where = std::to_string(m) + "x" + std::to_string(n) + "x" +
                                              std::to_string(k) + " on " + std::to_string(sms) +
                                              " SMs: " + c.reason;
                    ASSERT_EQ(dispatch_configuration_can_run(c, Precision::kE4M3), "") << where;
                    ASSERT_EQ(c.padded.m, m) << where;
                    ASSERT_TRUE(c.padded.n % 4 == 0 && c.padded.n >= n && c.padded.n < n + 4)
                        << where;
                    ASSERT_TRUE(c.padded.k % 16 == 0 && c.padded.k >= k && c.padded.k < k + 16)
                        << where;
                    ASSERT_EQ(c.splits > 1, c.config == DispatchConfig::kSplitK) << where;
                    ASSERT_TRUE(c.splits <= kSplitKMaxSplits) << where;
                    // No range empty: as many ranges of e4m3's K tiles as the choice says.
                    ASSERT_EQ(split_k_ranges(c.padded.k, c.splits, 128), c.splits) << where;
                    ASSERT_FALSE(c.reason.empty()) << where;
                    ASSERT_EQ(c.reason.find('\n'), std::string::npos) << where;
                    reached.insert(c.config);
                }
            }
        }
    }
    EXPECT_EQ(reached,
              (std::set<DispatchConfig>{DispatchConfig::kTmaTiles, DispatchConfig::kSplitK,
                                        DispatchConfig::kFp8Tile256, DispatchConfig::kFp8Tile192,
                                        DispatchConfig::kFp8Tile128}));
}

TEST(Fp8DispatchDescriptor, RunsAnySizeAndSaysWhatRunsIt) {
    const KernelDescriptor* d = find_kernel("dispatch.e4m3");
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->rung, 14);
    EXPECT_EQ(d->precision, Precision::kE4M3);
    EXPECT_EQ(d->reference_id, "cublaslt.e4m3");
    EXPECT_FALSE(d->launch);
    EXPECT_TRUE(find_gpu_kernel("dispatch.e4m3")->launch);
    EXPECT_EQ(d->size_multiples.n, 1);
    EXPECT_EQ(d->size_multiples.k, 1);
    EXPECT_EQ(d->can_run({17, 33, 129}), "");
    EXPECT_EQ(d->can_run({1, 1, (std::int64_t{1} << 30) + 1}),
              "M, N and K must each be at most 1073741824 (32-bit index arithmetic)");
    EXPECT_EQ(d->launch_plan({64, 3072, 3072}),
              choose_fp8_dispatch({64, 3072, 3072}, kDefaultPersistentSms).reason);
    // for_problem: what runs, with its own tile, so the tile map draws it.
    EXPECT_EQ(d->for_problem({4096, 4096, 4096}, kDefaultPersistentSms).id, "wgmma_fp8.e4m3");
    const KernelDescriptor cube = d->for_problem({3072, 3072, 3072}, kDefaultPersistentSms);
    EXPECT_EQ(cube.id, "wgmma_fp8_192.e4m3");
    EXPECT_EQ(cube.block_tile.n, 192);
    EXPECT_EQ(cube.mma_tile.n, 192);
    EXPECT_EQ(d->for_problem({2048, 1024, 512}, kDefaultPersistentSms).id, "wgmma_fp8_128.e4m3");
    // Rung 9's kernel in e4m3: its tile, K tiles of 128, k32 wgmma, cuBLASLt as the reference.
    const KernelDescriptor small = d->for_problem({1024, 1024, 1024}, kDefaultPersistentSms);
    EXPECT_EQ(small.id, "wgmma_tma_64x64.e4m3");
    EXPECT_EQ(small.rung, 14);
    EXPECT_EQ(small.precision, Precision::kE4M3);
    EXPECT_EQ(small.reference_id, "cublaslt.e4m3");
    EXPECT_EQ(small.block_tile.m, 64);
    EXPECT_EQ(small.block_tile.n, 64);
    EXPECT_EQ(small.block_tile.k, 128);
    EXPECT_EQ(small.mma_tile.k, 32);
    EXPECT_EQ(small.layout_ids, (std::vector<std::string>{"wgmma.m64n64k32.e4m3"}));
    EXPECT_EQ(small.can_run({1024, 1024, 1024}), "");
    EXPECT_NE(small.can_run({1024, 1024, 1000}), "");  // K not a multiple of 16
    EXPECT_EQ(d->for_problem({512, 3072, 3072}, kDefaultPersistentSms).id,
              "wgmma_tma_128x128.e4m3");
    const KernelDescriptor split = d->for_problem({64, 3072, 3072}, kDefaultPersistentSms);
    EXPECT_EQ(split.id, "split_k.e4m3");
    EXPECT_EQ(split.k_ranges, choose_fp8_dispatch({64, 3072, 3072}, kDefaultPersistentSms).splits);
    const auto spec = tile_map_spec(*d, {64, 3072, 3072}, kDefaultPersistentSms);
    ASSERT_TRUE(spec) << spec.error();
    EXPECT_EQ(spec->kernel, "split_k.e4m3");
    EXPECT_EQ(spec->block_k, 128);
}

}  // namespace
}  // namespace tclens::kernels
