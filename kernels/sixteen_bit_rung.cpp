#include "kernels/sixteen_bit_rung.h"

namespace tclens::kernels {
namespace {

std::string refuse_non_16bit_inputs(const GemmProblem&) {
    return "this rung takes f16 or bf16 inputs only";
}

cudaError_t refuse_launch(const GemmOperands&, cudaStream_t) { return cudaErrorInvalidValue; }

}  // namespace

bool set_sixteen_bit_inputs(KernelDescriptor& d, Precision precision, const std::string& name,
                            CanRunFunction can_run, LaunchFunction launch_f16,
                            LaunchFunction launch_bf16) {
    d.precision = precision;
    if (precision != Precision::kF16 && precision != Precision::kBF16) {
        d.id.clear();
        d.can_run = refuse_non_16bit_inputs;
        d.launch = refuse_launch;
        return false;
    }
    const std::string suffix = precision_name(precision);
    d.id = name + "." + suffix;
    d.reference_id = "cublas." + suffix;
    d.can_run = can_run;
    d.launch = precision == Precision::kF16 ? launch_f16 : launch_bf16;
    return true;
}

}  // namespace tclens::kernels
