#pragma once
// Rung 14's rules for e4m3 inputs ("dispatch.e4m3", kernels/14_dispatch.cpp): which configuration
// runs (M, N, K) on `sms` SMs, and why, in one line. Plain C++ like the 16-bit rules
// (kernels/dispatch_rules.h), whose DispatchChoice it fills. The family:
//   kTmaTiles,  rung 9's kernel (kernels/09_wgmma_tma.cu) with e4m3 inputs, in any of its tiles
//   kSplitK     (Rung9Tile), K split or not: the 16-bit family's own, k32 wgmma on B^T;
//   kFp8Tile256 rung 13 itself (kernels/13_wgmma_fp8.h): 128 x 256 tiles, persistent;
//   kFp8Tile192 128 x 192 tiles (rung 11's other tile);
//   kFp8Tile128 128 x 128 tiles: twice rung 13's tiles, of half the work each;
//   kFp8SplitK  the 128 x 128 configuration with K cut into ranges (blockIdx.y), their f32
//               partial C summed in range order by a second kernel.
// The persistent ones run clusters of 2 along M. Shapes whose N is not a multiple of 4 or K of
// 16 run on zero-padded copies of A and B^T (kernels/14_dispatch.cu).
//
// First the 16-bit rules, asked of the problem's 16-bit equivalent (sixteen_bit_equivalent: K
// halved): an e4m3 K tile of 128 is one 128-byte row of every operand row, as a 16-bit one of
// 64, and its four k32 wgmma take as long as that tile's four k16 ones, so the loads, the
// multiplies, the stores and the waves are the same. Where they choose rung 9's kernel (its
// tile, its split: the same ranges of K tiles), that runs with e4m3 inputs. Else the tile:
// rung 11's rule (kernels/wave_choice.h) over three tiles instead of two: the one whose
// rounds load the fewest operand rows per K step, rounds x (128 + block_n), ties to the larger.
// Where even 128 x 128 tiles leave at least half of the clusters idle for one round, K is split
// so that the ranges fill the clusters, each range at least kFp8MinRangeKTiles K tiles deep
// (so M < 128 x sms there: the ranges' partial C rows stay far inside 32-bit coordinates).
// On 132 SMs: 4096^3, 2048^3 -> 256; 3072^3, 1024 x 3072 x 3072 -> 192; 1024^3 -> rung 9's
// kernel in 64 x 64 tiles (as 16-bit 1024x1024x512).
//
// What measured what: the tile rule is rung 11's, measured with 16-bit inputs (an e4m3 K tile
// is the same bytes per row, so the loads weigh the same against the multiply-adds); the shapes
// it moves off rung 13 are those issue 34 measured below 95 % of cuBLASLt on an H200 (1024^3
// 56 %, 3072^3 78 %, lab 6's M <= 2048 40-81 %, M = 16 and 128 at 8192^2 51-53 %), and those
// where rung 13 reached 96-101 % (2048^3, 4096^3, 8192^3) stay on it. kFp8MinRangeKTiles is a
// first cut, not yet measured: scripts/gpu_dispatch.sh's step fp8 times the choices.

#include <cstdint>

#include "kernels/dispatch_rules.h"
#include "kernels/gemm.h"
#include "kernels/wave_choice.h"

namespace tclens::kernels {

constexpr PersistentTile kFp8Tile128{128, 128, 2};  // wgmma_fp8::Fp8Shape128's
constexpr int kFp8MinRangeKTiles = 8;  // K tiles of 128 (kTmaFp8BoxElems): ranges >= 1024 deep
constexpr int kFp8MaxSplits = 16;

// N rounded up to a multiple of 4 and K to one of 16 (M as it is), what rung 13's TMA strides
// take: 17x33x129 -> 17x36x144.
GemmProblem fp8_padded_problem(const GemmProblem& problem);

// K elements of each of `splits` ranges of whole K tiles, as equal as that allows: (3072, 2) ->
// 1536; (7696, 7) -> 1152 (61 K tiles, 9 per range).
std::int64_t fp8_split_depth(std::int64_t k, int splits);

// The 16-bit problem an e4m3 `padded` one (fp8_padded_problem) costs as: M x N x K / 2, N rounded
// up to a multiple of 8 as the 16-bit rules would pad it. 1024^3 -> 1024x1024x512; 17x36x144 ->
// 17x40x72.
GemmProblem sixteen_bit_equivalent(const GemmProblem& padded);

// True for the FP8 configurations that are not a registered rung (kFp8Tile192, kFp8Tile128,
// kFp8SplitK): their descriptor is wgmma_fp8_tile_descriptor (kernels/13_wgmma_fp8.h), their
// launch fp8_configuration_launch (kernels/fp8_dispatch.cuh).
inline bool is_fp8_tile_configuration(DispatchConfig config) {
    return config == DispatchConfig::kFp8Tile192 || config == DispatchConfig::kFp8Tile128 ||
           config == DispatchConfig::kFp8SplitK;
}

// The configuration for `problem` (M, N, K >= 1) on `sms` (>= 1) SMs; `splits` is the number of
// non-empty K ranges (>= 2) for kFp8SplitK, as the 16-bit rules say for kSplitK, else 1.
DispatchChoice choose_fp8_dispatch(const GemmProblem& problem, int sms);

}  // namespace tclens::kernels
