#pragma once
// Forms (1) and (3) built by the toolkit's nvcc: a generated shim that #includes the user's file
// and exports fixed `extern "C"` entries, compiled into a shared library for one architecture.
//
// The shim's entries (the loader, user_kernel.h, looks them up with dlsym):
//   int tclens_user_gemm(long long m, long long n, long long k, const void* a, const void* b,
//                        float* c, void* workspace, cudaStream_t stream)
//       host launcher: calls it with each argument converted to the parameter's own type, in
//       its order (sizes first or pointers first; workspace only when it takes one), bracketed
//       by event waits unless `stream` is the legacy default stream (user_kernel.h says why);
//       returns cudaGetLastError() as an int.
//   long long tclens_user_workspace_size(long long m, long long n, long long k)
//       host launcher with a workspace: its get_workspace_size.
//   int tclens_user_set_trace_sink(const void* sink, cudaStream_t stream)
//       traced build (-DTCLENS_TRACE) of a host launcher that includes kernels/user_trace.cuh:
//       copies the TraceSink at `sink` into its tclens_trace_sink on `stream` (before the
//       launcher's traced call, in that stream's order); returns the copy's cudaError_t.
//   int tclens_user_exercise(const void* a, const void* b, float* c)
//       exercise: launches it with one block of 32 threads on the legacy default stream, then
//       returns cudaGetLastError() as an int.

#include <string>
#include <vector>

#include "common/expected.h"
#include "kernels/user/discovery.h"

namespace tclens::kernels::user {

inline constexpr const char* kShimFileName = "tclens_shim.cu";
inline constexpr const char* kGemmEntry = "tclens_user_gemm";
inline constexpr const char* kWorkspaceEntry = "tclens_user_workspace_size";
inline constexpr const char* kExerciseEntry = "tclens_user_exercise";
inline constexpr const char* kTraceSinkEntry = "tclens_user_set_trace_sink";

// The shim's text for `discovered` (a host launcher or an exercise) in `user_path` (absolute).
// Pure, so tests can read it.
std::string shim_source(const Discovered& discovered, const std::string& user_path);

// nvcc to run: `given`, else $TCLENS_NVCC, else the toolkit's bin folder of this build, else
// "nvcc" found on PATH; "" when none exists.
std::string find_nvcc(const std::string& given);

struct NvccBuild {
    std::string library_path;  // <work>/libtclens_user.so
    std::string cubin_path;    // <work>/tclens_shim.cubin (kept by -keep)
    std::string warnings;      // diagnostics about the user's file, one per line
};

// Writes the shim into `work_dir` and runs `nvcc -std=c++17 -O3 -lineinfo -gencode
// arch=compute_X,code=sm_X -Xcompiler -fPIC -shared -Xlinker --no-undefined -cudart shared -keep`
// on it (an undefined function is the linker's error here, not a load failure later), with -I for
// `include_dirs` and -D for `defines`. `shown_name` is what error lines call the user's file.
// Errors: the user's first error as "file:line: error: message" (compile_log.h), else the first
// error of ptxas or the linker, else "nvcc failed (exit N)".
common::Expected<NvccBuild> build_with_nvcc(const std::string& nvcc, const std::string& user_path,
                                            const std::string& shown_name,
                                            const Discovered& discovered, const std::string& arch,
                                            const std::vector<std::string>& include_dirs,
                                            const std::string& work_dir,
                                            const std::vector<std::string>& defines = {});

}  // namespace tclens::kernels::user
