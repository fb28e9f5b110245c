#include "kernels/user/driver_api.h"

#include <cuda_runtime.h>

namespace tclens::kernels::user {
namespace {

template <typename Fn>
bool find(const char* name, Fn& out, std::string& error) {
    void* function = nullptr;
    cudaDriverEntryPointQueryResult query = cudaDriverEntryPointSymbolNotFound;
    const cudaError_t status =
        cudaGetDriverEntryPointByVersion(name, &function, 12000, cudaEnableDefault, &query);
    if (status != cudaSuccess || query != cudaDriverEntryPointSuccess || function == nullptr) {
        if (error.empty()) {
            error = std::string("the CUDA driver's ") + name + " is not available (" +
                    cudaGetErrorString(status) + ")";
        }
        return false;
    }
    out = reinterpret_cast<Fn>(function);
    return true;
}

}  // namespace

const DriverApi* driver_api(std::string* error) {
    static std::string failure;
    static const DriverApi api = [] {
        DriverApi a;
        find("cuModuleLoadData", a.module_load_data, failure);
        find("cuModuleUnload", a.module_unload, failure);
        find("cuModuleGetFunction", a.module_get_function, failure);
        find("cuFuncGetAttribute", a.func_get_attribute, failure);
        find("cuFuncSetAttribute", a.func_set_attribute, failure);
        find("cuLaunchKernel", a.launch_kernel, failure);
        return a;
    }();
    if (!failure.empty()) {
        *error = failure;
        return nullptr;
    }
    return &api;
}

}  // namespace tclens::kernels::user
