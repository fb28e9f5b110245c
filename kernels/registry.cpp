#include "kernels/registry.h"

#include "kernels/ladder.h"

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
        cublas_kernel(Precision::kF32),
        cublas_kernel(Precision::kTF32),
        cublas_kernel(Precision::kF16),
        cublas_kernel(Precision::kBF16),
    };
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

std::string why_not_runnable(const KernelDescriptor& kernel, const GemmProblem& problem,
                             const DeviceLimits& limits) {
    const int sm = limits.sm;
    if (problem.m < 1 || problem.n < 1 || problem.k < 1) {
        return "M, N and K must each be at least 1";
    }
    if (sm < kernel.min_sm) {
        return kernel.id + " needs sm_" + std::to_string(kernel.min_sm) + " or newer; this GPU is sm_" +
               std::to_string(sm);
    }
    if (kernel.dynamic_smem_bytes > limits.smem_per_block_optin) {
        return kernel.id + " needs " + std::to_string(kernel.dynamic_smem_bytes / 1024) +
               " KiB of shared memory per block; this GPU allows " +
               std::to_string(limits.smem_per_block_optin / 1024) + " KiB";
    }
    return kernel.can_run(problem);
}

}  // namespace tclens::kernels
