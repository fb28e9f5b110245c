#pragma once
// The CUPTI faults of kernels/fault_injection.h (TCLENS_INJECT_FAULT=cupti-unavailable,
// cupti-permission, cupti-busy) as the ProfilerError the real CUPTI status gives
// (cupti_errors.h), worded by the same table, so an injected failure reads like the real one.
//
// Consulted where a profiling session starts, before any CUDA call, so a machine without a GPU
// sees the fault too: detail::start_cuda (cupti_call.h: every RangeProfiler and PmSampler opens
// with it) and KernelProfiler::prepare's device start (kernel_profile.h).

#include "kernels/fault_injection.h"
#include "profiling/cupti_errors.h"

namespace tclens::profiling {

// kCuptiUnavailable -> CUPTI_ERROR_NOT_SUPPORTED (kUnsupported), kCuptiPermission ->
// CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (kPermission), kCuptiBusy -> CUPTI_ERROR_HARDWARE_BUSY
// (kBusy), each with the fix; the call named is "TCLENS_INJECT_FAULT=NAME". Any other fault:
// ok.
ProfilerError cupti_fault_error(kernels::Fault fault);

// cupti_fault_error(kernels::injected_fault()).
ProfilerError injected_cupti_error();

}  // namespace tclens::profiling
