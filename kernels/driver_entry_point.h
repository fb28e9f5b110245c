#pragma once
// CUDA driver functions looked up through the runtime (cudaGetDriverEntryPointByVersion), so
// that nothing links libcuda: the one place kernels/, kernels/user/ and profiling/ ask for one.

#include <cuda_runtime.h>

namespace tclens::kernels {

// The outcome of one lookup: the function (null where not found), the lookup's own error and
// the driver's answer for the symbol.
struct DriverEntryPoint {
    void* function = nullptr;
    cudaError_t status = cudaSuccess;
    cudaDriverEntryPointQueryResult query = cudaDriverEntryPointSymbolNotFound;

    // The lookup succeeded and the driver exports the symbol.
    bool found() const {
        return status == cudaSuccess && query == cudaDriverEntryPointSuccess && function != nullptr;
    }
};

// The driver function `name` with its CUDA 12.0 ABI (the PFN_<name>_v12000-era signature:
// later versions may export another signature under the same name), e.g.
// find_driver_entry_point("cuTensorMapEncodeTiled"). Asks the runtime each call.
DriverEntryPoint find_driver_entry_point(const char* name);

}  // namespace tclens::kernels
