#pragma once
// A user's kernel file turned into a verified, timed descriptor: the library `tclens_user`.
// The worker process (`tclens worker`) calls this; nothing here runs in the GUI process.
//
//   ref = parse_kernel_ref("examples/matmul_3.cu")          kernel_ref.h
//   compiled = compile_user_kernel(*ref, {})                  no GPU needed (nvcc / NVRTC)
//   loaded = load_user_kernel(*compiled)                      needs the GPU
//   GemmRunner().run((*loaded)->descriptor, problem, opts)    like any rung (runner.h)
//   run_fragment_exercise(*compiled)                          form (3) instead of load
//
// The three forms (discovery.h says which signatures and how the function is found):
//   (1) host launcher: tclens writes a small shim .cu that #includes the user's file and exports
//       `extern "C"` entries with a fixed signature, so C++ name mangling and the user's exact
//       parameter types do not matter (each argument is converted to the parameter's type).
//       The toolkit's nvcc builds it into a shared library for this GPU's architecture only
//       (-O3 -lineinfo -Xcompiler -fPIC -shared -cudart shared), keeping the cubin (-keep).
//       The user's launcher takes no stream: it launches on the legacy default stream, and the
//       shim orders that work after the given stream's earlier work and the stream's later work
//       after it (event waits), so the descriptor behaves like a rung's. Given the legacy default
//       stream itself (cudaStreamLegacy or 0), the shim adds nothing around the user's call.
//   (2) directive kernel: NVRTC compiles the file as is (-lineinfo, -arch=sm_XX of the target,
//       -std=c++17, the toolkit's include folder); cuModuleLoadData loads the cubin; launch is
//       cuLaunchKernel with the directive's geometry on the given stream.
//   (3) fragment exercise: built by nvcc as (1), through a shim entry that launches it with one
//       warp (lab 6's exercise file carries its own host test, main(), which NVRTC cannot
//       compile); run by run_fragment_exercise, not loaded as a GEMM.
//
// Every bad input is one line in the Expected's error, naming the file (and line) and what is
// allowed: missing or unreadable file, not a CUDA source (binary data), compile errors as
// `file:line: error: message` of the user's file (never the shim's), discovery and signature
// errors (discovery.h), malformed directives (launch_directive.h), no nvcc.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/expected.h"
#include "kernels/gemm.h"
#include "kernels/user/discovery.h"
#include "kernels/user/fragment_exercise.h"
#include "kernels/user/kernel_ref.h"
#include "kernels/user/launch_directive.h"

namespace tclens::kernels::user {

// A temporary folder that is removed, with everything in it, when the last owner lets go.
class WorkDir;

struct CompileOptions {
    // Compute capability to build for, major * 10 + minor; 0: the current GPU's, or 90 (H100)
    // where there is none. 90 builds sm_90a (wgmma, TMA); others sm_XX.
    int sm = 0;
    // nvcc to use for host launchers; "": $TCLENS_NVCC, else <toolkit>/bin/nvcc, else PATH.
    std::string nvcc;
    // Folder for the shim, library and cubin; "": a fresh one under $TMPDIR (or /tmp), removed
    // when the compiled (and loaded) kernel is gone.
    std::string work_dir;
    // The traced variant: compiled with -DTCLENS_TRACE, so kernels/user_trace.cuh's trace points
    // record (docs/your-kernel.md, "Trace your kernel").
    bool traced = false;
};

struct CompiledKernel {
    KernelRef ref;
    std::string path;       // the user's file, absolute
    std::string source;     // its text as compiled
    Discovered discovered;  // form, function, signature, directive or exercise layout
    std::string id;         // user_kernel_id(ref): "yours.matmul_3"
    int sm = 0;             // what it was built for
    std::string arch;       // "sm_90a"
    // (2): the NVRTC cubin and its lowered (mangled) kernel name.
    std::vector<char> cubin;
    std::string lowered_name;
    // (1), (3): the shared library nvcc built, and the cubin nvcc kept while building it.
    std::string library_path;
    std::string cubin_path;         // also written for (2), for the SASS census
    std::string warnings;           // the compiler's warnings about the user's file, one per line
    double compile_seconds = 0;     // wall time of discovery + compile
    std::shared_ptr<WorkDir> work;  // keeps library_path and cubin_path alive
    bool traced = false;            // CompileOptions::traced
};

// Reads, discovers and compiles. Needs nvcc (forms 1 and 3) or NVRTC (2) but no GPU.
common::Expected<CompiledKernel> compile_user_kernel(const KernelRef& ref,
                                                     const CompileOptions& options);

// The same, on source text instead of a file (`path` names it in diagnostics; form 1 still
// writes it into the work folder for nvcc). For tests and for editors that have unsaved text.
common::Expected<CompiledKernel> compile_user_source(const std::string& source,
                                                     const std::string& path, const KernelRef& ref,
                                                     const CompileOptions& options);

// The traced variant of `compiled` (CompileOptions::traced): the same source text (for nvcc, the
// same file), function and architecture, in a work folder of its own.
common::Expected<CompiledKernel> compile_traced(const CompiledKernel& compiled);

struct LoadedKernel {
    // id = compiled.id; rung 0; title "yours: <function> (<form>)"; precision as discovered;
    // reference_id = the cuBLAS descriptor of that precision; threads, dynamic_smem_bytes from
    // the directive where they do not depend on the sizes; can_run: the directive's launch
    // checks (launch_geometry) for (2), "" for any size for (1); launch: calls the loaded code.
    // The descriptor keeps the loaded module (and the work folder with the cubin) alive: copies
    // of it stay valid after this object is gone.
    // A traced variant (compiled.traced) whose module holds tclens_trace_sink also gets
    // descriptor.traced (kernels/gemm.h): launch sets that sink on the stream, then launches;
    // shape is the directive's grid and warps (a host launcher's are not known: the first
    // kMaxTracedBlocks blocks and 32 warps each may record), records_per_warp
    // user_trace_records_per_warp. Without that sink, traced.launch stays null: no trace points.
    KernelDescriptor descriptor;
    KernelForm form = KernelForm::kHostLauncher;
    std::string cubin_path;   // as compiled.cubin_path
    double load_seconds = 0;  // dlopen / cuModuleLoadData and symbol look-up
    std::shared_ptr<WorkDir> work;
    CompiledKernel compiled;  // what was loaded; compile_traced builds its traced variant
};

// The records one warp of a kernel of yours keeps on a problem of depth `k`: room for 4 phases
// per k16 step plus 64, at most 65536 (phases past it are counted as dropped).
int user_trace_records_per_warp(std::int64_t k);

// Loads a compiled GEMM kernel (forms 1 and 2) on the current CUDA device. Errors: no GPU, a
// cubin for another architecture, the library's symbols missing (dlerror), an exercise
// ("run it with run_fragment_exercise").
common::Expected<std::shared_ptr<LoadedKernel>> load_user_kernel(const CompiledKernel& compiled);

// Loads a compiled exercise (form 3), runs every experiment of plan_exercise on the current
// device and decodes them. Errors: no GPU, CUDA errors of the kernel (one line).
common::Expected<ExerciseReport> run_fragment_exercise(const CompiledKernel& compiled);

}  // namespace tclens::kernels::user
