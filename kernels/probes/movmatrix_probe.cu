// movmatrix layout probe: two warps, each loads its A register from the plan, runs
// movmatrix.sync.aligned.m8n8.trans.b16 and stores D as it came out. The first warp's A names
// (row, col) of the source matrix, the second's names each A slot; decoding is on the host
// (matrix_move_probe_plan.cpp).
#include <cuda_runtime.h>

#include "kernels/probes/matrix_move_probe_plan.h"

namespace tclens::kernels {
namespace {

constexpr int kWarpLanes = 32;
constexpr int kWarps = 2;

__global__ void movmatrix_probe_kernel(const uint32_t* a, uint32_t* d) {
    const int thread = int(threadIdx.x);
    uint32_t out;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(out) : "r"(a[thread]));
    d[thread] = out;
}

}  // namespace

DeviceRun run_movmatrix_probe(const MovmatrixProbePlan& plan) {
    if (plan.a.size() != size_t(kWarps * kWarpLanes)) {
        return DeviceRun{
            "movmatrix probe: the plan needs one A register per lane of 2 warps", false, {}};
    }
    return run_on_device({{plan.a.data(), plan.a.size() * sizeof(uint32_t)}},
                         size_t(kWarps * kWarpLanes),
                         [](const std::vector<const void*>& in, uint32_t* out, int*) {
                             movmatrix_probe_kernel<<<1, kWarps * kWarpLanes>>>(
                                 static_cast<const uint32_t*>(in[0]), out);
                         });
}

}  // namespace tclens::kernels
