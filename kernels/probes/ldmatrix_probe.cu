// ldmatrix layout probe: one warp copies the plan's 32 row slots into shared memory, each lane
// points at its own slot (plan.lane_offsets), one ldmatrix runs, and every lane stores its
// destination registers as they came out. The slots' values name their source-tile coordinates,
// so the registers decode without any arithmetic (matrix_move_probe_plan.cpp).
#include <cuda_runtime.h>

#include "kernels/probes/matrix_move_probe_plan.h"

namespace tclens::kernels {
namespace {

constexpr int kWarpLanes = 32;
constexpr int kTileElems = kLdmatrixSlots * kLdmatrixRowElems;

// ldmatrix.sync.aligned.m8n8.x{Matrices}{.trans}.shared.b16: register j receives matrix j.
template <int Matrices, bool Trans>
__device__ void load_matrices(uint32_t (&r)[Matrices], uint32_t address) {
    if constexpr (Matrices == 1 && !Trans) {
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
                     : "=r"(r[0])
                     : "r"(address));
    } else if constexpr (Matrices == 2 && !Trans) {
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                     : "=r"(r[0]), "=r"(r[1])
                     : "r"(address));
    } else if constexpr (Matrices == 4 && !Trans) {
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(address));
    } else if constexpr (Matrices == 1) {
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];"
                     : "=r"(r[0])
                     : "r"(address));
    } else if constexpr (Matrices == 2) {
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                     : "=r"(r[0]), "=r"(r[1])
                     : "r"(address));
    } else {
        static_assert(Matrices == 4, "ldmatrix loads 1, 2 or 4 matrices");
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(address));
    }
}

// One warp. Every lane supplies an address, also those that .x1 and .x2 ignore.
template <int Matrices, bool Trans>
__global__ void ldmatrix_probe_kernel(const uint16_t* smem_image, const uint32_t* lane_offsets,
                                      uint32_t* out) {
    __shared__ __align__(16) uint16_t tile[kTileElems];
    const int lane = int(threadIdx.x);
    for (int i = lane; i < kTileElems; i += kWarpLanes) {
        tile[i] = smem_image[i];
    }
    __syncwarp();  // ldmatrix reads rows written by other lanes
    const uint32_t address = uint32_t(__cvta_generic_to_shared(tile)) + lane_offsets[lane];
    uint32_t r[Matrices];
    load_matrices<Matrices, Trans>(r, address);
    for (int j = 0; j < Matrices; ++j) {
        out[lane * Matrices + j] = r[j];
    }
}

template <int Matrices, bool Trans>
DeviceRun launch_ldmatrix(const LdmatrixProbePlan& plan) {
    return run_on_device(
        {{plan.smem.data(), plan.smem.size() * sizeof(uint16_t)},
         {plan.lane_offsets.data(), plan.lane_offsets.size() * sizeof(uint32_t)}},
        size_t(kWarpLanes) * Matrices, [](const std::vector<const void*>& in, uint32_t* out, int*) {
            ldmatrix_probe_kernel<Matrices, Trans><<<1, kWarpLanes>>>(
                static_cast<const uint16_t*>(in[0]), static_cast<const uint32_t*>(in[1]), out);
        });
}

}  // namespace

DeviceRun run_ldmatrix_probe(const LdmatrixProbePlan& plan) {
    if (plan.smem.size() != size_t(kTileElems) || plan.lane_offsets.size() != kLdmatrixSlots) {
        return DeviceRun{
            "ldmatrix probe: the plan needs 32 row slots and 32 lane offsets", false, {}};
    }
    switch (plan.matrices) {
        case 1:
            return plan.trans ? launch_ldmatrix<1, true>(plan) : launch_ldmatrix<1, false>(plan);
        case 2:
            return plan.trans ? launch_ldmatrix<2, true>(plan) : launch_ldmatrix<2, false>(plan);
        case 4:
            return plan.trans ? launch_ldmatrix<4, true>(plan) : launch_ldmatrix<4, false>(plan);
        default:
            return DeviceRun{"ldmatrix probe: matrices must be 1, 2 or 4", false, {}};
    }
}

}  // namespace tclens::kernels
