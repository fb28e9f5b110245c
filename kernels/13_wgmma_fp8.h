#pragma once
// Rung 13's shape (and rung 14's other FP8 ones), shared by its kernel and launch
// (13_wgmma_fp8.cu, rung 11's kernel from kernels/persistent_gemm.cuh) and its descriptor
// (13_wgmma_fp8.cpp).

#include "kernels/persistent_gemm.h"

namespace tclens::kernels::wgmma_fp8 {

// Rung 11's tuning with 1-byte (e4m3) inputs: 128 x 256 x 128 tiles, the same stages, cluster,
// bands and epilogue to the byte.
using Fp8Shape = ChosenPersistentShape<1>;

// Rung 14's other FP8 configurations (kernels/fp8_dispatch_rules.h), the same kernel on smaller
// tiles, for problems whose 128 x 256 tiles fill the SMs' rounds badly:
//   128 x 192: rung 11's other tile with e4m3 (its NarrowShape's numbers, m64n192k32);
//   128 x 128: twice rung 13's tiles of half the work each (m64n128k32), 6 stages of 32 KiB
//   (rung 13's 4 are 48 KiB each) + the same 32 KiB of epilogue buffers.
using Fp8Shape192 = PersistentShape<1, 192, 4, 2, 8, 16, 2, true>;
using Fp8Shape128 = PersistentShape<1, 128, 6, 2, 8, 16, 2, true>;

}  // namespace tclens::kernels::wgmma_fp8

namespace tclens::kernels {

// The descriptor of rung 14's FP8 configuration of 128 x `block_n` tiles (192 or 128;
// "wgmma_fp8_192.e4m3", "wgmma_fp8_128.e4m3", not registered): its tiles and schedule for the
// tile map, can_run rung 13's rules for its tile. Any other block_n: rung 13's.
KernelDescriptor wgmma_fp8_tile_descriptor(int block_n);

}  // namespace tclens::kernels
