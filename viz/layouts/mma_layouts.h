// mma.sync fragment layouts (PTX ISA, "Matrix Fragments for mma.m8n8k4 / m16n8k4 / m16n8k8 /
// m16n8k16 / m16n8k32"), .row.col, one warp of 32 lanes, operands A, B, C and D (C == D).
//
// IDs: mma.m16n8k4.tf32, mma.m16n8k8.tf32, mma.m16n8k8.f16, mma.m16n8k16.f16,
// mma.m16n8k16.bf16, mma.m16n8k32.s8, mma.m16n8k32.e4m3 (f32 accumulators, s32 for s8) and
// mma.m8n8k4.f64 (f64 everywhere, 64-bit registers).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "viz/fragment_layout.h"

namespace tclens::viz {

// The mma IDs above, in that order.
std::vector<std::string> mma_layout_ids();

// The layout for an mma ID, or nullopt if `id` is not one.
std::optional<FragmentLayout> mma_layout(std::string_view id);

// Warp-level fragment coordinates for lane 0..31. wgmma reuses them: each warp of a warpgroup
// holds a 16-row slice laid out as mma.sync does.
//   m: M of the shape (8 or 16); elem_bits: multiplicand element width (8, 16, 32 or 64).
MatrixCoord mma_a_coord(int m, int elem_bits, int lane, int reg, int sub);
MatrixCoord mma_b_coord(int elem_bits, int lane, int reg, int sub);
MatrixCoord mma_c_coord(int lane, int reg);  // 32- or 64-bit accumulators, N = 8

}  // namespace tclens::viz
