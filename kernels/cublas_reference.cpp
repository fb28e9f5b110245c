// cuBLAS's descriptors, one per precision (their launch: cublas_reference.cu).
#include <cstdint>
#include <string>

#include "kernels/ladder.h"

namespace tclens::kernels {
namespace {

std::string cublas_can_run(const GemmProblem& problem) {
    constexpr std::int64_t kIntMax = 2147483647;
    if (problem.m > kIntMax || problem.n > kIntMax || problem.k > kIntMax) {
        return "cuBLAS takes M, N, K as 32-bit ints: each must be at most 2147483647";
    }
    return "";
}

}  // namespace

KernelDescriptor cublas_kernel(Precision precision) {
    KernelDescriptor d;
    d.rung = 0;
    d.precision = precision;
    d.swizzle = "";
    d.can_run = cublas_can_run;
    switch (precision) {
        case Precision::kF32:
            d.id = "cublas.sgemm";
            d.title = "cuBLAS SGEMM, FP32 (tensor cores forbidden)";
            d.adds =
                "the FP32 reference: CUBLAS_COMPUTE_32F_PEDANTIC keeps every multiply-add in "
                "FP32 on the FMA pipe";
            break;
        case Precision::kTF32:
            d.id = "cublas.tf32";
            d.title = "cuBLAS TF32 tensor cores";
            d.adds = "the TF32 reference: FP32 data, CUBLAS_COMPUTE_32F_FAST_TF32";
            break;
        case Precision::kF16:
            d.id = "cublas.f16";
            d.title = "cuBLAS f16 in, f32 accumulate";
            d.adds = "the f16 reference: CUDA_R_16F inputs, CUBLAS_COMPUTE_32F";
            break;
        case Precision::kBF16:
            d.id = "cublas.bf16";
            d.title = "cuBLAS bf16 in, f32 accumulate";
            d.adds = "the bf16 reference: CUDA_R_16BF inputs, CUBLAS_COMPUTE_32F";
            break;
        case Precision::kE4M3:  // cublasGemmEx has no FP8: cublaslt_e4m3_kernel
            break;
    }
    return d;
}

}  // namespace tclens::kernels
