// stmatrix layout probe: one warp fills a shared-memory region of 32 row slots with poison,
// loads its source registers (each half names its own lane, register and sub), runs one stmatrix
// with every lane pointing at its own row slot (plan.lane_offsets), and copies the whole region
// back. Where each value landed is decoded on the host (matrix_move_probe_plan.cpp).
//
// stmatrix starts with sm_90; older targets get a stub that raises the "not compiled" flag.
#include <cuda_runtime.h>

#include "kernels/probes/matrix_move_probe_plan.h"

namespace tclens::kernels {
namespace {

constexpr int kWarpLanes = 32;
constexpr int kTileElems = kLdmatrixSlots * kLdmatrixRowElems;
constexpr int kTileWords = kTileElems / 2;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// stmatrix.sync.aligned.m8n8.x{Matrices}{.trans}.shared.b16: register j holds matrix j.
template <int Matrices, bool Trans>
__device__ void store_matrices(const uint32_t (&r)[Matrices], uint32_t address) {
    if constexpr (Matrices == 1 && !Trans) {
        asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(address),
                     "r"(r[0])
                     : "memory");
    } else if constexpr (Matrices == 2 && !Trans) {
        asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" ::"r"(address),
                     "r"(r[0]), "r"(r[1])
                     : "memory");
    } else if constexpr (Matrices == 4 && !Trans) {
        asm volatile(
            "stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(address),
            "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
            : "memory");
    } else if constexpr (Matrices == 1) {
        asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" ::"r"(address),
                     "r"(r[0])
                     : "memory");
    } else if constexpr (Matrices == 2) {
        asm volatile(
            "stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" ::"r"(address),
            "r"(r[0]), "r"(r[1])
            : "memory");
    } else {
        static_assert(Matrices == 4, "stmatrix stores 1, 2 or 4 matrices");
        asm volatile(
            "stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(address),
            "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
            : "memory");
    }
}
#endif

// One warp. Every lane supplies an address, also those that .x1 and .x2 ignore.
template <int Matrices, bool Trans>
__global__ void stmatrix_probe_kernel(const uint32_t* registers, const uint32_t* lane_offsets,
                                      uint32_t* out, int* not_compiled) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    __shared__ __align__(16) uint32_t tile[kTileWords];
    const int lane = int(threadIdx.x);
    for (int i = lane; i < kTileWords; i += kWarpLanes) tile[i] = 0xffffffffu;  // poison
    __syncwarp();
    uint32_t r[Matrices];
    for (int j = 0; j < Matrices; ++j) r[j] = registers[lane * Matrices + j];
    const uint32_t address = uint32_t(__cvta_generic_to_shared(tile)) + lane_offsets[lane];
    store_matrices<Matrices, Trans>(r, address);
    __syncwarp();  // the rows another lane's store wrote
    for (int i = lane; i < kTileWords; i += kWarpLanes) out[i] = tile[i];
#else
    (void)registers, (void)lane_offsets, (void)out;
    if (threadIdx.x == 0) *not_compiled = 1;
#endif
}

template <int Matrices, bool Trans>
DeviceRun launch_stmatrix(const StmatrixProbePlan& plan) {
    return run_on_device({{plan.registers.data(), plan.registers.size() * sizeof(uint32_t)},
                          {plan.lane_offsets.data(), plan.lane_offsets.size() * sizeof(uint32_t)}},
                         kTileWords,
                         [](const std::vector<const void*>& in, uint32_t* out, int* flag) {
                             stmatrix_probe_kernel<Matrices, Trans><<<1, kWarpLanes>>>(
                                 static_cast<const uint32_t*>(in[0]),
                                 static_cast<const uint32_t*>(in[1]), out, flag);
                         });
}

}  // namespace

DeviceRun run_stmatrix_probe(const StmatrixProbePlan& plan) {
    if (plan.lane_offsets.size() != kLdmatrixSlots ||
        plan.registers.size() != size_t(kLdmatrixSlots) * size_t(plan.matrices)) {
        return DeviceRun{
            "stmatrix probe: the plan needs 32 lane offsets and 32 lanes of registers", false, {}};
    }
    switch (plan.matrices) {
        case 1:
            return plan.trans ? launch_stmatrix<1, true>(plan) : launch_stmatrix<1, false>(plan);
        case 2:
            return plan.trans ? launch_stmatrix<2, true>(plan) : launch_stmatrix<2, false>(plan);
        case 4:
            return plan.trans ? launch_stmatrix<4, true>(plan) : launch_stmatrix<4, false>(plan);
        default:
            return DeviceRun{"stmatrix probe: matrices must be 1, 2 or 4", false, {}};
    }
}

}  // namespace tclens::kernels
