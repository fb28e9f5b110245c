#include "kernels/sixteen_bit_launch.h"

namespace tclens::kernels {
namespace {

cudaError_t refuse_launch(const GemmOperands&, cudaStream_t) { return cudaErrorInvalidValue; }

}  // namespace

void attach_sixteen_bit_launch(KernelDescriptor& d, LaunchFunction launch_f16,
                               LaunchFunction launch_bf16) {
    switch (d.precision) {
        case Precision::kF16:
            d.launch = launch_f16;
            return;
        case Precision::kBF16:
            d.launch = launch_bf16;
            return;
        default:
            d.launch = refuse_launch;
            return;
    }
}

}  // namespace tclens::kernels
