#include "kernels/dispatch_rules.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "common/text.h"
#include "kernels/short_k_gemm.h"
#include "kernels/split_k_gemm.h"
#include "kernels/tma_tile_limits.h"
#include "kernels/wave_choice.h"
#include "kernels/wave_slots.h"

namespace tclens::kernels {
namespace {

// Rung 11 when its tiles fill at least this share of the SMs (one wave or more). In the sweep,
// rung 11 was the best rung on 32 of the 35 shapes at or above it (rung 8 by 2-5 points on two
// K = 64 shapes, rung 12 on one), and at 0.71-0.97 of a wave (176x8864x416, 3584x704x1344,
// 3840x672x128, 1968x1424x3824) it beat rung 9 by 16-32 points of cuBLAS; below 0.7, rung 9 (no
// persistent loop) was the best on 78 of the 98 shapes.
constexpr double kPersistentMinWave = 0.7;

// Rung 9's kernel, not rung 11, for N up to this, whatever the wave: one column of rung 11's
// 128 x 192 or 128 x 256 tiles loads and multiplies zeros for a third or more of its width,
// rung 9's 128 x 128 (128 x 64 for N <= 64) for less. In session 20's first sweeps (calls 1 and
// 2, about 40 shapes each) rung 9 beat rung 11 by 10-30 points of cuBLAS wherever N <= 144, all
// of them below kPersistentMinWave; above it rung 11 lost there too (session 20 call 4:
// 14199x28x4767 0.44x, 15423x49x1518 0.45x, 13328x64x1136 0.53x, 12080x80x14384 0.61x), not yet
// measured on rung 9's tiles.
constexpr std::int64_t kRung9MaxN = 128;

// Rung 11 stores C by TMA, whose rows must be a multiple of 16 bytes apart: for N not a multiple
// of 4 rung 14 gives it padded C rows and copies them back, twice C's bytes more. Over a short K,
// where writing C is most of the work, rung 9 (C stored from registers in place) runs instead
// below this K (K <= 128, or an odd N up to K = 384, run the short-K GEMM instead): in session
// 20's sweeps (calls 2 and 4) the 11 such shapes on rung 11 with K < 448 ran 0.40-1.08x of cuBLAS,
// 10 of them under 1.0 (of those from K = 129 up: 827x4513x151 0.51, 14371x166x217 0.55,
// 427x7977x323 0.71), the 15 from K = 461 up 1.05-4.0x.
constexpr std::int64_t kCopyBackMinK = 448;

// The short-K GEMM stores C from its stage with plain stores: 1.0-1.4 TB/s on large C, where rung
// 11's TMA store writes about 3 (session 22, call 2: 8192^2 x 43 on the short-K GEMM 167 us, 1.94x
// of 8192^2 x 48 on rung 11; the padded copies and rung 11 ran it at 1.08-1.17x in session 20,
// and 5745x4116x23 at 0.80x of cuBLAS against the short-K GEMM's 0.64x). Where rung 11 can store
// C in place (N a multiple of 4, N > kRung9MaxN) over at least this many of the short-K GEMM's
// tiles, the copy of A into rows of K' or of B into rows of N' (operands far smaller than C there)
// costs less than its slower stores, and the padded path runs. At 688 tiles (10939x936x18) both
// ran 0.85x. With this rule (call 3's sweeps) the three shapes it moved ran 1.38x
// (6855x8964x105), 1.14x (3261x8140x112) and 0.81x (5745x4116x23) of cuBLAS, against 0.81x,
// 0.65x and 0.64x on the short-K GEMM in calls 1-2.
constexpr std::int64_t kShortKMaxTilesInPlace = 1024;

// Rung 14 runs the short-K GEMM on N or K that TMA cannot stride up to this K (two K tiles), and
// for an odd N (whose C rung 11 would copy back: kCopyBackMinK) up to kShortKOddNMaxK. Session 28
// (calls 1-2, dispatch_candidates): over K = 141-430 and an odd N, on 30 shapes of 72 or more
// tiles, the padded path (rung 9 storing C in place) ran 0.55-1.22x of cuBLAS, the short-K GEMM
// 0.86-1.28x, ahead on 29 (4006x977x149 0.55 -> 1.08, 827x4513x151 0.56 -> 1.13,
// 1514x15561x252 0.76 -> 1.00; 300x3001x200 1.03 -> 1.02); on the 13 of an even N the padded
// path stayed ahead (rung 9 or, N a multiple of 4, rung 11: 8000x6002x200 0.90 against 0.83).
// Call 3 (up to K < 448, the sweeps' 41 such shapes): 0.54-1.66x through the copies, 0.86-1.43x
// on the short-K GEMM, but past six K tiles 4 of 7 lost (5035x8645x441 1.66 -> 1.14,
// 2907x369x427 1.40 -> 1.00), where rung 9 runs a longer pipelined K loop.
constexpr std::int64_t kShortKDispatchMaxK = 2 * ShortKConfig::kBlockK;
constexpr std::int64_t kShortKOddNMaxK = 6 * ShortKConfig::kBlockK;

// Past one K tile, whose loads the short-K GEMM does not overlap with its multiply, few of its
// tiles (fewer than one per kShortKSmsPerFewTile SMs: one CTA an SM, none to hide them behind)
// run rung 9's smaller tiles on the padded copies where they are very few (at most one per
// kShortKSmsPerVeryFewTile SMs) or K fills more than half of a second K tile. Session 28: on 2-65
// tiles over K = 77-290 rung 9's tiles ran 4-27 points of cuBLAS ahead (call 2: 1207x30x94 0.59
// -> 0.68, 300x500x100 0.68 -> 0.83, 1000x1001x290 0.94 -> 1.26); over the sweeps' 70 shapes of
// K = 65-128 (call 3) they gained on 39 of the 47 with at most 16 tiles and lost on 12 of 23 with
// 19-62 tiles over K = 74-93 (383x2551x83 0.94 -> 0.68, 1204x599x85 1.03 -> 0.77), which this
// rule leaves on the short-K GEMM (fitted on those shapes: 44 gained and 2 lost by more than 2
// points). On 36 fresh shapes (call 4) this and kShortKOddNMaxK took rung 14 from 0.890x to
// 0.990x of cuBLAS (geometric mean), 22 gained and 3 lost. One K tile keeps the short-K GEMM
// (6310x119x33, 50 tiles: 0.43x of cuBLAS through the copies in session 20).
constexpr int kShortKSmsPerFewTile = 2;
constexpr int kShortKSmsPerVeryFewTile = 8;
constexpr std::int64_t kShortKFewTilesMinK = ShortKConfig::kBlockK + ShortKConfig::kBlockK / 2;

// Split-K below kPersistentMinWave when K is at least this deep: rung 9 fell under 95 % of
// cuBLAS on 26 of the 27 such shapes of the sweep (432x16x7696 0.42x, 272x720x5184 0.48x,
// 768x320x15552 0.51x ...: a few tiles, each a long serial K loop, most SMs idle), and under
// 100 % on only 3 of the 71 with K < 1536.
constexpr std::int64_t kSplitKMinK = 1536;
// How many K ranges (split_k_splits): as many as keep one CTA per SM with each range at least
// kSplitKMinRange deep (4 K tiles, one more than the 3 in flight at its start), or, for the
// tiles of which an SM holds two, as many as fill both slots with each range at least
// kSplitKDeepRange deep, whichever is more. Timed behind the stream gate (session 23, call 2,
// tests/gpu/tools/dispatch_candidates.cpp, 64 x 128 tiles, % of cuBLAS): 16 and 64 x 3072^2 ran
// 86.0 and 80.7 on 4 ranges of 12 K tiles (96 CTAs) and 84.8 and 73.4 on 8 of 6 (192 CTAs);
// 128 x 3072^2 ran 75.2 on 4 ranges (192 CTAs), 69.4 on 2 (96); 16 x 8192^2 84.0 on 4 (256 CTAs),
// 80.8 on 2 (128); where ranges stay deep over few tiles, one CTA per SM wins: 64x448x12736 86.8
// on 29 ranges of 7 K tiles (116 CTAs), 77.7 on 16; 96x512x15216 101.7 on 16 (128 CTAs). The
// rule picks counts between those timed: 5 ranges for 16 and 64 x 3072^2 (88.7 and 78.3 in call
// 4's presets), 10 for 200x200x3000 (95.6 in call 3; 102.9 on 8, 93.3 on 6), 19 for 96x512x15216.
constexpr std::int64_t kSplitKMinRange = 256;
constexpr std::int64_t kSplitKDeepRange = 768;
// Split-K over a shorter K, from kShortSplitMinK, for at most kShortSplitMaxTiles tiles: most SMs
// idle while each tile's CTA walks its K loop. Session 25, call 2 (% of cuBLAS, unsplit / best
// split on 64 x 64 tiles): 1 tile 64x64x1216 76.8 / 92.3 (4 ranges), 2 tiles 128x64x1408 75.2 /
// 94.2 (6), 4 tiles 240x64x848 79.2 / 87.2 (4); with more tiles unsplit wins or ties (45 tiles
// 912x192x768 90.1 / 82.8, 68 tiles 4352x64x1344 88.2 / 83.7, 40 tiles 1280x128x1344 84.4 / 87.6),
// and over K = 576 too (1152x64x576, 18 tiles: 92.5 / 82.2).
constexpr std::int64_t kShortSplitMinK = 768;
constexpr std::int64_t kShortSplitMaxTiles = 8;
// Rung 9's kernel in smaller tiles where its 128 x 128 tiles would fill at most half of the SMs,
// and K is too short to split or M is at most kSmallTileSplitMaxM: fewer rows and columns a CTA,
// and more CTAs, start and finish sooner. Session 23 (calls 2 and 3) moved these shapes from 128 x
// 128 to 64 x 128 (% of cuBLAS, 128 x 128 / 64 x 128: 512^3 72.5 / 84.0, 1024^3 74.5 / 84.7,
// 200x200x3000 split 8 89.2 / 102.9); session 25 (call 1, tests/gpu/results/
// 2026-12-01_h200_session25, dispatch_candidates, 64 x 128 / 64 x 64 / 64 x 64 deep) moved them
// on to 64 x 64: unsplit, 128^3 89.3 / 100.0 / 103.1, 512^3 83.1 / 93.8 / 97.9, 624x176x720 (30
// tiles of 64 x 64) 81.3 (split 4) / 91.7 / 92.8, 768^3 (144 tiles) 83.4 / 89.2 / 66.8, 1024^3
// 83.8 / 90.2 / 65.1, 128x8192x8192 (256 tiles) 84.7 (split 2) / 89.5 / 62.4; split,
// 128x3072x3072 78.2 (4 ranges) / 81.0 (2) / 58.6 (2), 200x200x3000 95.9 (12) / 103.4 (8) / 103.8
// (6), 64x448x12736 83.2 (16) / 93.4 (12) / 93.3 (12). The deep configuration (12 stages, one CTA
// an SM) only where its tiles take one wave unsplit; else 6 stages and two CTAs an SM, so that the
// tiles or their ranges fill both slots.
// Narrow N (<= 64) too, where 128 x 64 tiles are as few (call 2, 128 x 64 / 64 x 64 / deep):
// 1152x64x576 (9 tiles) 77.0 / 90.9 / 92.5, 1472x64x448 79.8 / 94.0 / 94.4, 4352x64x1344 (34)
// 76.6 (split 3) / 86.5 / 88.2. And over a short K (< kSplitKMinK) wherever the 64 x 64 tiles fill
// one wave of two CTAs an SM, however many 128 x 128 ones there are: 1792x576x832 (70 of those, 252
// of 64 x 64) 76.1 on 128 x 128, 89.4 on 64 x 64 (624x1904x2192, 300 tiles, ran 73.1 / 46.2).
// Over a deep K (>= kSplitKMinK), where 64 x 64 tiles outnumber the SMs but fill less than
// kSmallDeepKMinFill of both slots, 64 x 128 (128 x 64 for a narrow N) instead: two 64 x 64 CTAs
// on an SM move a third more bytes than one 64 x 128 for the same outputs, and the SMs that hold
// two finish last. In call 2's sweep such shapes lost 17-19 points on 64 x 64 (208x2400x13200, 152
// tiles: 46.6 against 64.1 on 64 x 128 in session 24; 128x5472x14816, 172 tiles: 75.6 / 94.3);
// filling both slots, 128x8192x8192 (256 tiles) ran 89.5 unsplit against 84.7 on 64 x 128 split 2
// (call 1), but 224x4192x4496 (264 tiles) 64.9 in call 2's sweep against 82.7 in session 24's.
// With more rows over a deep K the larger tile's reuse wins (768x320x15552: 81.1 on 6 ranges of
// 128 x 128, 66.3 on 7 of 64 x 128), and so does 128 x 64 over 64 x 128 where N <= 64
// (8192x64x1024 87.3 / 79.4, 4096x64x4096 split 4 85.9 / 68.6, 432x16x7696 split 16 93.7 / 83.9).
// With more tiles 128 x 128 stays ahead (1568x688x1008, 78 tiles: 90.0 / 87.4 on 64 x 128;
// 512x3072x3072, 96 tiles: 82.8 / 82.5 / 59.3).
constexpr double kSmallTileMaxShare = 0.5;
constexpr std::int64_t kSmallTileSplitMaxM = 256;
constexpr double kSmallDeepKMinFill = 0.9;
// Those 64 x 128 tiles, where M and N are past 64, run unsplit below this K, where split_k_splits
// would cut it in two ranges of 768-1023 to fill both slots. Session 33, call 3 (tests/gpu/results/
// 2026-12-02_h200_session33, dispatch_candidates, % of cuBLAS, split 2 / unsplit): on the 25
// shapes so placed of M = 70-250 over K = 1552-2016 (24 drawn at random, 94x5179x1717 from the
// sweeps), unsplit 64 x 128 tiles ran ahead on all 25, 1.141x (geometric mean; 94x5179x1717 87.9
// / 109.4, 70x5184x1960 61.9 / 70.1, 247x3712x1864 68.1 / 78.3), and on 11 of 12 of them with
// twice the K in e4m3 (kernels/fp8_dispatch_rules.h), 1.103x; 64 x 64 tiles unsplit won on 9 of
// 25 (0.959x), though on lab 6's M = 256 (call 2: 256x3072x1536 69.9 / 76.5 on 64 x 128, 82.6
// on 64 x 64). From K = 2048 the split holds its own (256x3072x2048 72.1 / 72.8). Call 4, on 24
// fresh shapes drawn after the rule was set: 1.158x, 24 of 24 ahead (86x5976x2016 64.7 / 75.8),
// and 1.133x, 12 of 12, in e4m3.
constexpr std::int64_t kNarrowSideSplitMinK = 2048;
// Over a shorter K, 128 x 64 tiles where N < 64 and the 64 x 64 ones outnumber the SMs while the
// 128 x 64 ones do not (narrow_tiles_take_one_each): one CTA an SM, none waiting behind another.
// Session 30, call 1 (% of cuBLAS, 64 x 64 / 128 x 64): 13497x40x936 (211 tiles of 64 x 64) 54.6 /
// 71.1, 15456x32x384 (242) 82.1 / 88.1, 12368x32x1216 (194) 81.4 / 87.1. Call 7 (rung 14 with and
// without the rule, in one call, for N <= 64) bounded it: where N < 64 it gained on 10 of the 12
// sweep shapes it moves (0.835 -> 0.914x of cuBLAS, 13497x40x936 0.55 -> 0.71, 13296x16x1232 0.70
// -> 0.81) and 20 of 21 fresh ones (0.873 -> 0.945x); at N = 64 it lost on all 20 sweep shapes
// (1.022 -> 0.947x: 9600x64x1088 1.02 -> 0.90) and 7 of 9 fresh ones (1.000 -> 0.963x). The bound
// was set on these numbers; no shapes drawn after it were run.
// A few rows (M <= 64) over a wide N keep 64 x 128 tiles where there are at least this many of
// them (they split K as well: rung 12's small-M stream-K, which sessions 18-22 ran there, lost to
// it behind the stream gate in session 23, call 2: 16 x 3072^2 76.4 against 86.0, 64 x 3072^2
// 67.1 against 80.7). Session 25, call 1 (% of cuBLAS, best split of 64 x 128 / 64 x 64): 24
// tiles (N = 3072) 16 x 3072^2 89.5 / 85.6, 32 x 3072^2 96.4 / 94.6, 64 x 3072^2 86.3 / 86.5; 64
// tiles 16 x 8192^2 85.0 / 78.7; 4 tiles (N = 448, 512) 64x448x12736 83.2 / 93.4, 96x512x15216
// 94.9 / 97.8. Over a K too short to split (< kSplitKMinK), where 64 x 64 tiles are no more than
// the SMs, those run instead (deep, one CTA an SM: few_rows_take_small_tiles_unsplit). Session 30,
// call 4 (tests/gpu/results/2026-12-01_h200_session30, dispatch_candidates, % of cuBLAS, 64 x 128
// / 64 x 64 deep / 64 x 64): 16x3376x1392 (27 tiles) 71.5 / 84.5 / 85.9, 64x3520x1088 74.2 / 91.9
// / 89.1, 64x3072x704 78.2 / 93.1 / 90.8, 32x6368x1184 (50) 82.5 / 85.6 / 85.9, 64x5504x64 89.2 /
// 101.9 / 99.5: 64 x 64 ahead on each of the 34 such shapes, by 3-20 points. With more of them
// results were mixed (16x13216x1488, 104 tiles of 64 x 128: 82.0 / 64.7 / 70.0; 64x11392x64, 89:
// 92.5 / 79.7 / 99.3).
constexpr std::int64_t kFewRowsMinTiles = 16;
// But over a deep K (>= kSplitKMinK) where M is more than half of their 64 rows
// (kFewRowsHalfTileMaxM), 64 x 64 tiles, twice as many, up to kFewRowsFullTileMaxTiles of the 64
// x 128 ones (full_rows_take_small_tiles). Session 29, call 6 (tests/gpu/
// results/2026-12-01_h200_session29, dispatch_candidates, % of cuBLAS, 64 x 128 as rung 14 ran it
// / best 64 x 64), K = 4096: M = 48 over 16, 18, 20, 22 tiles (N = 2048 ... 2816) 95.8 / 105.2,
// 90.5 / 99.4, 97.2 / 102.5, 91.9 / 99.5; M = 64 97.1 / 104.0, 91.8 / 102.2, 94.5 / 101.1, 85.5 /
// 92.8; 24 tiles (64 x 3072^2) 83 / 86-88 in calls 1 and 5 (86.3 / 86.5 in session 25). M = 16
// kept 64 x 128 (92.0 / 91.8, 90.8 / 92.5, 94.1 on 64 x 128 split 6 / 89.2, 94.7 / 90.7) and M =
// 32 from 24 tiles (96.4 / 94.6 in session 25; 32x2560x8192, 20 tiles, 95.6 / 93.6).
constexpr std::int64_t kFewRowsHalfTileMaxM = 32;
constexpr std::int64_t kFewRowsFullTileMaxTiles = 24;
// Over a deep K (>= kSplitKMinK), M of 129-256 (kSmallTileSplitMaxM) across at least
// kPastSquareMinTiles tiles of 128 x 128 (N > 64): 64 x 128 tiles where they compute fewer rows
// than 128 x 128 ones (M % 128 of 1-64), and, from K = kPastSquareDeepMinK, 128 x 128 tiles
// where they do not (their bytes feed twice the rows), split or not by the same rule, in place of
// 64 x 64 tiles or 64 x 128 ones of as many rows. Session 29, call 6 (tests/gpu/results/
// 2026-12-01_h200_session29, dispatch_candidates, % of cuBLAS, rung 14 as session 28 ran it /
// the tile this rule picks): 144x5936x13776 47.4 on 128 x 128 / 58.6 on 64 x 128 (split 4; call
// 1: 60.7 unsplit), 176x5936x13776 52.6 / 60.7, 144x2048x8192 66.9 on 64 x 64 split 2 / 90.8 on
// 64 x 128 split 4, 176x2048x8192 93.5 / 104.0 (144x4096x4096, 176x3536x14896 and others ran 64 x
// 128 already); 208x3536x14896 54.7 on 64 x 128 split 2 / 77.1 on 128 x 128 split 2,
// 240x3536x14896 70.6 / 98.3, 224x3536x14896 (call 1) 59.6 / 83.9, 208x2048x8192 75.6 on 64 x 64
// split 2 / 107.4 on 128 x 128 split 4, 240x2048x8192 83.1 / 87.2, 256x4096x8192 85.6 / 87.2. Over
// a shorter K 128 x 128 won some and lost some (208x4096x4096 67.6 on 64 x 64 / 91.8, but
// 240x4096x4096 90.6 / 83.3, 256x3072x3072 75-78 on 64 x 128 split 2 / 74.5 in calls 1 and 5);
// fewer tiles keep 64 x 64 (200x200x3000, 4 tiles: 113 on 64 x 64 split 6, 84 on 128 x 128 split
// 8, call 1).
constexpr std::int64_t kPastSquareMinTiles = 32;
constexpr std::int64_t kPastSquareDeepMinK = 8192;
// Where the 128 x 128 tiles (128 x 64 for N <= 64) the rules above leave would split K into
// ranges shallower than kSquareSplitMinRange, 64 x 64 tiles, as long as they are no more than the
// SMs, split by the same rule (fewer ranges, each deeper, over twice or four times the tiles).
// Session 30, calls 1-2 (tests/gpu/results/2026-12-01_h200_session30, dispatch_candidates, % of
// cuBLAS, rung 14 as before / 64 x 64 split as this rule splits them), on the 39 shapes of
// such ranges: 86.1 -> 96.6 (geometric mean); 1152x128x1600 (5 ranges of 320 on 128 x 128) 72.5
// -> 86.8 (3 on 64 x 64), 384x128x8064 (26 of 320) 78.4 -> 97.6 (12), 624x304x1984 79.6 -> 90.9,
// 320x64x12160 (32 of 384 on 128 x 64) 75.7 -> 87.9; lost: 880x416x2384 (4 of 640) 76.2 -> 73.4,
// 927x22x5833 109.4 -> 105.4, 1725x25x4273 100.1 -> 97.4. From ranges of 768 on, results were
// mixed: won where N = 64 (6144x64x2368, 3 of 832, 81.6 -> 87.2; 1728x64x8896 87.8 -> 93.8) and
// lost over narrower or wider N (3280x48x4240, 5 of 896, 95.8 -> 86.8; 1747x22x14967 91.1 ->
// 81.7; 417x172x15032 113.4 -> 107.2), and past 1024 the larger tiles won (2688x320x10944, 2 of
// 5504, 91.3 / 76.6 unsplit; 4544x80x12000 90.1 / 59.2). Checked in call 3 (rung 14 on these
// rules and on the rules before, in one call, two passes each): the 139 sweep shapes the rule
// moves 0.924 -> 1.015x of cuBLAS (117 gained, 22 lost), 51 fresh shapes drawn after it was set
// 0.942 -> 1.024x (43 gained, 8 lost). The losses are of a few columns (N <= 48) over many rows
// (2863x17x3345 1.00 -> 0.89, 825x17x9447 0.93 -> 0.84) or of N = 65-112 over many rows or a
// deep K (770x68x12484 0.74 -> 0.66, 3784x76x1633 1.12 -> 1.02, 516x98x12103 1.00 -> 0.92).
constexpr std::int64_t kSquareSplitMinRange = 768;

// Rung 9's kernel in its 128 x 128 tiles (one CTA an SM), not rung 11, where those tiles give
// the busiest SM at most kRung9OverRung11MaxRounds rounds and at most kRung9OverRung11MaxShare of
// the outputs rung 11's rounds of its wider tiles give it, over K >= kRung9OverRung11MinK: rung
// 11's 128 x 192 or 128 x 256 tiles loaded and multiplied zeros past N, or filled their last
// round badly. Session 26, call 1 (tests/gpu/results/2026-12-01_h200_session26,
// dispatch_candidates, % of cuBLAS, rung 11 / rung 9 128 x 128), where rung 9's share is 67 %:
// 6448x208x9136 46.3 / 69.2, 6656x256x3520 59.0 / 89.4, 7008x208x1792 59.1 / 82.1,
// 8320x256x448 75.6 / 94.5, 1536x1408x2112 75.4 / 96.3, and in two rounds 384x9792x7616 67.6
// / 88.2, 9600x384x1600 68.2 / 79.1, 1056x3344x832 69.0 / 74.8, 2080x1824x688 71.5 / 75.1,
// 9296x272x14672 49.5 / 52.7. At an equal share rung 11 won (16016x288x3168 68.7 / 57.7,
// 4896x864x6576 74.3 / 62.5, 2240x2560x8320 98.5 / 88.7), and so it did in more rounds
// (608x12960x176, 4 rounds at 67 %: 77.0 / 66.6; 320x15680x384, 3 at 75 %: 67.9 / 59.3) and over K
// = 64 (4176x800x64 77.4 / 76.8).
constexpr double kRung9OverRung11MaxShare = 0.7;
constexpr std::int64_t kRung9OverRung11MaxRounds = 2;
constexpr std::int64_t kRung9OverRung11MinK = 448;

// Where rung 9's 128 x 128 tiles would take more than one round (one CTA an SM), and rung 11's
// tiles fill less than kPersistentMinWave: rung 9's 64 x 128 tiles (two CTAs an SM) where they
// fit one wave, else rung 11, whose tiles take one round. Session 27, call 1
// (tests/gpu/results/2026-12-01_h200_session27, dispatch_candidates, % of cuBLAS, 128 x 128 /
// 64 x 128 / rung 11), 64 x 128 in one wave: 192x8512x2304 63.7 / 109.4 / 88.3, 192x8768x768
// 60.3 / 99.7 / 81.8, 304x5680x464 70.4 / 101.5 / 83.8, 400x4352x1280 67.1 / 109.4 / 89.4,
// 448x4288x192 69.9 / 100.4 / 85.9, 544x3344x128 78.6 / 99.6 / 86.5; in more (270-364 tiles):
// 2880x704x320 71.1 / 78.0 / 82.9, 2944x768x2304 60.9 / 59.9 / 80.1, 3536x544x1232 64.2 /
// 59.2 / 82.8, 9088x192x448 66.8 / 70.4 / 81.5, 11648x192x64 69.0 / 77.6 / 81.8, and rung 11 in
// 128 x 256 tiles, as many outputs per SM as rung 9's two rounds: 320x7168x1024 65.4 / 69.9 /
// 72.7, 640x4480x3904 71.8 / 70.4 / 81.2, 10560x256x64 70.0 / 78.5 / 81.2. Where the 128 x 128
// tiles take one round, 64 x 128 ones won some and lost some (192x7360x9024 64.1 / 77.4,
// 208x7664x13920 70.1 / 49.0, 336x3168x2880 75.9 / 69.5): no rule there. Over K < kSplitKMinK
// they do: session 30, call 4 (128 x 128 / 64 x 128 / 128 x 64, one round of 69-132 tiles of 128
// x 128): 80x12048x80 82.0 / 91.8 / 84.4, 5120x256x192 85.9 / 94.2 / 90.3, 960x1344x448 83.4 /
// 90.2 / 87.3, 576x2368x832 83.7 / 90.1 / 84.3, 448x3456x256 90.1 / 99.8 / 96.3, 1472x1152x1088
// 97.2 / 98.0 / 86.2: 64 x 128 ahead of 128 x 128 on 35 of 39 such shapes (2944x352x1232 77.0 /
// 75.8, 848x2256x80 97.0 / 96.9, 5824x144x720 71.0 / 63.9 against 73.8 on 128 x 64). Call 5 (rung
// 14 with and without the rule, in one call) bounded it: on 144 shapes below K = 1536 it gained
// under K = 512 (97 shapes, 1.03-1.07x of the time before, geometric mean per K band) and lost from
// there (47 shapes, 0.94-0.99x: 4784x368x1248 0.90 -> 0.72 of cuBLAS, 13824x80x784 0.78 -> 0.66).
constexpr std::int64_t kOneRoundFewRowsMaxK = 512;

// Stream-K instead of rung 11 when rung 11 needs at least kStreamKMinRounds rounds that it fills
// less than kStreamKMaxFilled and K is at least kStreamKMinK: the one shape of the sweep so
// placed, 1344x7104x3200 (3 rounds 78 % filled), ran 0.81x on rung 12 against 0.78x on rung 11;
// shallower or fuller shapes (2240x2560x8320, 2 rounds: 0.57x against 0.99x) lose with it.
constexpr std::int64_t kStreamKMinRounds = 3;
constexpr double kStreamKMaxFilled = 0.8;
constexpr std::int64_t kStreamKMinK = 2048;

std::int64_t round_up(std::int64_t value, std::int64_t multiple) {
    return (value + multiple - 1) / multiple * multiple;
}

// K ranges for split-K on `tiles` C tiles of a tile `blocks_per_sm` CTAs of which share an SM
// (kSplitKMinRange, kSplitKDeepRange): one CTA per SM with ranges of kSplitKMinRange or more,
// or every slot filled with ranges of kSplitKDeepRange or more, whichever is more, at most
// kSplitKMaxSplits; then as many as split_k_depth leaves.
int split_k_splits(std::int64_t k, std::int64_t tiles, int sms, int blocks_per_sm) {
    const std::int64_t one_per_sm = std::min(sms / tiles, k / kSplitKMinRange);
    const std::int64_t every_slot =
        std::min(wave_slots(sms, blocks_per_sm) / tiles, k / kSplitKDeepRange);
    const std::int64_t wanted =
        std::min<std::int64_t>(kSplitKMaxSplits, std::max(one_per_sm, every_slot));
    return split_k_ranges(k, static_cast<int>(std::max<std::int64_t>(1, wanted)));
}

// Whether K is split at all over `tiles` tiles: from kSplitKMinK, or from kShortSplitMinK for a
// few tiles (kShortSplitMaxTiles).
bool splits_k(std::int64_t k, std::int64_t tiles) {
    return k >= kSplitKMinK || (k >= kShortSplitMinK && tiles <= kShortSplitMaxTiles);
}

// The K ranges of `tiles` tiles of a tile `blocks_per_sm` of which share an SM: 1 where
// splits_k says no, else split_k_splits.
int splits_for(std::int64_t k, std::int64_t tiles, int sms, int blocks_per_sm) {
    return splits_k(k, tiles) ? split_k_splits(k, tiles, sms, blocks_per_sm) : 1;
}

// Rung 9's kernel's tiles of `p` in `tile`: one CTA each (per K range).
std::int64_t rung9_tiles(const GemmProblem& p, Rung9Tile tile) {
    const Rung9TileShape shape = rung9_tile_shape(tile);
    return tiles_covering(p.m, shape.block_m) * tiles_covering(p.n, shape.block_n);
}

// Whether rung 9's own 128 x 128 tiles of `p` would fill at most kSmallTileMaxShare of `sms` SMs.
bool few_square_tiles(const GemmProblem& p, int sms) {
    return static_cast<double>(rung9_tiles(p, Rung9Tile::kSquare)) <= kSmallTileMaxShare * sms;
}

// Rounds of rung 9's 128 x 128 tiles of `p` on `sms` SMs.
std::int64_t square_rounds(const GemmProblem& p, int sms) {
    const Rung9TileShape square = rung9_tile_shape(Rung9Tile::kSquare);
    return tiles_covering(rung9_tiles(p, Rung9Tile::kSquare),
                          wave_slots(sms, square.blocks_per_sm));
}

// Whether rung 9's 64 x 128 tiles of `p` fit one wave on `sms` SMs where its 128 x 128 ones take
// more than one round, or one round over K < kOneRoundFewRowsMaxK (the measurements: the comment
// before kStreamKMinRounds).
bool few_rows_tiles_take_one_wave(const GemmProblem& p, int sms) {
    const Rung9TileShape few_rows = rung9_tile_shape(Rung9Tile::kFewRows);
    return (square_rounds(p, sms) > 1 || p.k < kOneRoundFewRowsMaxK) &&
           rung9_tiles(p, Rung9Tile::kFewRows) <= wave_slots(sms, few_rows.blocks_per_sm);
}

// Which rule, if any, lets rung 9's kernel run 64 x 64 tiles on the padded problem `p`
// (rung9_tile): its own 128 x 128 tiles would be few (few_square_tiles) over K < kSplitKMinK
// or M <= kSmallTileSplitMaxM, or, over K < kSplitKMinK, the 64 x 64 tiles fill one wave of two an
// SM.
enum class SmallTileRule { kNone, kFewSquareTiles, kOneWave };

SmallTileRule small_tile_rule(const GemmProblem& p, int sms) {
    if (few_square_tiles(p, sms) && (p.k < kSplitKMinK || p.m <= kSmallTileSplitMaxM)) {
        return SmallTileRule::kFewSquareTiles;
    }
    const Rung9TileShape small = rung9_tile_shape(Rung9Tile::kSmall);
    if (p.k < kSplitKMinK &&
        rung9_tiles(p, Rung9Tile::kSmall) <= wave_slots(sms, small.blocks_per_sm)) {
        return SmallTileRule::kOneWave;
    }
    return SmallTileRule::kNone;
}

// `rule` in words on `sms` SMs: "128 x 128 ones would fill <= 50 % of 132 SMs", "they fill one
// wave of 264 CTAs (2 per SM on 132 SMs)"; "" for kNone.
std::string small_tile_rule_text(SmallTileRule rule, int sms) {
    switch (rule) {
        case SmallTileRule::kFewSquareTiles: {
            const Rung9TileShape square = rung9_tile_shape(Rung9Tile::kSquare);
            return common::format_text("%d x %d ones would fill <= %.0f %% of %d SMs",
                                       square.block_m, square.block_n, 100 * kSmallTileMaxShare,
                                       sms);
        }
        case SmallTileRule::kOneWave:
            return "they fill one wave of " +
                   wave_slots_text(sms, rung9_tile_shape(Rung9Tile::kSmall).blocks_per_sm);
        case SmallTileRule::kNone:
            break;
    }
    return "";
}

// Whether M <= 64 over N > 64 spans kFewRowsMinTiles or more tiles of 64 x 128, the tiles a few
// rows keep unless full_rows_take_small_tiles or few_rows_take_small_tiles_unsplit.
bool few_rows_over_wide_tiles(const GemmProblem& p) {
    return p.m <= rung9_tile_shape(Rung9Tile::kFewRows).block_m &&
           p.n > rung9_tile_shape(Rung9Tile::kNarrowN).block_n &&
           rung9_tiles(p, Rung9Tile::kFewRows) >= kFewRowsMinTiles;
}

// Whether M <= 64 over a deep K (>= kSplitKMinK) across kFewRowsMinTiles to
// kFewRowsFullTileMaxTiles tiles of 64 x 128 (N > 64) fills more than half of their rows
// (kFewRowsHalfTileMaxM), so that 64 x 64 tiles run instead. 48x2048x4096: yes (16 tiles);
// 32x2048x4096, 64x3200x3072 (25 tiles), 64x3072x512: no.
bool full_rows_take_small_tiles(const GemmProblem& p) {
    return few_rows_over_wide_tiles(p) && p.m > kFewRowsHalfTileMaxM && p.k >= kSplitKMinK &&
           rung9_tiles(p, Rung9Tile::kFewRows) <= kFewRowsFullTileMaxTiles;
}

// Whether M <= 64 over a K too short to split (< kSplitKMinK) across kFewRowsMinTiles or more
// tiles of 64 x 128 (N > 64) has 64 x 64 tiles no more than `sms`, so that those run instead.
// 16x3376x1392: yes (53 tiles of 64 x 64); 16x9136x832 (143), 64x3072x3072 (split): no.
bool few_rows_take_small_tiles_unsplit(const GemmProblem& p, int sms) {
    return few_rows_over_wide_tiles(p) && p.k < kSplitKMinK &&
           rung9_tiles(p, Rung9Tile::kSmall) <= sms;
}

// Whether N < 64 over K < kSplitKMinK has more 64 x 64 tiles than `sms` but no more 128 x 64
// ones, so that those run, one CTA an SM (kSmallDeepKMinFill's note). 13497x40x936: yes (211 and
// 106); 13497x64x936 (N = 64), 8192x40x1024 (128 and 64), 20000x40x1024 (157 of 128 x 64),
// 13497x40x1536: no.
bool narrow_tiles_take_one_each(const GemmProblem& p, int sms) {
    return p.n < rung9_tile_shape(Rung9Tile::kNarrowN).block_n && p.k < kSplitKMinK &&
           rung9_tiles(p, Rung9Tile::kSmall) > sms && rung9_tiles(p, Rung9Tile::kNarrowN) <= sms;
}

// What rung9_tile decides by, each worked out once per shape in rung9_tile_pick.
struct Rung9TileFacts {
    SmallTileRule rule = SmallTileRule::kNone;  // small_tile_rule
    bool one_wave = false;                      // few_rows_tiles_take_one_wave
    bool full_rows = false;                     // full_rows_take_small_tiles
    bool unsplit_rows = false;                  // few_rows_take_small_tiles_unsplit
    bool narrow_one_each = false;               // narrow_tiles_take_one_each
    bool leaves_slots = false;                  // small_tiles_leave_slots_empty
};

// The share of `sms` SMs' two slots each that rung 9's 64 x 64 tiles of `p` fill: 192 tiles on
// 132 SMs -> 0.73.
double small_tile_slots_filled(const GemmProblem& p, int sms) {
    return static_cast<double>(rung9_tiles(p, Rung9Tile::kSmall)) /
           wave_slots(sms, rung9_tile_shape(Rung9Tile::kSmall).blocks_per_sm);
}

// Whether, over a deep K (>= kSplitKMinK), 64 x 64 tiles outnumber `sms` without filling
// kSmallDeepKMinFill of both slots, so that 64 x 128 tiles (128 x 64 for N <= 64) run instead.
// 128x5472x14816 (172 tiles): yes; 128x8192x8192 (256), 256x3072x1024 (K < 1536): no.
bool small_tiles_leave_slots_empty(const GemmProblem& p, int sms) {
    return p.k >= kSplitKMinK && rung9_tiles(p, Rung9Tile::kSmall) > sms &&
           small_tile_slots_filled(p, sms) < kSmallDeepKMinFill;
}

// Rows tiles of `block_m` compute for M rows: 144 in 64 -> 192.
std::int64_t rows_computed(std::int64_t m, int block_m) {
    return tiles_covering(m, block_m) * block_m;
}

// The tile the rows M needs pick for M of 129-256 over a deep K (kPastSquareMinTiles,
// kPastSquareDeepMinK): 64 x 128 where they compute fewer rows than 128 x 128 ones, 128 x 128
// where they do not and K >= kPastSquareDeepMinK; nullopt elsewhere. 144x5936x13776 -> 64 x 128
// (192 rows, not 256); 208x3536x14896 -> 128 x 128; 208x4096x4096 -> nullopt.
std::optional<Rung9Tile> tile_by_rows(const GemmProblem& p) {
    const Rung9TileShape square = rung9_tile_shape(Rung9Tile::kSquare);
    const Rung9TileShape few = rung9_tile_shape(Rung9Tile::kFewRows);
    if (p.k < kSplitKMinK || p.m <= square.block_m || p.m > kSmallTileSplitMaxM ||
        p.n <= rung9_tile_shape(Rung9Tile::kNarrowN).block_n ||
        rung9_tiles(p, Rung9Tile::kSquare) < kPastSquareMinTiles) {
        return std::nullopt;
    }
    if (rows_computed(p.m, few.block_m) < rows_computed(p.m, square.block_m)) {
        return Rung9Tile::kFewRows;
    }
    if (p.k >= kPastSquareDeepMinK) return Rung9Tile::kSquare;
    return std::nullopt;
}

// Rung 9's tile for the padded problem `p` on `sms` SMs (Rung9Tile) where tile_by_rows picks
// none, given `facts`. Where its `rule` holds: 64 x 128 for M <= 64 over at least
// kFewRowsMinTiles of them (N > 64) but where `full_rows` or `unsplit_rows`; over a deep K where
// 64 x 64 tiles outnumber the SMs without filling both slots (kSmallDeepKMinFill), 64 x 128 (128 x
// 64 for N <= 64); 128 x 64 where `narrow_one_each`; else 64 x 64, deep where its tiles take one
// wave unsplit. Elsewhere 128 x 64 where N <= 64, 64 x 128 where M <= 64 or where they take one
// wave and 128 x 128 tiles more (`one_wave`), else 128 x 128.
Rung9Tile rung9_tile(const GemmProblem& p, int sms, const Rung9TileFacts& facts) {
    const bool narrow_n = p.n <= rung9_tile_shape(Rung9Tile::kNarrowN).block_n;
    const bool few_rows = p.m <= rung9_tile_shape(Rung9Tile::kFewRows).block_m;
    const Rung9Tile narrow_side = narrow_n ? Rung9Tile::kNarrowN : Rung9Tile::kFewRows;
    if (facts.rule == SmallTileRule::kNone) {
        if (narrow_n || few_rows) return narrow_side;
        return facts.one_wave ? Rung9Tile::kFewRows : Rung9Tile::kSquare;
    }
    if (few_rows_over_wide_tiles(p) && !facts.full_rows && !facts.unsplit_rows) {
        return Rung9Tile::kFewRows;
    }
    if (facts.leaves_slots) return narrow_side;
    const std::int64_t small_tiles = rung9_tiles(p, Rung9Tile::kSmall);
    if (facts.narrow_one_each) return Rung9Tile::kNarrowN;
    // Deep: one wave over a K too short for two CTAs an SM to need splitting.
    const bool deep = small_tiles <= sms && p.k < kSplitKMinK &&
                      splits_for(p.k, small_tiles, sms,
                                 rung9_tile_shape(Rung9Tile::kSmallDeep).blocks_per_sm) == 1;
    return deep ? Rung9Tile::kSmallDeep : Rung9Tile::kSmall;
}

// Whether the 128 x 128 or 128 x 64 `tile` of the padded problem `p` on `sms` SMs would split K
// into ranges shallower than kSquareSplitMinRange where 64 x 64 tiles number at most `sms`, so
// that those run instead; `splits` is set to the larger tile's ranges. 1152x128x1600: yes (5
// ranges of 320); 2688x320x10944 (2 of 5504), 11056x80x2992 (unsplit): no.
bool shallow_ranges_take_small_tiles(const GemmProblem& p, int sms, Rung9Tile tile, int* splits) {
    if (tile != Rung9Tile::kSquare && tile != Rung9Tile::kNarrowN) return false;
    const Rung9TileShape shape = rung9_tile_shape(tile);
    *splits = splits_for(p.k, rung9_tiles(p, tile), sms, shape.blocks_per_sm);
    return *splits >= 2 && split_k_depth(p.k, *splits) < kSquareSplitMinRange &&
           rung9_tiles(p, Rung9Tile::kSmall) <= sms;
}

// Rung 9's tile for the padded problem `p` on `sms` SMs: tile_by_rows's where it picks one, else
// rung9_tile's, with why where it is not the shape's own: the rows ("M = 144 computes 192 rows in
// them, 256 in 128 x 128 ones, over K >= 1536"), 64 x 64 tiles by their small_tile_rule ("128 x
// 128 ones would fill <= 50 % of 132 SMs", and ", M = 48 > 32 over 16 tiles of 64 x 128 <= 24"
// where full_rows_take_small_tiles), 64 x 128 ones where they fit one wave ("they fit one wave of
// 264 CTAs (2 per SM on 132 SMs), 128 x 128 ones take 2 rounds"); "" otherwise. Rung 14 works it
// out once per shape, each rule once.
struct Rung9TilePick {
    Rung9Tile tile = Rung9Tile::kSquare;
    std::string why;
    bool unsplit = false;  // K not split whatever splits_for says (kNarrowSideSplitMinK)
};

Rung9TilePick rung9_tile_pick(const GemmProblem& p, int sms) {
    Rung9TilePick pick;
    if (const std::optional<Rung9Tile> by_rows = tile_by_rows(p)) {
        pick.tile = *by_rows;
        const bool square = pick.tile == Rung9Tile::kSquare;
        const Rung9TileShape other =
            rung9_tile_shape(square ? Rung9Tile::kFewRows : Rung9Tile::kSquare);
        const std::int64_t rows = rows_computed(p.m, rung9_tile_shape(pick.tile).block_m);
        const std::int64_t other_rows = rows_computed(p.m, other.block_m);
        pick.why = common::format_text(
            "M = %lld computes %lld rows in them, %s in %d x %d ones, over K >= %lld",
            (long long)p.m, (long long)rows,
            rows == other_rows ? "as many" : std::to_string(other_rows).c_str(), other.block_m,
            other.block_n, (long long)(square ? kPastSquareDeepMinK : kSplitKMinK));
        return pick;
    }
    Rung9TileFacts facts;
    facts.rule = small_tile_rule(p, sms);
    facts.one_wave = few_rows_tiles_take_one_wave(p, sms);
    facts.full_rows = full_rows_take_small_tiles(p);
    facts.unsplit_rows = few_rows_take_small_tiles_unsplit(p, sms);
    facts.narrow_one_each = narrow_tiles_take_one_each(p, sms);
    facts.leaves_slots = small_tiles_leave_slots_empty(p, sms);
    pick.tile = rung9_tile(p, sms, facts);
    // M and N past 64: rung9_tile's 64 x 128 tiles for 64 x 64 ones that leave slots empty.
    const Rung9TileShape few = rung9_tile_shape(Rung9Tile::kFewRows);
    if (facts.rule != SmallTileRule::kNone && facts.leaves_slots && p.m > few.block_m &&
        p.n > rung9_tile_shape(Rung9Tile::kNarrowN).block_n && p.k < kNarrowSideSplitMinK) {
        pick.unsplit = true;
        pick.why = common::format_text(
            "%lld of 64 x 64 would fill %.0f %% of %s, over K = %lld < %lld: unsplit",
            (long long)rung9_tiles(p, Rung9Tile::kSmall), 100 * small_tile_slots_filled(p, sms),
            wave_slots_text(sms, rung9_tile_shape(Rung9Tile::kSmall).blocks_per_sm).c_str(),
            (long long)p.k, (long long)kNarrowSideSplitMinK);
        return pick;
    }
    if (int splits = 0; shallow_ranges_take_small_tiles(p, sms, pick.tile, &splits)) {
        const Rung9TileShape larger = rung9_tile_shape(pick.tile);
        pick.tile = Rung9Tile::kSmall;
        pick.why = common::format_text(
            "%d x %d ones would split K %d ways, into ranges of %lld < %lld", larger.block_m,
            larger.block_n, splits, (long long)split_k_depth(p.k, splits),
            (long long)kSquareSplitMinRange);
    } else if (pick.tile == Rung9Tile::kSmall || pick.tile == Rung9Tile::kSmallDeep) {
        pick.why = small_tile_rule_text(facts.rule, sms);
        if (facts.full_rows) {
            pick.why += common::format_text(", M = %lld > %lld over %lld tiles of 64 x 128 <= %lld",
                                            (long long)p.m, (long long)kFewRowsHalfTileMaxM,
                                            (long long)rung9_tiles(p, Rung9Tile::kFewRows),
                                            (long long)kFewRowsFullTileMaxTiles);
        }
        if (facts.unsplit_rows && facts.rule == SmallTileRule::kFewSquareTiles) {
            pick.why +=
                common::format_text(", M = %lld over K = %lld < %lld: %lld of them <= %d SMs",
                                    (long long)p.m, (long long)p.k, (long long)kSplitKMinK,
                                    (long long)rung9_tiles(p, Rung9Tile::kSmall), sms);
        }
    } else if (pick.tile == Rung9Tile::kNarrowN && facts.rule != SmallTileRule::kNone &&
               facts.narrow_one_each) {
        pick.why = common::format_text(
            "%lld of them, at most one CTA an SM on %d SMs; %lld of 64 x 64 would put two on some",
            (long long)rung9_tiles(p, Rung9Tile::kNarrowN), sms,
            (long long)rung9_tiles(p, Rung9Tile::kSmall));
    } else if (pick.tile == Rung9Tile::kFewRows && facts.one_wave &&
               p.m > rung9_tile_shape(Rung9Tile::kFewRows).block_m) {
        const Rung9TileShape square = rung9_tile_shape(Rung9Tile::kSquare);
        const std::int64_t rounds = square_rounds(p, sms);
        pick.why = common::format_text(
            "they fit one wave of %s, %d x %d ones take %s",
            wave_slots_text(sms, rung9_tile_shape(pick.tile).blocks_per_sm).c_str(), square.block_m,
            square.block_n, common::count_text(rounds, "round").c_str());
        if (rounds == 1) {
            pick.why += common::format_text(" over K = %lld < %lld", (long long)p.k,
                                            (long long)kOneRoundFewRowsMaxK);
        }
    }
    return pick;
}

// The short-K GEMM's tiles of `problem`: one CTA each.
std::int64_t short_k_tiles(const GemmProblem& problem) {
    return tiles_covering(problem.m, ShortKConfig::kBlockM) *
           tiles_covering(problem.n, ShortKConfig::kBlockN);
}

// The short-K GEMM on `problem` as it is.
DispatchChoice short_k_choice(const GemmProblem& problem) {
    DispatchChoice choice;
    choice.config = DispatchConfig::kShortK;
    choice.padded = problem;
    const std::int64_t ctas = short_k_tiles(problem);
    const std::string k_bound =
        problem.k <= kShortKDispatchMaxK
            ? common::format_text("K = %lld <= %lld", (long long)problem.k,
                                  (long long)kShortKDispatchMaxK)
            : common::format_text("odd, K = %lld <= %lld", (long long)problem.k,
                                  (long long)kShortKOddNMaxK);
    choice.reason = common::format_text(
        "short-K GEMM, one CTA per %d x %d tile, %s: N = %lld, %s read as they are, no padded "
        "copies",
        ShortKConfig::kBlockM, ShortKConfig::kBlockN, common::count_text(ctas, "CTA").c_str(),
        (long long)problem.n, k_bound.c_str());
    return choice;
}

// "308 tiles (128 x 256)": rung 11's tiles of `w`.
std::string rung11_tiles(const PersistentWaves& w) {
    return common::count_text(w.tiles, "tile") +
           common::format_text(" (%d x %d)", w.tile.block_m, w.tile.block_n);
}

// Whether rung 9's 128 x 128 tiles beat rung 11's (`w`) on the padded problem `p`, by the
// kRung9OverRung11* bounds: "" where they do not, else why not rung 11 (6448x208x9136: "rung
// 11's 102 tiles (128 x 192) give the busiest SM 24576 outputs in 1 round, rung 9's 128 x 128
// ones 16384 in 1 (67 %)").
std::string rung9_outruns_rung11(const GemmProblem& p, const PersistentWaves& w, int sms) {
    const Rung9TileShape square = rung9_tile_shape(Rung9Tile::kSquare);
    const std::int64_t rounds = square_rounds(p, sms);
    const std::int64_t rung11_outputs = w.rounds * w.tile.block_m * w.tile.block_n;
    const std::int64_t rung9_outputs = rounds * square.block_m * square.block_n;
    const double share = static_cast<double>(rung9_outputs) / rung11_outputs;
    if (p.k < kRung9OverRung11MinK || rounds > kRung9OverRung11MaxRounds ||
        share > kRung9OverRung11MaxShare) {
        return "";
    }
    return common::format_text(
        "rung 11's %s give the busiest SM %lld outputs in %s, rung 9's %d x %d ones %lld in %lld "
        "(%.0f %%)",
        rung11_tiles(w).c_str(), (long long)rung11_outputs,
        common::count_text(w.rounds, "round").c_str(), square.block_m, square.block_n,
        (long long)rung9_outputs, (long long)rounds, 100 * share);
}

// Whether rung 11's tiles (`w`), in one round, beat rung 9's (`rung9`, its tile) on the padded
// problem `p` below kPersistentMinWave: rung 9 would run 128 x 128 tiles in more than one round.
// "" where they do not, else why not rung 9 (2944x768x2304: "rung 9's 138 tiles (128 x 128)
// would take 2 rounds").
std::string rung11_outruns_rung9(const GemmProblem& p, const PersistentWaves& w, int sms,
                                 Rung9Tile rung9) {
    const std::int64_t rounds = square_rounds(p, sms);
    if (w.rounds != 1 || rounds < 2 || rung9 != Rung9Tile::kSquare) return "";
    const Rung9TileShape square = rung9_tile_shape(Rung9Tile::kSquare);
    return common::format_text(
        "rung 9's %s (%d x %d) would take %s",
        common::count_text(rung9_tiles(p, Rung9Tile::kSquare), "tile").c_str(), square.block_m,
        square.block_n, common::count_text(rounds, "round").c_str());
}

// Rung 11 on the padded problem `p`, its tiles filling the SMs as `w` says, or rung 12's stream-K
// where its last rounds are badly filled over a deep K. The reason without the padding.
DispatchChoice rung11_choice(const GemmProblem& p, const PersistentWaves& w) {
    DispatchChoice choice;
    if (w.rounds >= kStreamKMinRounds && w.filled() < kStreamKMaxFilled && p.k >= kStreamKMinK) {
        choice.config = DispatchConfig::kStreamK;
        choice.reason = common::format_text(
            "rung 12 stream-K: rung 11's %s = %.2f waves on %d SMs, %s %.0f %% filled, K = %lld "
            ">= %lld",
            rung11_tiles(w).c_str(), w.waves(), w.ctas,
            common::count_text(w.rounds, "round").c_str(), 100 * w.filled(), (long long)p.k,
            (long long)kStreamKMinK);
        return choice;
    }
    choice.config = DispatchConfig::kPersistent;
    choice.reason = common::format_text(
        "rung 11 persistent: %s = %.2f waves on %d SMs, %s %.0f %% filled", rung11_tiles(w).c_str(),
        w.waves(), w.ctas, common::count_text(w.rounds, "round").c_str(), 100 * w.filled());
    return choice;
}

// Rung 9's kernel on the padded problem `p` in the tile `rung9` picks, split-K or unsplit,
// `not_rung11` saying why rung 11 does not run. The reason without the padding.
DispatchChoice rung9_kernel_choice(const GemmProblem& p, int sms, const Rung9TilePick& rung9,
                                   const std::string& not_rung11) {
    DispatchChoice choice;
    const Rung9Tile tile = rung9.tile;
    const Rung9TileShape shape = rung9_tile_shape(tile);
    const std::int64_t tiles = rung9_tiles(p, tile);
    const int splits = rung9.unsplit ? 1 : splits_for(p.k, tiles, sms, shape.blocks_per_sm);
    choice.tile = tile;
    const std::string tile_reason =
        rung9.why.empty()
            ? ""
            : common::format_text("; %d x %d tiles (%d stages, %s an SM): %s", shape.block_m,
                                  shape.block_n, shape.stages,
                                  common::count_text(shape.blocks_per_sm, "CTA").c_str(),
                                  rung9.why.c_str());
    // Why K is split: deep, or a few tiles over a shorter K.
    const std::string split_rule =
        p.k >= kSplitKMinK
            ? common::format_text("K = %lld >= %lld", (long long)p.k, (long long)kSplitKMinK)
            : common::format_text(
                  "%s <= %lld over K = %lld >= %lld", common::count_text(tiles, "tile").c_str(),
                  (long long)kShortSplitMaxTiles, (long long)p.k, (long long)kShortSplitMinK);
    if (splits >= 2) {
        choice.config = DispatchConfig::kSplitK;
        choice.splits = splits;
        choice.reason =
            common::format_text("split-K %d, %d x %d tiles, %lld CTAs of K %lld: %s, %s", splits,
                                shape.block_m, shape.block_n, (long long)(tiles * splits),
                                (long long)split_k_depth(p.k, splits), not_rung11.c_str(),
                                split_rule.c_str()) +
            tile_reason;
        return choice;
    }
    std::string unsplit;
    if (p.k < kShortSplitMinK) {
        unsplit =
            common::format_text("K = %lld < %lld", (long long)p.k, (long long)kShortSplitMinK);
    } else if (p.k < kSplitKMinK) {
        unsplit = common::format_text(
            "K = %lld < %lld, %s > %lld", (long long)p.k, (long long)kSplitKMinK,
            common::count_text(tiles, "tile").c_str(), (long long)kShortSplitMaxTiles);
    } else if (rung9.unsplit) {
        unsplit = common::format_text("K = %lld >= %lld", (long long)p.k, (long long)kSplitKMinK);
    } else {
        unsplit = common::format_text("%s: more than half of %s, unsplit",
                                      common::count_text(tiles, "tile").c_str(),
                                      wave_slots_text(sms, shape.blocks_per_sm).c_str());
    }
    choice.config = DispatchConfig::kTmaTiles;
    choice.reason =
        common::format_text("rung 9, one CTA per %d x %d tile, %s: %s, %s", shape.block_m,
                            shape.block_n, common::count_text(tiles, "CTA").c_str(),
                            not_rung11.c_str(), unsplit.c_str()) +
        tile_reason;
    return choice;
}

}  // namespace

std::string padding_reason(const GemmProblem& problem, const GemmProblem& padded) {
    std::string text;
    if (padded.n != problem.n) {
        text += common::format_text("N = %lld -> %lld", (long long)problem.n, (long long)padded.n);
    }
    if (padded.k != problem.k) {
        if (!text.empty()) text += ", ";
        text += common::format_text("K = %lld -> %lld", (long long)problem.k, (long long)padded.k);
    }
    return text.empty() ? text : text + " (zero-padded copies): ";
}

GemmProblem padded_problem(const GemmProblem& problem) {
    return {problem.m, round_up(problem.n, 8), round_up(problem.k, 8)};
}

DispatchChoice choose_dispatch(const GemmProblem& problem, int sms) {
    // N or K that TMA cannot stride over a short K (or an odd N over up to six K tiles): the
    // short-K GEMM reads them as they are, where a padded copy would cost a launch as long as
    // the GEMM (kernels/short_k_gemm.h), but for many tiles of C that rung 11's TMA store can
    // write in place, and for fewer tiles than half the SMs.
    const std::int64_t tiles = short_k_tiles(problem);
    const bool short_k =
        needs_padding(problem) &&
        (problem.k <= kShortKDispatchMaxK || (problem.n % 2 == 1 && problem.k <= kShortKOddNMaxK));
    // Only where the padded path is rung 11 (N > kRung9MaxN), whose TMA store is the faster one.
    const bool short_k_stores_too_slow =
        problem.n % 4 == 0 && problem.n > kRung9MaxN && tiles >= kShortKMaxTilesInPlace;
    const bool short_k_very_few = tiles * kShortKSmsPerVeryFewTile <= sms;
    const bool short_k_too_few = problem.k > ShortKConfig::kBlockK &&
                                 tiles * kShortKSmsPerFewTile < sms &&
                                 (short_k_very_few || problem.k > kShortKFewTilesMinK);
    if (short_k && !short_k_stores_too_slow && !short_k_too_few) return short_k_choice(problem);
    const GemmProblem p = padded_problem(problem);
    const int clusters = std::max(1, sms / kPersistentWideTile.cluster_m);
    const PersistentWaves w = persistent_waves(p, persistent_tile_for(p, clusters), clusters);
    const bool fills_the_sms = static_cast<double>(w.tiles) / sms >= kPersistentMinWave;
    const bool short_k_copy_back = problem.n % 4 != 0 && p.k < kCopyBackMinK;
    const bool rung11_fits = p.n > kRung9MaxN && !short_k_copy_back;
    const std::string rung9_lighter =
        fills_the_sms && p.n > kRung9MaxN ? rung9_outruns_rung11(p, w, sms) : "";
    const Rung9TilePick rung9 = rung9_tile_pick(p, sms);
    const std::string rung9_rounds =
        !fills_the_sms && rung11_fits ? rung11_outruns_rung9(p, w, sms, rung9.tile) : "";
    DispatchChoice choice;
    if (fills_the_sms && rung11_fits && rung9_lighter.empty()) {
        choice = rung11_choice(p, w);
    } else if (!rung9_rounds.empty()) {
        choice = rung11_choice(p, w);
        choice.reason += ": " + rung9_rounds;
    } else {
        // Why not rung 11: its tiles are too wide for N, rung 9's leave the SMs less to do, its
        // C would be copied back over a short K, or its tiles are too few for the SMs.
        std::string not_rung11;
        if (p.n <= kRung9MaxN) {
            not_rung11 = common::format_text(
                "N = %lld <= %lld, narrower than rung 11's %d x %d tiles", (long long)p.n,
                (long long)kRung9MaxN, w.tile.block_m, w.tile.block_n);
        } else if (!rung9_lighter.empty()) {
            not_rung11 = rung9_lighter;
        } else if (fills_the_sms) {
            not_rung11 = common::format_text(
                "rung 11's TMA store would copy C back (N = %lld, no multiple of 4), too dear at "
                "K = %lld < %lld",
                (long long)problem.n, (long long)p.k, (long long)kCopyBackMinK);
        } else {
            not_rung11 =
                common::format_text("rung 11's %s: < %.0f %% of a wave on %d SMs",
                                    rung11_tiles(w).c_str(), 100 * kPersistentMinWave, sms);
        }
        choice = rung9_kernel_choice(p, sms, rung9, not_rung11);
    }
    choice.padded = p;
    choice.reason = padding_reason(problem, p) + choice.reason;
    if (short_k && short_k_stores_too_slow) {
        choice.reason += common::format_text(
            "; not the short-K GEMM: its %lld tiles >= %lld, C stored faster by TMA in place",
            (long long)tiles, (long long)kShortKMaxTilesInPlace);
    } else if (short_k) {
        const std::string few =
            short_k_very_few
                ? common::format_text("at most one per %d of %d SMs", kShortKSmsPerVeryFewTile, sms)
                : common::format_text("fewer than one per %d of %d SMs, over K = %lld > %lld",
                                      kShortKSmsPerFewTile, sms, (long long)problem.k,
                                      (long long)kShortKFewTilesMinK);
        choice.reason +=
            "; not the short-K GEMM: its " + common::count_text(tiles, "tile") + ", " + few;
    }
    return choice;
}

std::string dispatch_config_id(DispatchConfig config, Precision precision) {
    const std::string suffix = std::string(".") + precision_name(precision);
    switch (config) {
        case DispatchConfig::kTmaTiles:
            return "wgmma_tma" + suffix;
        case DispatchConfig::kPersistent:
            return "wgmma_persistent" + suffix;
        case DispatchConfig::kStreamK:
            return "wgmma_streamk" + suffix;
        case DispatchConfig::kSplitK:
            return "split_k" + suffix;
        case DispatchConfig::kShortK:
            return "short_k" + suffix;
        case DispatchConfig::kFp8Tile256:
            return "wgmma_fp8.e4m3";
        case DispatchConfig::kFp8Tile192:
            return "wgmma_fp8_192.e4m3";
        case DispatchConfig::kFp8Tile128:
            return "wgmma_fp8_128.e4m3";
    }
    return "";
}

}  // namespace tclens::kernels
