#include "kernels/gemm.h"

namespace tclens::kernels {

const char* precision_name(Precision precision) {
    switch (precision) {
        case Precision::kF32:
            return "f32";
        case Precision::kTF32:
            return "tf32";
        case Precision::kF16:
            return "f16";
        case Precision::kBF16:
            return "bf16";
        case Precision::kE4M3:
            return "e4m3";
    }
    return "?";
}

std::optional<Precision> precision_from_name(std::string_view name) {
    for (Precision p : {Precision::kF32, Precision::kTF32, Precision::kF16, Precision::kBF16}) {
        if (name == precision_name(p)) return p;
    }
    return std::nullopt;
}

int storage_bytes(Precision precision) {
    switch (precision) {
        case Precision::kF16:
        case Precision::kBF16:
            return 2;
        case Precision::kE4M3:
            return 1;
        case Precision::kF32:
        case Precision::kTF32:
            break;
    }
    return 4;
}

bool b_is_k_major(Precision precision) { return precision == Precision::kE4M3; }

std::int64_t b_row_length(Precision precision, const GemmProblem& problem) {
    return b_is_k_major(precision) ? problem.k : problem.n;
}

std::int64_t b_stride(Precision precision, const GemmOperands& operands) {
    return operands.ldb > 0 ? operands.ldb : b_row_length(precision, operands.problem);
}

}  // namespace tclens::kernels
