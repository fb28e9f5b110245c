#pragma once
// The one way a subcommand reports bad usage: "tclens: <message>" on stderr (one line naming the
// bad value and what is allowed) and the exit code for it (app/exit_codes.h).

#include <cstdio>
#include <string>

#include "app/exit_codes.h"

namespace tclens::cli {

inline int usage_error(const std::string& message) {
    std::fprintf(stderr, "tclens: %s\n", message.c_str());
    return kExitUsage;
}

}  // namespace tclens::cli
