#pragma once
// Failure injection for tests (README "Testing"): TCLENS_INJECT_FAULT=NAME makes tclens act as
// if that failure happened, so its error paths run on any machine, GPU or not.
//
//   no-gpu             the device query finds no GPU: profiling/device_info.cpp query_system,
//                      and GemmRunner's start (kernels/runner.cu)
//   launch-failure     every kernel run fails at its launch with cudaErrorLaunchFailure
//                      (GemmRunner::run)
//   cupti-unavailable  opening a CUPTI profiler fails with CUPTI_ERROR_NOT_SUPPORTED,
//   cupti-permission   CUPTI_ERROR_INSUFFICIENT_PRIVILEGES or
//   cupti-busy         CUPTI_ERROR_HARDWARE_BUSY (profiling/fault_injection.h says where)
//
// The last four strike after a GPU was found. So that a machine without a GPU (CI) reports
// them as a GPU server would, they come before the device checks: GemmRunner::run fails
// before it looks at its device, a profiler before CUDA starts, and the callers that stop
// early for want of a GPU (`tclens bench`, `tclens profile`, the GUI's bench job) let the
// fault they lead to through.
// Unset or empty, the variable changes nothing. The CLI refuses an unknown name (exit 2).

#include <optional>
#include <string>
#include <string_view>

namespace tclens::kernels {

inline constexpr const char* kFaultVariable = "TCLENS_INJECT_FAULT";

enum class Fault { kNone, kNoGpu, kLaunchFailure, kCuptiUnavailable, kCuptiPermission, kCuptiBusy };

// "cupti-busy" -> kCuptiBusy, "" -> kNone; nullopt for any other text.
std::optional<Fault> parse_fault(std::string_view name);

// kCuptiBusy -> "cupti-busy"; kNone -> "".
const char* fault_name(Fault fault);

// Every name parse_fault accepts but "": "no-gpu, launch-failure, cupti-unavailable, ...".
std::string fault_names();

// The fault TCLENS_INJECT_FAULT names, read at each call; kNone when it is unset, empty or
// unknown.
Fault injected_fault();

// "" unless TCLENS_INJECT_FAULT holds an unknown name; then one line naming it and the valid
// names.
std::string fault_variable_error();

// kCuptiUnavailable, kCuptiPermission or kCuptiBusy.
bool is_cupti_fault(Fault fault);

// "TCLENS_INJECT_FAULT=NAME": each error an injected fault causes names it, so that nobody takes
// it for a real one.
std::string fault_setting(Fault fault);

}  // namespace tclens::kernels
