#pragma once
// The kernel registry: every rung of the ladder and the cuBLAS references, in one explicit
// list (no static self-registration a static library could drop). Plain C++
// (tclens_kernels_model): it describes them, and no descriptor has a launch (gemm.h); whatever
// launches a kernel takes the GPU registry's descriptor (kernels/gpu_registry.h).

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/gemm.h"

namespace tclens::kernels {

// Every descriptor, ladder order (rung 1 upwards, f16 before bf16), then the cuBLAS references
// (f32, tf32, f16, bf16) and cuBLASLt's e4m3. Built once; the reference stays valid for the
// program's life.
const std::vector<KernelDescriptor>& all_kernels();

// The descriptor with this id, or nullptr.
const KernelDescriptor* find_kernel(const std::string& id);

// Every kernel's id, comma-separated, for the "valid ids" of an error message.
std::string kernel_ids_text();

// What a GPU offers that a kernel may need.
struct DeviceLimits {
    int sm = 0;                           // compute capability, major * 10 + minor
    int smem_per_block_optin = 0;         // bytes of shared memory a block may opt in to
    std::int64_t free_memory_bytes = -1;  // free GPU memory now; < 0: unknown, not checked
};

// Share of the free GPU memory a run may take; the rest stays for cuBLAS and the driver.
inline constexpr double kUsableFreeMemory = 0.8;

// Bytes of GPU memory the runner (runner.h) needs at least to run `kernel` on `problem`: one
// copy of A and B in the kernel's storage type, C in f32 and, where cuBLAS is the reference
// (M*N*K > kCpuReferenceMaxWork), its f32 output and f32 copies of 16-bit inputs, and the guard
// zones around A, B and C (runner.h, guard_zone_bytes: two per buffer).
// Example: naive_fma.f32 on 512x512x512 (CPU reference): A, B and C of 1 MiB and six 512 KiB
// guard zones -> 6291456.
std::int64_t run_memory_bytes(const KernelDescriptor& kernel, const GemmProblem& problem);

// "" when `problem` can be run on a GPU with `limits`, else one line: M, N, K must be >= 1,
// the GPU must have min_sm and the shared memory the kernel asks for, then the kernel's can_run,
// then run_memory_bytes must fit in kUsableFreeMemory of the free memory (when known), e.g.
// "65536x65536x65536 needs 64.00 GiB (68719476736 bytes) of GPU memory; 10.00 GiB are free".
std::string why_not_runnable(const KernelDescriptor& kernel, const GemmProblem& problem,
                             const DeviceLimits& limits);

// "" when the descriptor documents `problem` as one the kernel runs on a GPU with `limits`:
// M, N and K from 1 to kMaxProblemSide, multiples of kernel.size_multiples, and the GPU has
// min_sm and the shared memory the kernel asks for. Else the first of those it breaks, one line:
// "K = 77 is not a multiple of 8", or why_not_runnable's architecture or shared-memory line.
// It never asks can_run or the free memory: it says what can_run must accept, so a test can
// tell a documented refusal from a broken can_run or a run out of memory.
std::string outside_documented_sizes(const KernelDescriptor& kernel, const GemmProblem& problem,
                                     const DeviceLimits& limits);

}  // namespace tclens::kernels
