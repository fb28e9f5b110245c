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
    return precision == Precision::kF16 || precision == Precision::kBF16 ? 2 : 4;
}

}  // namespace tclens::kernels
