#include "kernels/sixteen_bit_rung.h"

namespace tclens::kernels {
namespace {

std::string refuse_non_16bit_inputs(const GemmProblem&) {
    return "this rung takes f16 or bf16 inputs only";
}

}  // namespace

bool set_sixteen_bit_inputs(KernelDescriptor& d, Precision precision, const std::string& name,
                            CanRunFunction can_run) {
    d.precision = precision;
    if (precision != Precision::kF16 && precision != Precision::kBF16) {
        d.id.clear();
        d.can_run = refuse_non_16bit_inputs;
        return false;
    }
    const std::string suffix = precision_name(precision);
    d.id = name + "." + suffix;
    d.reference_id = "cublas." + suffix;
    d.can_run = can_run;
    return true;
}

}  // namespace tclens::kernels
