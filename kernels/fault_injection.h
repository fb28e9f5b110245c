#pragma once
// Failure injection for tests (README "Testing"): TCLENS_INJECT_FAULT=NAME makes tclens act as
// if that failure happened, so its error paths run on any machine, GPU or not.
//
//   no-gpu             the device query finds no GPU: profiling/device_query.cpp query_system,
//                      and GemmRunner's start (kernels/runner.cu)
//   launch-failure     every kernel run fails at its launch with cudaErrorLaunchFailure
//                      (GemmRunner::run)
//   cupti-unavailable  opening a CUPTI profiler fails with CUPTI_ERROR_NOT_SUPPORTED,
//   cupti-permission   CUPTI_ERROR_INSUFFICIENT_PRIVILEGES or
//   cupti-busy         CUPTI_ERROR_HARDWARE_BUSY (profiling/fault_injection.h says where)
//   worker-crash       `tclens worker` aborts (SIGABRT) on a request that runs kernels
//                      (bench, profile, exercise, source), before it answers
//                      (app/worker/server.cpp)
//   worker-hang        it never answers such a request (sleeps until killed)
//   worker-garbage     it answers such a request with a line that is not protocol
//   worker-fault       it answers such a request as if a kernel had killed the CUDA context
//                      (an error of kind "fault"), then exits
//
// The worker-* faults strike in the worker only (the client, e.g. `tclens bench --kernel`,
// reports and restarts it); requests that run no kernel (hello, load) are answered as usual, so
// a test can see a restarted worker answer. cupti-* and launch-failure strike after a GPU was
// found. So that a machine without a GPU (CI) reports
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

enum class Fault {
    kNone,
    kNoGpu,
    kLaunchFailure,
    kCuptiUnavailable,
    kCuptiPermission,
    kCuptiBusy,
    kWorkerCrash,
    kWorkerHang,
    kWorkerGarbage,
    kWorkerFault,
};

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
// kWorkerCrash, kWorkerHang, kWorkerGarbage or kWorkerFault.
bool is_worker_fault(Fault fault);
// kLaunchFailure or a CUPTI fault: a fault that strikes after a GPU was found, so that a caller
// which stops early for want of a GPU lets the work through to where it strikes.
bool strikes_after_device_checks(Fault fault);

// "TCLENS_INJECT_FAULT=NAME": each error an injected fault causes names it, so that nobody takes
// it for a real one.
std::string fault_setting(Fault fault);

}  // namespace tclens::kernels
