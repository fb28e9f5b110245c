#pragma once
// What every rung with 16-bit inputs (04 and 07-11: f16 or bf16, one descriptor each) says per
// precision in its descriptor, in one place: the id suffix, the cuBLAS reference and the
// refusal of another precision. Pure C++; the launch of each precision is attached by
// kernels/sixteen_bit_launch.h. The rung file keeps only what its idea adds.

#include <string>

#include "kernels/gemm.h"

namespace tclens::kernels {

using CanRunFunction = std::string (*)(const GemmProblem& problem);

// For kF16 and kBF16: sets d.id = name + ".f16" / ".bf16", d.precision, d.reference_id =
// "cublas.f16" / "cublas.bf16" and d.can_run = can_run, and returns true. Any other precision is
// a bug in the registry list: d.id stays "", d.precision is set and d.can_run refuses every
// problem ("this rung takes f16 or bf16 inputs only"); returns false.
// Example: (d, kBF16, "wgmma_tma", ...) -> d.id "wgmma_tma.bf16", reference "cublas.bf16".
bool set_sixteen_bit_inputs(KernelDescriptor& d, Precision precision, const std::string& name,
                            CanRunFunction can_run);

}  // namespace tclens::kernels
