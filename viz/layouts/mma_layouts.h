// mma.sync fragment layouts (PTX ISA, "Matrix Fragments for mma.m8n8k4 / m8n8k16 / m8n8k32 /
// m16n8k4 / m16n8k8 / m16n8k16 / m16n8k32 / m16n8k64 / m16n8k256"), .row.col, one warp of 32
// lanes, operands A, B, C and D (C == D).
//
// IDs (f32 accumulators unless said otherwise):
//   mma.m16n8k4.tf32, mma.m16n8k8.tf32, mma.m16n8k8.f16, mma.m16n8k16.f16, mma.m16n8k16.bf16,
//   mma.m16n8k32.s8 (s32), mma.m16n8k32.e4m3, mma.m8n8k4.f64 (f64 everywhere, 64-bit registers),
//   mma.m16n8k8.bf16, mma.m16n8k16.f16.f16acc (f16 C/D, two per 32-bit register),
//   mma.m16n8k32.e5m2, mma.m16n8k32.e4m3.f16acc, mma.m16n8k32.e5m2.f16acc,
//   mma.m16n8k64.s4, mma.m16n8k64.u4 (s32), mma.m16n8k256.b1.and, mma.m16n8k256.b1.xor (s32;
//   .and.popc / .xor.popc: the same fragments), mma.m8n8k16.s8, mma.m8n8k32.s4 (s32).
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

// Warp-level fragment coordinates for lane 0..31. wgmma and mma.sp reuse them: each warp of a
// warpgroup holds a 16-row slice laid out as mma.sync does, and the compressed A of mma.sp is
// laid out as the dense A of half its K.
//   m: M of the shape (8 or 16); elem_bits: multiplicand element width (1, 4, 8, 16, 32 or 64).
MatrixCoord mma_a_coord(int m, int elem_bits, int lane, int reg, int sub);
MatrixCoord mma_b_coord(int elem_bits, int lane, int reg, int sub);
// C/D with N = 8: `element` is the accumulator's index in the PTX list (c0, c1, ...), that is
// reg * elements_per_register + sub (two f16 per register, one f32/s32/f64).
MatrixCoord mma_c_coord(int lane, int element);

}  // namespace tclens::viz
