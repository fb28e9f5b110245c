#include "kernels/user/driver_api.h"

#include <cuda_runtime.h>

#include "kernels/driver_entry_point.h"

namespace tclens::kernels::user {
namespace {

template <typename Fn>
bool find(const char* name, Fn& out, std::string& error) {
    const DriverEntryPoint entry = find_driver_entry_point(name);
    if (!entry.found()) {
        if (error.empty()) {
            error = std::string("the CUDA driver's ") + name + " is not available (" +
                    cudaGetErrorString(entry.status) + ")";
        }
        return false;
    }
    out = reinterpret_cast<Fn>(entry.function);
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
        find("cuModuleGetGlobal", a.module_get_global, failure);
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
