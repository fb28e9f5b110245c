#pragma once
// Form (2) built in-process by NVRTC: the user's file compiled as is (so its line numbers are
// the compiler's), with `-arch=<arch> -lineinfo -std=c++17 -I<toolkit include>`, to a cubin.
// NVRTC has no C++ standard library; <cstdint>, <stdint.h>, <cstddef> and <stddef.h> are given
// to it as small built-in headers (the fixed-width integer types, size_t, ptrdiff_t),
// and so are the trace headers of kernels of yours (kernels/user_trace.cuh and what it includes).
// It compiles device code only: a host function in the file is a compile error at its line (wrap
// host code in #ifndef __CUDACC_RTC__).

#include <string>
#include <vector>

#include "common/expected.h"

namespace tclens::kernels::user {

struct NvrtcBuild {
    std::vector<char> cubin;
    std::string lowered_name;  // the kernel's mangled name in the cubin
    std::string warnings;      // diagnostics about the user's file, one per line
};

// `path` is the absolute path (the program's name in NVRTC's log), `shown_name` what error
// lines call it, `kernel` the qualified name of the __global__ to look up, `defines` given as
// -D options. The trace headers (trace_headers.h) are named headers the file may include. Errors:
// the first error of the user's file as "file:line: error: message", or NVRTC's own one line.
common::Expected<NvrtcBuild> build_with_nvrtc(const std::string& source, const std::string& path,
                                              const std::string& shown_name,
                                              const std::string& kernel, const std::string& arch,
                                              const std::vector<std::string>& defines = {});

}  // namespace tclens::kernels::user
