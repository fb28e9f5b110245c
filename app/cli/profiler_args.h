#pragma once
// What the subcommands that profile a kernel (`tclens profile`, `tclens source`) share: the line
// for an unknown --kernel, and the exit code a profiler error gives.

#include <string>

#include "profiling/cupti_errors.h"

namespace tclens::cli {

// "unknown kernel 'X'; did you mean Y? (valid: a, b, ...)"
std::string unknown_kernel_message(const std::string& id);

// kNone -> 0; kBadMetric, kInvalidRequest -> 2 (bad usage); kFailed -> 1; the problems that need
// another machine or setting (no GPU, permission, busy, another tool, unsupported) -> 3.
int profiler_exit_code(const profiling::ProfilerError& error);

}  // namespace tclens::cli
