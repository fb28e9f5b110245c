#pragma once
// What the subcommands that profile a kernel (`tclens profile`, `tclens source`) share: the line
// for an unknown --kernel.

#include <string>

namespace tclens::cli {

// "unknown kernel 'X'; did you mean Y? (valid: a, b, ...)"
std::string unknown_kernel_message(const std::string& id);

}  // namespace tclens::cli
