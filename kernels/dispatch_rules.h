#pragma once
// Rung 14's rules (kernels/14_dispatch.cpp): which configuration runs (M, N, K) on a GPU of
// `sms` SMs, and why, in one line. Plain C++: `tclens kernels --mnk`, the tile map and the unit
// tests ask it without a GPU; the launch asks it with the GPU's SM count.
//
// The family, all built from the ladder's parts (every one verified like a rung):
//   kTmaTiles   rung 9's kernel: one CTA per tile, TMA + wgmma, no persistence overhead, in
//               rung 9's 128 x 128 tile or 128 x 64 (N <= 64) or 64 x 128 (M <= 64) or 64 x 64
//               (few 128 x 128 tiles, or ones K would be split shallowly over: dispatch_rules.cpp)
//               (Rung9Tile, kernels/09_wgmma_tma.h);
//   kPersistent rung 11: persistent CTAs, 128 x 256 or 128 x 192 tiles (kernels/wave_choice.h);
//   kStreamK    rung 12: rung 11's tiles with the last waves' K loops spread over every SM;
//   kSplitK     kernels/split_k_gemm.h: kTmaTiles' kernel and tiles, K cut into ranges summed
//               in f32;
//   kShortK     kernels/short_k_gemm.h: for N or K not a multiple of 8 with K <= 128, or an odd
//               N with K <= 384 (but for many tiles whose C rung 11 can store in place, and past
//               one K tile for few tiles: kernels/dispatch_rules.cpp), A and B read by the CTA's
//               threads as they are, rung 9's wgmma, no copies.
// The others run on copies of A and B zero-padded to N and K multiples of 8 when the shape has
// other N or K (TMA strides rows in 16-byte pieces), C in place where they store from registers,
// else into padded rows copied back (kernels/14_dispatch.cu).
//
// The thresholds come from the H200 sweep of 2026-11-29 (tests/gpu/results/
// 2026-11-29_h200_session17: 133 shapes, rungs 7-12, --sweep 200 --seed 1); dispatch_rules.cpp
// cites the measurement next to each.

#include <string>

#include "kernels/gemm.h"
#include "kernels/split_k_gemm.h"

namespace tclens::kernels {

// The 16-bit family above, then the FP8 one (kernels/fp8_dispatch_rules.h).
enum class DispatchConfig {
    kTmaTiles,
    kPersistent,
    kStreamK,
    kSplitK,
    kShortK,
    kFp8Tile256,
    kFp8Tile192,
    kFp8Tile128
};

struct DispatchChoice {
    DispatchConfig config = DispatchConfig::kTmaTiles;
    // What the configuration runs: N and K rounded up to multiples of 8 (padded_problem), for
    // FP8 N to 4 and K to 16 (fp8_padded_problem); kShortK: the problem as it is.
    GemmProblem padded;
    // K ranges: kSplitK 1..kSplitKMaxSplits (split_k_ranges).
    int splits = 1;
    Rung9Tile tile = Rung9Tile::kSquare;  // kTmaTiles' and kSplitK's block tile
    std::string reason;  // one line, e.g. "split-K 16, 128 x 128 tiles, 64 CTAs of K 512: ..."
};

// The start of a reason line where `padded` differs from `problem`, "N = 17 -> 24, K = 129 ->
// 136 (zero-padded copies): ", else "".
std::string padding_reason(const GemmProblem& problem, const GemmProblem& padded);

// N and K rounded up to multiples of 8 (M as it is): 17x33x129 -> 17x40x136.
GemmProblem padded_problem(const GemmProblem& problem);
inline bool needs_padding(const GemmProblem& problem) {
    return !same_problem(problem, padded_problem(problem));
}

// The configuration for `problem` (M, N, K >= 1) on `sms` (>= 1) SMs. Examples on 132 SMs:
// 4096^3 -> kPersistent; 432x16x7696 -> kSplitK, 18 splits of 64 x 64 tiles (128 x 64 ones would
// take 25 of 320); 1344x7104x3200 -> kStreamK; 2016x496x112 -> kTmaTiles in 64 x 64 tiles;
// 2176x496x112 -> kTmaTiles in 64 x 128 tiles (one round of 128 x 128 ones over K < 512);
// 13497x40x936 -> kTmaTiles in 128 x 64 tiles (one CTA an SM, where 64 x 64 ones would not);
// 64x3072x704 -> kTmaTiles in 64 x 64 tiles of 12 stages (M <= 64, unsplit); 8192x64x1024 ->
// kTmaTiles in 64 x 64 tiles of 12 stages; 6448x208x9136 -> kTmaTiles in 128 x 128 tiles (a round
// of them gives an SM two thirds of the outputs one of rung 11's 128 x 192 does); 2944x768x2304 ->
// kPersistent (rung 9's 128 x 128 tiles would take 2 rounds, rung 11's 1); 400x4352x1280 ->
// kTmaTiles in 64 x 128 tiles (one wave of two an SM, where 128 x 128 ones take 2 rounds);
// 144x5936x13776 -> kTmaTiles in 64 x 128 tiles (144 rows in 192, not 256, over a deep K);
// 208x3536x14896 -> kSplitK, 2 ranges of 128 x 128 tiles; 17x33x129 -> kTmaTiles on 17x40x136.
DispatchChoice choose_dispatch(const GemmProblem& problem, int sms);

// The registry id of the rung a configuration runs ("wgmma_persistent.bf16"), or for the
// configurations that are not rungs their own descriptor id ("split_k.bf16", kernels/
// 14_dispatch.h; "wgmma_fp8_128.e4m3", kernels/13_wgmma_fp8.h). The FP8 ones are e4m3's whatever
// `precision` says.
std::string dispatch_config_id(DispatchConfig config, Precision precision);

}  // namespace tclens::kernels
