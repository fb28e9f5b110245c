// Rung 14's FP8 configurations of the persistent kernel on the GPU (kernels/fp8_dispatch.cuh):
// rung 13's kernel instantiated for the smaller tiles of kernels/13_wgmma_fp8.h.
#include <cuda_fp8.h>

#include "kernels/13_wgmma_fp8.h"
#include "kernels/fp8_dispatch.cuh"
#include "kernels/persistent_gemm.cuh"

namespace tclens::kernels {
namespace {

using Config192 = PersistentConfigOf<__nv_fp8_e4m3, wgmma_fp8::Fp8Shape192>;
using Config128 = PersistentConfigOf<__nv_fp8_e4m3, wgmma_fp8::Fp8Shape128>;

}  // namespace

cudaError_t fp8_configuration_launch(const DispatchChoice& choice, const GemmOperands& operands,
                                     cudaStream_t stream) {
    switch (choice.config) {
        case DispatchConfig::kFp8Tile192:
            return persistent_launch<Config192>(operands, stream);
        case DispatchConfig::kFp8Tile128:
            return persistent_launch<Config128>(operands, stream);
        default:
            return cudaErrorInvalidValue;
    }
}

}  // namespace tclens::kernels
