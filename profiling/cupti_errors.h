#pragma once
// CUPTI status -> one readable line that says what went wrong and how to fix it
// (one owner per CUPTI API, docs/architecture.md; the errors a user meets, docs/cupti.md).
//
// Pure functions of their arguments: no CUPTI or CUDA call, so they are unit-tested on machines
// without a GPU. The header does not include CUPTI: a status is passed as the int value of a
// CUptiResult.

#include <string>

#include "profiling/profiler_error.h"

namespace tclens::profiling {

// The enum name of a CUptiResult value, e.g. 26 -> "CUPTI_ERROR_HARDWARE_BUSY";
// an unknown value v -> "CUPTI status v".
std::string cupti_status_name(int status);

// (status, call) -> the problem and one line: "<call>: <what happened> (<NAME>); <fix>".
// `call` names the CUPTI function that returned `status`; `cupti_text` is what
// cuptiGetResultString says about it, used only for codes without a message of their own.
// CUPTI_SUCCESS (0) -> problem kNone, message "".
// Example: (35, "cuptiRangeProfilerEnable") -> kPermission, "cuptiRangeProfilerEnable: this user
// may not read the GPU performance counters (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES); run as root
// or with CAP_SYS_ADMIN, or load the driver with NVreg_RestrictProfilingToAdminUsers=0 ...".
ProfilerError cupti_error(int status, const std::string& call, const std::string& cupti_text = "");

}  // namespace tclens::profiling
