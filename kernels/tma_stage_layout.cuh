#pragma once
// The TMA rungs' shared-memory ring in a kernel (09_wgmma_tma.cu, 10_wgmma_warp_specialized.cu,
// 12_wgmma_stream_k.cu, persistent_gemm.cuh): where its stages and barriers lie. Its sizes are
// kernels/tma_stage_layout.h's.

#include <cstdint>

#include "kernels/hopper.cuh"
#include "kernels/tma_stage_layout.h"

namespace tclens::kernels {

#if defined(TCLENS_HOPPER_DEVICE)

// The ring in a kernel's dynamic shared memory, laid out as ring_smem_bytes says: the stages
// from the first 1024-byte boundary (stage s at stages + s kStageBytes), the extra bytes, then
// full[kStages] and empty[kStages] (a ring without empty barriers never touches `empty`).
struct TmaRing {
    unsigned char* stages;
    unsigned char* extra;
    std::uint64_t* full;
    std::uint64_t* empty;
};

// The ring of a Config (a TmaStageLayout with kStages) in the kernel's dynamic shared memory,
// `extra_bytes` after the stages.
template <typename Config>
__device__ __forceinline__ TmaRing tma_ring(int extra_bytes = 0) {
    extern __shared__ unsigned char smem_raw[];
    unsigned char* stages = hopper::align_1024(smem_raw);
    unsigned char* extra = stages + Config::kStages * Config::kStageBytes;
    std::uint64_t* full = reinterpret_cast<std::uint64_t*>(extra + extra_bytes);
    return {stages, extra, full, full + Config::kStages};
}

#endif  // TCLENS_HOPPER_DEVICE

}  // namespace tclens::kernels
