#pragma once
// What the TMA + wgmma kernels (rung 9's, kernels/09_wgmma_tma.cu; the persistent one of rungs 11
// and 13, kernels/persistent_gemm.cuh) change with the width of their inputs, in one place. Plain
// C++ constants, for host and device alike.

#include "kernels/hopper_shapes.h"
#include "kernels/tma_tile_limits.h"

namespace tclens::kernels {

// 2 bytes: __half and __nv_bfloat16, B is K x N, N contiguous.
template <int ElementBytes>
struct WgmmaInputs {
    static_assert(ElementBytes == 2, "16-bit (f16, bf16) or 8-bit (e4m3) inputs");
    static constexpr int kBlockK = hopper::kBoxElems;  // 64 elements: one 128-byte row
    static constexpr int kWgmmaK = hopper::kWgmmaK;    // m64nNk16
    // B boxes of 64 n x kBlockK k rows, read MN-major; B^T boxes would be K-major.
    static constexpr bool kBKMajor = false;
    // Bytes between the wgmma steps of a K tile: 16 elements along A's rows; 16 rows of B.
    static constexpr int kAStepBytes = hopper::kAStepBytes;
    static constexpr int kBStepBytes = hopper::kBStepBytes;
};
// 1 byte: e4m3, B stored as B^T, N x K, K contiguous; boxes of kBlockK k x 64 n rows, read
// K-major (the 8-bit wgmma reads no MN-major operand from shared memory).
template <>
struct WgmmaInputs<1> {
    static constexpr int kBlockK = static_cast<int>(kTmaFp8BoxElems);  // 128: one 128-byte row
    static constexpr int kWgmmaK = hopper::kWgmmaKFp8;                 // m64nNk32
    static constexpr bool kBKMajor = true;
    // 32 elements = 32 bytes along the rows of A and of B^T alike.
    static constexpr int kAStepBytes = hopper::kWgmmaKFp8;
    static constexpr int kBStepBytes = hopper::kWgmmaKFp8;
};

}  // namespace tclens::kernels
