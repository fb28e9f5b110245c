#pragma once
// The few CUDA driver functions the loader needs (modules and launches), looked up through the
// runtime (cudaGetDriverEntryPointByVersion) instead of linking libcuda: a machine without a GPU
// driver has no libcuda.so.1, and the programs linking this library must still start there
// (kernels/tensor_map.cpp does the same).

#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <string>

namespace tclens::kernels::user {

struct DriverApi {
    PFN_cuModuleLoadData_v2000 module_load_data = nullptr;
    PFN_cuModuleUnload_v2000 module_unload = nullptr;
    PFN_cuModuleGetFunction_v2000 module_get_function = nullptr;
    PFN_cuModuleGetGlobal_v3020 module_get_global = nullptr;
    PFN_cuFuncGetAttribute_v2020 func_get_attribute = nullptr;
    PFN_cuFuncSetAttribute_v9000 func_set_attribute = nullptr;
    PFN_cuLaunchKernel_v4000 launch_kernel = nullptr;
};

// The functions, found once per process; nullptr with `error` set (one line) when the runtime
// cannot find one (no driver, or one too old).
const DriverApi* driver_api(std::string* error);

// A driver result as the runtime's error type: their codes agree for every error a module load
// or launch returns (cudaErrorInvalidValue = CUDA_ERROR_INVALID_VALUE = 1, ..., 700 for an
// illegal address), so cudaGetErrorString names it.
inline cudaError_t as_runtime_error(CUresult result) { return static_cast<cudaError_t>(result); }

}  // namespace tclens::kernels::user
