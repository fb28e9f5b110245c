#include "kernels/registry.h"

#include <cstdio>

#include "common/text.h"
#include "kernels/ladder.h"
#include "kernels/problem_text.h"
#include "kernels/run_result.h"

namespace tclens::kernels {
namespace {

std::vector<KernelDescriptor> register_all_kernels() {
    return {
        naive_fma_kernel(),
        smem_tiled_kernel(),
        register_tiled_kernel(),
        wmma_kernel(Precision::kF16),
        wmma_kernel(Precision::kBF16),
        mma_tf32_puzzle_kernel(),
        mma_tf32_tuned_kernel(),
        mma_ldmatrix_xor_kernel(Precision::kF16),
        mma_ldmatrix_xor_kernel(Precision::kBF16),
        mma_cp_async_kernel(Precision::kF16),
        mma_cp_async_kernel(Precision::kBF16),
        wgmma_tma_kernel(Precision::kF16),
        wgmma_tma_kernel(Precision::kBF16),
        wgmma_warp_specialized_kernel(Precision::kF16),
        wgmma_warp_specialized_kernel(Precision::kBF16),
        wgmma_persistent_kernel(Precision::kF16),
        wgmma_persistent_kernel(Precision::kBF16),
        wgmma_stream_k_kernel(Precision::kF16),
        wgmma_stream_k_kernel(Precision::kBF16),
        wgmma_fp8_kernel(),
        dispatch_kernel(Precision::kF16),
        dispatch_kernel(Precision::kBF16),
        dispatch_kernel(Precision::kE4M3),
        cublas_kernel(Precision::kF32),
        cublas_kernel(Precision::kTF32),
        cublas_kernel(Precision::kF16),
        cublas_kernel(Precision::kBF16),
        cublaslt_e4m3_kernel(),
    };
}

// min_sm and the shared memory the kernel asks for: "" or one line.
std::string architecture_refusal(const KernelDescriptor& kernel, const DeviceLimits& limits) {
    if (limits.sm < kernel.min_sm) {
        return kernel.id + " needs sm_" + std::to_string(kernel.min_sm) +
               " or newer; this GPU is sm_" + std::to_string(limits.sm);
    }
    if (kernel.dynamic_smem_bytes > limits.smem_per_block_optin) {
        return kernel.id + " needs " + std::to_string(kernel.dynamic_smem_bytes / 1024) +
               " KiB of shared memory per block; this GPU allows " +
               std::to_string(limits.smem_per_block_optin / 1024) + " KiB";
    }
    return "";
}

}  // namespace

const std::vector<KernelDescriptor>& all_kernels() {
    static const std::vector<KernelDescriptor> kernels = register_all_kernels();
    return kernels;
}

const KernelDescriptor* find_kernel(const std::string& id) {
    for (const KernelDescriptor& kernel : all_kernels()) {
        if (kernel.id == id) return &kernel;
    }
    return nullptr;
}

std::string kernel_ids_text() {
    return common::join(all_kernels(), ", ", [](const KernelDescriptor& k) { return k.id; });
}

std::int64_t run_memory_bytes(const KernelDescriptor& kernel, const GemmProblem& p) {
    const std::int64_t a_count = p.m * p.k;
    const std::int64_t b_count = p.k * p.n;
    const std::int64_t c_count = p.m * p.n;
    const int elem = storage_bytes(kernel.precision);
    const bool cpu_reference = p.m * p.n * p.k <= kCpuReferenceMaxWork;
    const std::int64_t reference_bytes =
        cpu_reference ? 0 : c_count * 4 + (elem == 4 ? 0 : (a_count + b_count) * 4);
    const std::int64_t guards = 2 * (guard_zone_bytes(p.k * elem) +
                                     guard_zone_bytes(b_row_length(kernel.precision, p) * elem) +
                                     guard_zone_bytes(p.n * 4));
    return (a_count + b_count) * elem + c_count * 4 + reference_bytes + guards;
}

std::string outside_documented_sizes(const KernelDescriptor& kernel, const GemmProblem& problem,
                                     const DeviceLimits& limits) {
    const struct {
        const char* name;
        std::int64_t value;
        int multiple;
    } sides[] = {{"M", problem.m, kernel.size_multiples.m},
                 {"N", problem.n, kernel.size_multiples.n},
                 {"K", problem.k, kernel.size_multiples.k}};
    for (const auto& side : sides) {
        if (side.value < 1 || side.value > kMaxProblemSide) {
            return std::string(side.name) + " = " + std::to_string(side.value) + " is outside 1.." +
                   std::to_string(kMaxProblemSide);
        }
        if (side.multiple > 1 && side.value % side.multiple != 0) {
            return std::string(side.name) + " = " + std::to_string(side.value) +
                   " is not a multiple of " + std::to_string(side.multiple);
        }
    }
    return architecture_refusal(kernel, limits);
}

std::string why_not_runnable(const KernelDescriptor& kernel, const GemmProblem& problem,
                             const DeviceLimits& limits) {
    if (problem.m < 1 || problem.n < 1 || problem.k < 1) {
        return "M, N and K must each be at least 1";
    }
    if (std::string refusal = architecture_refusal(kernel, limits); !refusal.empty()) {
        return refusal;
    }
    const std::string cannot = kernel.can_run(problem);
    if (!cannot.empty() || limits.free_memory_bytes < 0) return cannot;
    const std::int64_t needed = run_memory_bytes(kernel, problem);
    const auto usable = static_cast<std::int64_t>(static_cast<double>(limits.free_memory_bytes) *
                                                  kUsableFreeMemory);
    if (needed <= usable) return "";
    auto gib = [](std::int64_t bytes) {
        char text[32];
        std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(bytes) / (1 << 30));
        return std::string(text);
    };
    return problem_text(problem) + " needs " + gib(needed) + " (" + std::to_string(needed) +
           " bytes) of GPU memory; " + gib(limits.free_memory_bytes) + " are free";
}

}  // namespace tclens::kernels
