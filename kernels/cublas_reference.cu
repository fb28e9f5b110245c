// cuBLAS as a rung-0 "kernel": the same-run reference every rung is compared with.
//
// Our matrices are row-major (kernels/gemm.h); cuBLAS is column-major. A row-major M x N matrix
// is the column-major N x M matrix of its transpose, so C = A B is computed as
// C^T = B^T A^T: cuBLAS gets (m, n, k) = (N, M, K), first operand B with ld N, second A with
// ld K, and writes C^T with ld N, i.e. our row-major C. No transposes are executed.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "kernels/cublas_library.h"
#include "kernels/ladder_launches.h"

namespace tclens::kernels {
namespace {

// One handle per host thread (cuBLAS handles are not thread-safe); created on first use, which
// the runner's warm-up absorbs, as is loading cuBLAS itself (cublas_library.h). The stream is set
// on every call.
class ThreadCublas {
  public:
    explicit ThreadCublas(const CublasFunctions& cublas) : cublas_(cublas) {
        status_ = cublas_.create(&handle_);
    }
    ~ThreadCublas() {
        if (status_ == CUBLAS_STATUS_SUCCESS) cublas_.destroy(handle_);
    }
    ThreadCublas(const ThreadCublas&) = delete;
    ThreadCublas& operator=(const ThreadCublas&) = delete;
    cublasHandle_t get() const { return status_ == CUBLAS_STATUS_SUCCESS ? handle_ : nullptr; }

  private:
    const CublasFunctions& cublas_;
    cublasHandle_t handle_ = nullptr;
    cublasStatus_t status_ = CUBLAS_STATUS_NOT_INITIALIZED;
};

cublasHandle_t thread_handle(const CublasFunctions& cublas) {
    static thread_local ThreadCublas handle(cublas);
    return handle.get();
}

struct CublasTypes {
    cudaDataType_t input;
    cublasComputeType_t compute;
};

CublasTypes cublas_types(Precision precision) {
    switch (precision) {
        case Precision::kTF32:
            return {CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32};
        case Precision::kF16:
            return {CUDA_R_16F, CUBLAS_COMPUTE_32F};
        case Precision::kBF16:
            return {CUDA_R_16BF, CUBLAS_COMPUTE_32F};
        case Precision::kF32:
        case Precision::kE4M3:  // cublasGemmEx has no FP8: cublaslt_reference.cu
            break;
    }
    return {CUDA_R_32F, CUBLAS_COMPUTE_32F_PEDANTIC};
}

// cuBLAS status -> the cudaError_t the descriptor contract returns. A failed cuBLAS call that
// left no CUDA error behind is reported as a launch failure.
cudaError_t to_cuda_error(cublasStatus_t status) {
    if (status == CUBLAS_STATUS_SUCCESS) return cudaGetLastError();
    const cudaError_t cuda = cudaGetLastError();
    return cuda != cudaSuccess ? cuda : cudaErrorLaunchFailure;
}

template <Precision kPrecision>
cudaError_t launch_cublas(const GemmOperands& op, cudaStream_t stream) {
    const CublasFunctions* cublas = cublas_functions();
    if (cublas == nullptr) return cudaErrorSharedObjectInitFailed;
    cublasHandle_t handle = thread_handle(*cublas);
    if (handle == nullptr) return cudaErrorInitializationError;
    cublasStatus_t status = cublas->set_stream(handle, stream);
    if (status != CUBLAS_STATUS_SUCCESS) return to_cuda_error(status);
    const CublasTypes types = cublas_types(kPrecision);
    const float one = 1.0f;
    const float zero = 0.0f;
    const auto m = static_cast<int>(op.problem.m);
    const auto n = static_cast<int>(op.problem.n);
    const auto k = static_cast<int>(op.problem.k);
    status = cublas->gemm_ex(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, op.b, types.input, n,
                             op.a, types.input, k, &zero, op.c, CUDA_R_32F, n, types.compute,
                             CUBLAS_GEMM_DEFAULT);
    return to_cuda_error(status);
}

}  // namespace

void attach_cublas_launches(KernelDescriptor& d) {
    switch (d.precision) {
        case Precision::kF32:
            d.launch = launch_cublas<Precision::kF32>;
            return;
        case Precision::kTF32:
            d.launch = launch_cublas<Precision::kTF32>;
            return;
        case Precision::kF16:
            d.launch = launch_cublas<Precision::kF16>;
            return;
        case Precision::kBF16:
            d.launch = launch_cublas<Precision::kBF16>;
            return;
        case Precision::kE4M3:  // cublasGemmEx has no FP8: cublaslt_reference.cu
            return;
    }
}

}  // namespace tclens::kernels
