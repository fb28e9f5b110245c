#pragma once
// One measured arithmetic peak of this GPU (kernels/peak_probe.h measures them): the bench's
// "% of measured peak" divides by it, and recordings carry it. Plain C++ (tclens_kernels_model).

#include <string>

#include "kernels/gemm.h"

namespace tclens::kernels {

struct PeakMeasurement {
    // kF32 (FFMA), kTF32, kF16, kBF16, kE4M3 (tensor cores).
    Precision precision = Precision::kF32;
    // What was timed, e.g. "wgmma.m64n256k16.f32.bf16.bf16" or "mma.sync.m16n8k16.f32.bf16.bf16".
    std::string instruction;
    // 2 * multiply-adds / second (TFLOP/s) of that instruction.
    double tflops = 0;
};

}  // namespace tclens::kernels
