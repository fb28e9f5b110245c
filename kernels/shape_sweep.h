#pragma once
// The shapes of `tclens bench --sweep N --seed S`: drawn, not chosen, so that no kernel can be
// tuned to them. Each side of M x N x K is drawn log-uniformly from [kSweepMinSide,
// kSweepMaxSide]; two shapes in three then round every side to a multiple of 64 or of 16 (one in
// two each); the third keeps at least one side that is a multiple of neither, and one shape in
// thirty makes that side prime. The draw depends only on (count, seed): the same on every machine
// and compiler (its own arithmetic on std::mt19937_64, whose output the standard fixes).
// Example: draw_sweep_shapes(3, 1) -> three shapes; the third (index 2) is the unaligned one.

#include <cstdint>
#include <vector>

#include "kernels/gemm.h"

namespace tclens::kernels {

inline constexpr std::int64_t kSweepMinSide = 16;
inline constexpr std::int64_t kSweepMaxSide = 16384;
inline constexpr int kSweepMaxShapes = 10000;

// Shape i is unaligned when i % 3 == 2, and has a prime side when i % 30 == 29.
// Precondition: 1 <= count <= kSweepMaxShapes.
std::vector<GemmProblem> draw_sweep_shapes(int count, std::uint64_t seed);

// True when `value` is prime (for the tests and the table's notes).
bool is_prime(std::int64_t value);

}  // namespace tclens::kernels
