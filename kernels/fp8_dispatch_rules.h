#pragma once
// Rung 14's rules for e4m3 inputs ("dispatch.e4m3", kernels/14_dispatch.cpp): which configuration
// runs (M, N, K) on `sms` SMs, and why, in one line. Plain C++ like the 16-bit rules
// (kernels/dispatch_rules.h), whose DispatchChoice it fills. The family:
//   kTmaTiles,  rung 9's kernel (kernels/09_wgmma_tma.cu) with e4m3 inputs, in any of its tiles
//   kSplitK     (Rung9Tile), K split into ranges or not: the 16-bit family's own, its wgmma k32
//               on B^T's K-major rows;
//   kFp8Tile256 rung 13 itself (kernels/13_wgmma_fp8.h): 128 x 256 tiles, persistent, clusters
//               of 2 along M;
//   kFp8Tile192 its kernel in 128 x 192 tiles (rung 11's other tile);
//   kFp8Tile128 its kernel in 128 x 128 tiles.
// Shapes whose N is not a multiple of 4 or K of 16 run on zero-padded copies of A and B^T
// (kernels/14_dispatch.cu).
//
// First the 16-bit rules, asked of the problem's 16-bit equivalent (sixteen_bit_equivalent: K
// halved): an e4m3 K tile of 128 is one 128-byte row of every operand row, as a 16-bit one of
// 64, and its four k32 wgmma take as long as that tile's four k16 ones, so the loads, the
// multiplies, the C stores and the waves are those of the equivalent. Where they choose rung 9's
// kernel, it runs with e4m3 inputs in their tile and split (the same ranges of K tiles). Else
// rung 13's kernel, in the tile of rung 11's rule (kernels/wave_choice.h) over three tiles
// instead of two: the one whose rounds load the fewest operand rows per K step, rounds x (128 +
// block_n), ties to the larger. On 132 SMs: 4096^3, 2048^3 -> 256; 3072^3, 1024 x 3072 x 3072 ->
// 192; 2048 x 1024 x 512 -> 128; 1024^3 -> rung 9's kernel in 64 x 64 tiles (1024x1024x512 in
// 16 bits); 64 x 3072 x 3072 -> the same split in 2 (64x3072x1536).
//
// Measured on an H200 against same-run cuBLASLt (tests/gpu/results/2026-12-02_h200_session33,
// call 1, dispatch_candidates e4m3): with rung 9's kernel 1024^3 ran at 100.8 % (73.5 on 128 x
// 128 tiles of rung 13's kernel, the best of them), 512^3 99.7 (71.6), lab 6's M = 16 ... 512
// (N = K = 3072) 84.5, 84.6, 82.0, 68.9, 84.6 (59.1, 64.0, 63.3, 63.2, 73.9 at best on rung 13's
// kernel, its 128 x 128 tiles split in 2), 16 x 8192^2 84.0 (48.1), 128 x 8192^2 96.4 (63.0:
// each cluster's second CTA past M). Rung 13's kernel split into K ranges (blockIdx.y, its f32
// partial C summed by a second kernel) lost to rung 9's kernel on every shape timed and was taken
// out. The tile rule is rung 11's, measured with 16-bit inputs; rung 13 keeps the shapes where it
// reached 96-101 % (2048^3, 4096^3, 8192^3, issue 34).

#include <cstdint>

#include "kernels/dispatch_rules.h"
#include "kernels/gemm.h"
#include "kernels/wave_choice.h"

namespace tclens::kernels {

constexpr PersistentTile kFp8Tile128{128, 128, 2};  // wgmma_fp8::Fp8Shape128's

// N rounded up to a multiple of 4 and K to one of 16 (M as it is), what rung 13's TMA strides
// take: 17x33x129 -> 17x36x144.
GemmProblem fp8_padded_problem(const GemmProblem& problem);

// The 16-bit problem an e4m3 `padded` one (fp8_padded_problem) costs as: M x N x K / 2 as the
// 16-bit rules pad it (padded_problem: N rounded up to a multiple of 8). 1024^3 ->
// 1024x1024x512; 17x36x144 -> 17x40x72.
GemmProblem sixteen_bit_equivalent(const GemmProblem& padded);

// True for the FP8 configurations that are not a registered rung (kFp8Tile192, kFp8Tile128):
// their descriptor is wgmma_fp8_tile_descriptor (kernels/13_wgmma_fp8.h), their launch
// fp8_configuration_launch (kernels/fp8_dispatch.cuh).
inline bool is_fp8_tile_configuration(DispatchConfig config) {
    return config == DispatchConfig::kFp8Tile192 || config == DispatchConfig::kFp8Tile128;
}

// The configuration for `problem` (M, N, K >= 1) on `sms` (>= 1) SMs; `splits` is the number of
// non-empty K ranges for kSplitK (as the 16-bit rules say), else 1.
DispatchChoice choose_fp8_dispatch(const GemmProblem& problem, int sms);

}  // namespace tclens::kernels
