#include "kernels/gpu_registry.h"

#include "kernels/ladder_launches.h"
#include "kernels/registry.h"

namespace tclens::kernels {
namespace {

// Attaches the launches of the rung file that `d` comes from.
void attach_launches(KernelDescriptor& d) {
    switch (d.rung) {
        case 0:
            if (d.precision == Precision::kE4M3) {
                attach_cublaslt_e4m3_launches(d);
            } else {
                attach_cublas_launches(d);
            }
            break;
        case 1:
            attach_naive_fma_launches(d);
            break;
        case 2:
            attach_smem_tiled_launches(d);
            break;
        case 3:
            attach_register_tiled_launches(d);
            break;
        case 4:
            attach_wmma_launches(d);
            break;
        case 5:
            attach_mma_tf32_puzzle_launches(d);
            break;
        case 6:
            attach_mma_tf32_tuned_launches(d);
            break;
        case 7:
            attach_mma_ldmatrix_xor_launches(d);
            break;
        case 8:
            attach_mma_cp_async_launches(d);
            break;
        case 9:
            attach_wgmma_tma_launches(d);
            break;
        case 10:
            attach_wgmma_warp_specialized_launches(d);
            break;
        case 11:
            attach_wgmma_persistent_launches(d);
            break;
        case 12:
            attach_wgmma_stream_k_launches(d);
            break;
        case 13:
            attach_wgmma_fp8_launches(d);
            break;
        case 14:
            attach_dispatch_launches(d);
            break;
        default:
            break;
    }
}

std::vector<KernelDescriptor> launchable_kernels() {
    std::vector<KernelDescriptor> kernels = all_kernels();
    for (KernelDescriptor& kernel : kernels) attach_launches(kernel);
    return kernels;
}

}  // namespace

const std::vector<KernelDescriptor>& all_gpu_kernels() {
    static const std::vector<KernelDescriptor> kernels = launchable_kernels();
    return kernels;
}

const KernelDescriptor* find_gpu_kernel(const std::string& id) {
    for (const KernelDescriptor& kernel : all_gpu_kernels()) {
        if (kernel.id == id) return &kernel;
    }
    return nullptr;
}

}  // namespace tclens::kernels
