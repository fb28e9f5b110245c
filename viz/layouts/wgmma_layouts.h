// wgmma register-fragment layouts (PTX ISA, "Register Fragments": "Matrix Fragments for
// wgmma.mma_async.m64nNk16 / m64nNk8 / m64nNk32 / m64nNk256"), A from registers (the RS form):
//   wgmma.mma_async.sync.aligned.m64nNk16.f32.f16.f16         N = 8, 16, ..., 256
//   wgmma.mma_async.sync.aligned.m64nNk8.f32.tf32.tf32        N = 8, 16, ..., 256
//   wgmma.mma_async.sync.aligned.m64nNk32.f32.e4m3.e4m3       N = 8, 16, ..., 256
//   wgmma.mma_async.sync.aligned.m64nNk32.f32.e5m2.e5m2       N = 8, 16, ..., 256
//   wgmma.mma_async.sync.aligned.m64nNk32.s32.s8.s8           N = 8, 16, 24, 32, 48, ..., 256
//   wgmma.mma_async.sync.aligned.m64nNk32.s32.u8.u8           N = 8, 16, 24, 32, 48, ..., 256
//   wgmma.mma_async.sync.aligned.m64nNk256.s32.b1.b1.and.popc N = 8, 16, 24, 32, 48, ..., 256
// (the integer and b1 shapes step by 16 above N = 32, as ptxas accepts them).
//
// threads = 128: a lane is the thread's index in the warpgroup, and warp w = lane / 32 holds
// rows 16w..16w+15 of A and of D, laid out inside the warp as the mma.sync fragment of the same
// K (mma_layouts.h): A in four 32-bit registers, D in N/2 registers of 32-bit accumulators.
// There is no B layout, because B is always read from shared memory through a matrix descriptor
// (wgmma_smem_layouts.h draws that), and no C layout, because wgmma has no separate C operand:
// it accumulates into D in place (D = A * B + D), so a C entry would only repeat D.
//
// IDs: wgmma.m64n<N>k16.f16, wgmma.m64n<N>k8.tf32, wgmma.m64n<N>k32.e4m3,
// wgmma.m64n<N>k32.e5m2, wgmma.m64n<N>k32.s8, wgmma.m64n<N>k32.u8, wgmma.m64n<N>k256.b1, by
// type in that order and by increasing N.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "viz/fragment_layout.h"

namespace tclens::viz {

// The wgmma input types above, in order: "f16", "tf32", "e4m3", "e5m2", "s8", "u8", "b1".
std::vector<std::string> wgmma_layout_types();

// The valid N of `type` in increasing order (empty for an unknown type).
std::vector<int> wgmma_layout_ns(std::string_view type);

// The wgmma IDs above.
std::vector<std::string> wgmma_layout_ids();

// "wgmma.m64n96k16.f16" -> 96; 0 if `id` is not a wgmma register-fragment ID.
int wgmma_layout_n(std::string_view id);

// "wgmma.m64n96k32.e4m3" -> "e4m3"; "" if `id` is not a wgmma register-fragment ID.
std::string wgmma_layout_type(std::string_view id);

// ("e4m3", 96) -> "wgmma.m64n96k32.e4m3" (n one of wgmma_layout_ns(type)).
std::string wgmma_layout_id(std::string_view type, int n);

// The layout for a wgmma ID, or nullopt if `id` is not one.
std::optional<FragmentLayout> wgmma_layout(std::string_view id);

}  // namespace tclens::viz
