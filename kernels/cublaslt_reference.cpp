// cuBLASLt's FP8 descriptor (its launch: cublaslt_reference.cu).
#include <cstdint>
#include <string>

#include "kernels/ladder.h"

namespace tclens::kernels {
namespace {

std::string cublaslt_e4m3_can_run(const GemmProblem& problem) {
    constexpr std::int64_t kIntMax = 2147483647;
    if (problem.m > kIntMax || problem.n > kIntMax || problem.k > kIntMax) {
        return "cuBLASLt takes M, N, K up to 2147483647";
    }
    if (problem.k % 16 != 0) {
        return "K must be a multiple of 16: cuBLASLt's FP8 GEMM needs the leading dimensions of "
               "A and B^T (K bytes) to be multiples of 16 bytes";
    }
    if (problem.n % 4 != 0) {
        return "N must be a multiple of 4: cuBLASLt's FP8 GEMM needs C's leading dimension (N "
               "floats) to be a multiple of 16 bytes";
    }
    return "";
}

}  // namespace

KernelDescriptor cublaslt_e4m3_kernel() {
    KernelDescriptor d;
    d.id = "cublaslt.e4m3";
    d.rung = 0;
    d.precision = Precision::kE4M3;
    d.swizzle = "";
    d.min_sm = 89;  // FP8 tensor cores: Ada and Hopper
    d.title = "cuBLASLt FP8 e4m3 in, f32 accumulate and out";
    d.adds =
        "the FP8 reference: CUDA_R_8F_E4M3 inputs in the TN layout, CUBLAS_COMPUTE_32F, f32 D, "
        "scales of 1, fast accumulation";
    d.size_multiples = {1, 4, 16};
    d.can_run = cublaslt_e4m3_can_run;
    return d;
}

}  // namespace tclens::kernels
