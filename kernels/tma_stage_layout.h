#pragma once
// The byte layout of one stage of the TMA rungs' shared-memory ring (09_wgmma_tma.cu,
// 10_wgmma_warp_specialized.cu, 12_wgmma_stream_k.cu, persistent_gemm.cuh), and the dynamic
// shared memory of the whole ring. Each rung's Config derives from it. Plain C++ constants, for
// host and device alike (the ring in a kernel: kernels/tma_stage_layout.cuh).

#include "kernels/hopper_shapes.h"

namespace tclens::kernels {

// One stage: an A box of BlockM rows x 128 swizzled bytes (one K tile of each A row), then
// BlockN / 64 B boxes of 64 rows x 128 bytes each, box after box. Worked example, 128 x 256:
// 16 KiB of A + 4 x 8 KiB of B = 48 KiB a stage.
template <int BlockM, int BlockN>
struct TmaStageLayout {
    static constexpr int kABytes = BlockM * hopper::kSwizzleRowBytes;
    static constexpr int kBBoxes = BlockN / hopper::kBoxElems;
    static constexpr int kBBoxBytes = hopper::kBoxElems * hopper::kSwizzleRowBytes;
    static constexpr int kStageBytes = kABytes + kBBoxes * kBBoxBytes;
    // The B boxes' rows: 64 n x 128 bytes of K x N B, read MN-major (16-bit inputs), or, where a
    // Config with e4m3 inputs says true (kernels/wgmma_inputs.h), 64 n rows of B^T x 128 bytes
    // of k, read K-major. The same bytes either way.
    static constexpr bool kBKMajor = false;

    // Dynamic shared memory of a ring of `stages` stages: 1 KiB of slack to align the stages to
    // 1024 bytes, the stages, `extra_bytes` (e.g. epilogue buffers), then `barriers_per_stage`
    // 8-byte mbarriers per stage.
    static constexpr int ring_smem_bytes(int stages, int barriers_per_stage, int extra_bytes = 0) {
        return hopper::kSwizzleAtomBytes + stages * kStageBytes + extra_bytes +
               barriers_per_stage * stages * 8;
    }
};

}  // namespace tclens::kernels
