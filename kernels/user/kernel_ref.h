#pragma once
// A user's kernel as named on the command line: `--kernel path.cu[:NAME][:TYPE]`.
//
//   path.cu                 the file; which function and which input type come from the file
//   path.cu:launch_matmul   the function to use (a host launcher, a __global__ kernel or a
//                           fragment exercise), unqualified or qualified (ns::launch_matmul)
//   path.cu:tf32            the input type, one of f32, tf32, f16, bf16 (for float inputs it
//                           picks f32 or TF32 tensor cores; for 16-bit inputs it must agree
//                           with the parameters)
//   path.cu:launch:tf32     both, in that order
// The path must end in ".cu" or ".cuh". Pure: nothing here touches the file system.

#include <optional>
#include <string>

#include "common/expected.h"
#include "kernels/gemm.h"

namespace tclens::kernels::user {

struct KernelRef {
    std::string path;   // as given (relative paths are relative to the working folder)
    std::string entry;  // function name, possibly qualified ("ns::fn"); "" = find it in the file
    std::optional<Precision> precision;  // from the ref's TYPE; nullopt = from the file
};

// "examples/x.cu:launch_gemm:tf32" -> {"examples/x.cu", "launch_gemm", kTF32}. The path is the
// text up to the first ".cu" or ".cuh" that ends the text or is followed by ':'. Errors, one
// line naming the value: "kernel 'x.py': not a CUDA file (the path must end in .cu or .cuh)",
// "kernel 'x.cu:9fn': '9fn' is neither a function name nor one of f32, tf32, f16, bf16".
common::Expected<KernelRef> parse_kernel_ref(const std::string& text);

// True when a `--kernel` value names a file rather than a registry id: its part before any
// ":NAME" ends in ".cu" or ".cuh", or it contains a '/'. Registry ids ("mma_cp_async.bf16")
// never do. "x.cu" -> true, "./x" -> true, "wmma.f16" -> false.
bool names_kernel_file(const std::string& value);

// The descriptor id of a loaded kernel: "yours.<file stem>" ("examples/matmul_3.cu" ->
// "yours.matmul_3"), with ".<function>" appended when the ref named one.
std::string user_kernel_id(const KernelRef& ref);

}  // namespace tclens::kernels::user
