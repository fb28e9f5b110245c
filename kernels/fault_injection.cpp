#include "kernels/fault_injection.h"

#include <cstdlib>

#include "common/text.h"

namespace tclens::kernels {
namespace {

constexpr Fault kFaults[] = {
    Fault::kNoGpu,           Fault::kLaunchFailure, Fault::kCuptiUnavailable,
    Fault::kCuptiPermission, Fault::kCuptiBusy,     Fault::kWorkerCrash,
    Fault::kWorkerHang,      Fault::kWorkerGarbage, Fault::kWorkerFault};

std::string_view variable_value() {
    const char* value = std::getenv(kFaultVariable);
    return value != nullptr ? value : "";
}

}  // namespace

std::optional<Fault> parse_fault(std::string_view name) {
    if (name.empty()) return Fault::kNone;
    for (const Fault fault : kFaults) {
        if (name == fault_name(fault)) return fault;
    }
    return std::nullopt;
}

const char* fault_name(Fault fault) {
    switch (fault) {
        case Fault::kNone:
            return "";
        case Fault::kNoGpu:
            return "no-gpu";
        case Fault::kLaunchFailure:
            return "launch-failure";
        case Fault::kCuptiUnavailable:
            return "cupti-unavailable";
        case Fault::kCuptiPermission:
            return "cupti-permission";
        case Fault::kCuptiBusy:
            return "cupti-busy";
        case Fault::kWorkerCrash:
            return "worker-crash";
        case Fault::kWorkerHang:
            return "worker-hang";
        case Fault::kWorkerGarbage:
            return "worker-garbage";
        case Fault::kWorkerFault:
            return "worker-fault";
    }
    return "";
}

std::string fault_names() { return common::join(kFaults, ", ", fault_name); }

Fault injected_fault() { return parse_fault(variable_value()).value_or(Fault::kNone); }

std::string fault_variable_error() {
    const std::string_view value = variable_value();
    if (parse_fault(value)) return "";
    return std::string(kFaultVariable) + "='" + std::string(value) +
           "' is not a fault tclens can inject; valid: " + fault_names() + " (or unset it)";
}

bool is_cupti_fault(Fault fault) {
    return fault == Fault::kCuptiUnavailable || fault == Fault::kCuptiPermission ||
           fault == Fault::kCuptiBusy;
}

bool is_worker_fault(Fault fault) {
    return fault == Fault::kWorkerCrash || fault == Fault::kWorkerHang ||
           fault == Fault::kWorkerGarbage || fault == Fault::kWorkerFault;
}

bool strikes_after_device_checks(Fault fault) {
    return fault == Fault::kLaunchFailure || is_cupti_fault(fault);
}

std::string fault_setting(Fault fault) {
    return std::string(kFaultVariable) + "=" + fault_name(fault);
}

}  // namespace tclens::kernels
