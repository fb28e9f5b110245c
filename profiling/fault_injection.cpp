#include "profiling/fault_injection.h"

#include <cupti_result.h>

#include <string>

namespace tclens::profiling {

ProfilerError cupti_fault_error(kernels::Fault fault) {
    const std::string call = kernels::fault_setting(fault);
    switch (fault) {
        case kernels::Fault::kCuptiUnavailable:
            return cupti_error(CUPTI_ERROR_NOT_SUPPORTED, call);
        case kernels::Fault::kCuptiPermission:
            return cupti_error(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, call);
        case kernels::Fault::kCuptiBusy:
            return cupti_error(CUPTI_ERROR_HARDWARE_BUSY, call);
        default:
            return ProfilerError{};
    }
}

ProfilerError injected_cupti_error() { return cupti_fault_error(kernels::injected_fault()); }

}  // namespace tclens::profiling
