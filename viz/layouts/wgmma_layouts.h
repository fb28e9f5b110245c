// wgmma register-fragment layouts (PTX ISA, "Matrix Fragments for wgmma.mma_async.m64nNk16"):
// wgmma.mma_async.sync.aligned.m64nNk16.f32.f16.f16 with A from registers, N = 8..256 step 8.
//
// threads = 128: a lane is the thread's index in the warpgroup, and warp w = lane / 32 holds
// rows 16w..16w+15 of A and of D.
// Operands: A (64 x 16, four .f16x2 registers) and D (64 x N, N/2 .f32 registers). There is no
// B layout, because B is always read from shared memory through a matrix descriptor, and no C
// layout, because wgmma has no separate C operand: it accumulates into D in place
// (D = A * B + D), so a C entry would only repeat D.
//
// IDs: wgmma.m64n8k16.f16, wgmma.m64n16k16.f16, ..., wgmma.m64n256k16.f16.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "viz/fragment_layout.h"

namespace tclens::viz {

// The wgmma IDs above, by increasing N.
std::vector<std::string> wgmma_layout_ids();

// "wgmma.m64n96k16.f16" -> 96; 0 if `id` is not a wgmma ID.
int wgmma_layout_n(std::string_view id);

// 96 -> "wgmma.m64n96k16.f16" (n a multiple of 8 in 8..256).
std::string wgmma_layout_id(int n);

// The layout for a wgmma ID, or nullopt if `id` is not one.
std::optional<FragmentLayout> wgmma_layout(std::string_view id);

}  // namespace tclens::viz
