#pragma once
// The headers a kernel of yours includes for its trace points: kernels/user_trace.cuh and those
// it includes (kernels/trace_warp.cuh, kernels/trace_sink.h, viz/trace_phase.h), their text
// built into tclens (cmake/EmbedTextFiles.cmake), so that the worker hands them to NVRTC (as
// named headers) and nvcc (written under the build's work folder, on its include path) wherever
// it runs, with no tclens source folder on that machine. Names are the include paths.

#include <vector>

namespace tclens::kernels::user {

struct EmbeddedHeader {
    const char* name;  // "kernels/user_trace.cuh"
    const char* text;
};

const std::vector<EmbeddedHeader>& trace_headers();

}  // namespace tclens::kernels::user
