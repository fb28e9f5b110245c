#include "kernels/driver_entry_point.h"

namespace tclens::kernels {

DriverEntryPoint find_driver_entry_point(const char* name) {
    DriverEntryPoint entry;
    entry.status = cudaGetDriverEntryPointByVersion(name, &entry.function, 12000, cudaEnableDefault,
                                                    &entry.query);
    return entry;
}

}  // namespace tclens::kernels
