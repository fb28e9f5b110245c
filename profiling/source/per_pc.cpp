#include "profiling/source/per_pc.h"

#include "profiling/cupti_call.h"

namespace tclens::profiling::detail {

std::string run_workload(const Workload& workload) {
    std::string failure = workload ? workload() : "no workload given";
    const cudaError_t synced = cudaDeviceSynchronize();
    if (failure.empty() && synced != cudaSuccess) {
        failure = from_cuda(synced, "cudaDeviceSynchronize after the workload").message;
    }
    return failure;
}

}  // namespace tclens::profiling::detail
