// wgmma shared-memory matrix descriptor views (PTX ISA, "Shared Memory Matrix Layout": "Major-ness
// supported by Strides", "Canonical Layouts" and "Matrix Descriptor Format").
//
// One view shows the A (64 x K) and B (K x 64) tiles that ONE wgmma.mma_async instruction reads
// through its matrix descriptors, for one element width, major-ness and swizzling mode: for each
// element, the byte offset from the descriptor's start address (the swizzle applied) and the
// core matrix (8 rows x 16 bytes) it belongs to. K is the instruction's: 32 bytes of every row,
// 256 / element-bits elements (tf32 8, f16 16, e4m3 32, b1 256).
//
// The canonical layouts, in elements, with T = 128 / element-bits elements per 16 bytes:
//   K-major, no swizzle:   ((8,m),(T,2k)):((1T,SBO),(1,LBO))
//   K-major, W-byte swizzle (W = 32, 64, 128, c = W / 16): ((8,m),(T,2k)):((cT,SBO),(1,T))
//   MN-major, no swizzle:  ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))
//   MN-major, W-byte swizzle: ((T,c,m),(8,k)):((1,T,LBO),(cT,SBO))
// then the swizzle Swizzle<log2(c),4,3> on the byte address (bits 4.. XOR bits 7..; viz/swizzle.h
// cute:B,4,3), with the tile starting on a 1024-byte boundary so the base offset is 0.
// The offsets chosen here pack the tile densely:
//   K-major none: LBO = 128 (the K core matrix next to it), SBO = 256 (the next 8 rows).
//   K-major swizzled: SBO = 8 W (the next 8 rows); LBO is not used (encoded as 1, i.e. 16).
//   MN-major none: SBO = 128 (the next T elements of M/N), LBO = 128 * (64 / T) (the next 8 k).
//   MN-major swizzled: SBO = 8 W (the next 8 k), LBO = 16 W (the next c T elements of M/N).
// Core matrices are numbered along K first for K-major (index = (mn / 8) * 2 + k-chunk) and along
// M/N first for MN-major (index = (k / 8) * chunks + mn-chunk, chunks = 64 * bits / 128).
//
// IDs: wgmma.smem.<type>.k.<swizzle> for type tf32, f16, e4m3 (every 8-bit type), b1 and swizzle
// none, sw32, sw64, sw128; wgmma.smem.f16.mn.<swizzle> (the transposed, M/N-major form exists for
// .f16/.bf16 only).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "viz/fragment_layout.h"

namespace tclens::viz {

std::vector<std::string> wgmma_smem_layout_ids();

std::optional<FragmentLayout> wgmma_smem_layout(std::string_view id);

// The 64-bit matrix descriptor: start address, LBO and SBO each encoded as (x & 0x3FFFF) >> 4 in
// bits 0-13, 16-29 and 32-45, base offset 0, swizzle mode in bits 62-63 (0 none, 1 128-byte,
// 2 64-byte, 3 32-byte). swizzle_bytes: 0, 32, 64 or 128.
// (0x400, 128, 256, 0) -> 0x40 | 8 << 16 | 16 << 32
uint64_t wgmma_matrix_descriptor(uint32_t start_address, uint32_t leading_bytes,
                                 uint32_t stride_bytes, int swizzle_bytes);

}  // namespace tclens::viz
