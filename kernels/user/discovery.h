#pragma once
// Which function of a user's file tclens runs, in which of the three forms, with which types.
// Pure: works on the source text (scan_source) and the parsed ref and directives.
//
// Accepted GEMM signatures (host launcher and directive kernel alike):
//   (M, N, K, const T* A, const T* B, float* C)          lab 6 / lab 5 order
//   (const T* A, const T* B, float* C, M, N, K)          pointers first
//   host launchers only: either, plus a trailing `void* workspace` and a companion
//   `get_workspace_size(M, N, K)` returning an integer (lab 6's matmul_3.cu)
// where T is float (f32 or tf32), __half / half (f16) or __nv_bfloat16 / nv_bfloat16 (bf16);
// M, N, K are each int, int32_t, uint32_t, unsigned, int64_t, uint64_t, long, long long or
// size_t (std:: spellings too); `const`, `__restrict__` and parameter names do not matter (A and
// B may be non-const pointers). C and workspace must not be const. Row-major A (M x K), B
// (K x N), C (M x N) as in kernels/gemm.h.
// Fragment exercise: a __global__ (const T* a, const T* b, float* c), run with one warp.
//
// Discovery without a named function: host functions with an accepted signature win; else, if
// the file has a launch directive, __global__ kernels with an accepted signature (the one its
// kernel= names); else exercise kernels. Exactly one candidate is used; none or several is one
// line of error naming them. A named function must exist, and have an accepted signature.

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/gemm.h"
#include "kernels/user/kernel_ref.h"
#include "kernels/user/launch_directive.h"
#include "kernels/user/source_scan.h"
#include "viz/swizzle.h"  // viz::Expected

namespace tclens::kernels::user {

enum class KernelForm {
    kHostLauncher,      // (1) host function, built by nvcc into a shared library
    kDirectiveKernel,   // (2) bare __global__ + `// tclens:` directive, built by NVRTC
    kFragmentExercise,  // (3) one-warp __global__ (a, b, c), built by nvcc like (1)
};

const char* form_name(KernelForm form);  // "host launcher", "directive kernel", "exercise"

// How one parameter is passed: the size the callee expects, for a kernel launch.
enum class ParamKind { kInt32, kInt64, kPointer };

// A function whose parameters matched an accepted signature.
struct GemmSignature {
    Precision element = Precision::kF32;  // what A and B point to (kF32 for float)
    bool pointers_first = false;          // (A, B, C, M, N, K)
    bool workspace = false;               // trailing void* workspace
    std::vector<ParamKind> params;        // in declaration order
};

// `function`'s parameters as an accepted GEMM signature (workspace only when
// `allow_workspace`), or one line: "launch(int M, double *A, ...) is not an accepted signature:
// parameter 4 'double *A' must be const float*, const __half* or const __nv_bfloat16*".
viz::Expected<GemmSignature> match_gemm_signature(const ScannedFunction& function,
                                                  bool allow_workspace);

// `function` as a fragment exercise: (const T* a, const T* b, float* c); element type or error.
viz::Expected<Precision> match_exercise_signature(const ScannedFunction& function);

struct Discovered {
    KernelForm form = KernelForm::kHostLauncher;
    ScannedFunction function;
    GemmSignature signature;                // kHostLauncher, kDirectiveKernel
    Precision precision = Precision::kF32;  // the GEMM's (f32 or tf32 for float inputs)
    LaunchDirective directive;              // kDirectiveKernel: the directive that launches it
    std::string workspace_size;   // kHostLauncher with workspace: get_workspace_size, qualified
    std::string exercise_layout;  // kFragmentExercise: "mma.m16n8k8.tf32"
};

// The fragment layouts an exercise may use, by element type: float -> mma.m16n8k8.tf32 (lab 6)
// or mma.m16n8k4.tf32; __half -> mma.m16n8k16.f16 or mma.m16n8k8.f16; bf16 -> mma.m16n8k16.bf16.
std::vector<std::string> exercise_layout_ids();

// Picks the function (see the top of this file). `file` names the file in errors. Errors, one
// line each: "matmul.cu: no launcher found: expected ...", "matmul.cu: two candidates:
// launch_a (line 10), launch_b (line 31); name one as matmul.cu:launch_a", "matmul.cu: no
// function 'foo' (functions: a, b)", signature errors, directive errors, "matmul.cu: kernel
// 'k' (line 5) has no launch directive: add a line such as // tclens: grid=(cdiv(N,16),
// cdiv(M,16)) block=(16,16)", a type= that disagrees with the parameters.
viz::Expected<Discovered> discover_kernel(const std::string& source, const std::string& file,
                                          const KernelRef& ref);

}  // namespace tclens::kernels::user
