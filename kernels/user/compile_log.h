#pragma once
// Compiler logs (nvcc's and NVRTC's) turned into lines about the user's own file. Pure.
//
// Both compilers write diagnostics as `<path>(<line>): <severity>: <message>` (nvcc's front end
// also `<path>:<line>:<col>: <severity>: ...` from the host compiler). A diagnostic is kept when
// its path is the user's file (same path or same file name under another folder spelling) and
// rewritten as `<file>:<line>: <severity>: <message>`; diagnostics about tclens's own shim are
// never shown (when only those exist, the caller reports its own line instead). Lines that
// continue a kept diagnostic (source excerpts, carets, "detected during" notes) are dropped.

#include <string>
#include <vector>

namespace tclens::kernels::user {

struct Diagnostic {
    int line = 0;          // 1-based, in the user's file
    std::string severity;  // "error", "warning", "catastrophic error", "remark"
    std::string message;   // the compiler's message, trimmed
    std::string text;      // "<file>:<line>: <severity>: <message>"
};

// `user_path` is the path the compiler was given for the user's file; `shown_name` what the
// lines call it (the path as the user typed it).
std::vector<Diagnostic> user_diagnostics(const std::string& log, const std::string& user_path,
                                         const std::string& shown_name);

// The first error among `diagnostics` as the one-line message ("matmul.cu:12: error: identifier
// "x" is undefined"), with " (and 3 more errors)" when there are more; "" when there is none.
std::string first_error_line(const std::vector<Diagnostic>& diagnostics);

// For a failed build with no diagnostic about the user's file: the first line of `log` that
// reports an error and does not mention `hidden_path` (the shim), e.g. from ptxas, nvlink or
// the linker ("ptxas error   : Arguments mismatch for instruction 'mma'"), trimmed, with
// absolute temporary paths shortened to their file name; an undefined symbol as "link error:
// undefined reference to `helper()'" (whatever object the linker names); "" when there is none.
std::string tool_error_line(const std::string& log, const std::string& hidden_path);

}  // namespace tclens::kernels::user
