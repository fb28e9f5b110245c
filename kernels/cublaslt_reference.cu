// cuBLASLt FP8 as a rung-0 "kernel": the same-run reference of rung 13 (cublasGemmEx has no FP8).
//
// Same types and scaling as the rung: A and B e4m3 (CUDA_R_8F_E4M3), CUBLAS_COMPUTE_32F with f32
// alpha = 1 and beta = 0, C and D f32, the per-tensor scales (A/B_SCALE_POINTER) left unset,
// which cuBLASLt reads as 1, and fast accumulation on (CUBLASLT_MATMUL_DESC_FAST_ACCUM = 1: no
// promotion of partial sums, as rung 13; kernels/runner.h on what that costs).
//
// Layout. cuBLASLt's FP8 GEMM requires "TN": the first operand transposed, the second not, both
// K-major, which is how kernels/gemm.h stores e4m3 (A M x K row-major, B as B^T, N x K
// row-major). cuBLASLt is column-major, so it computes D^T = C^T (N x M, ld N: our row-major C)
// as op(A') op(B') with m' = N, n' = M, k' = K:
//   A' = our B^T seen column-major as K x N with ld K, transposed (op T): op(A')[n][k] = B[k][n];
//   B' = our A seen column-major as K x M with ld K, not transposed:   op(B')[k][m] = A[m][k];
// so D' = B^T A^T = (A B)^T. No data moves. cuBLASLt also wants 16-byte aligned leading
// dimensions for FP8 (K bytes of A and B^T, N floats of D), which can_run asks for.
#include <cublasLt.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "kernels/cublas_library.h"
#include "kernels/ladder_launches.h"

namespace tclens::kernels {
namespace {

constexpr std::size_t kWorkspaceBytes = std::size_t{32} << 20;

// One handle, workspace and plan per host thread (cuBLASLt handles are not thread-safe). The plan
// (descriptors, layouts, the heuristic's algorithm) is kept for the last problem, so a timed
// launch does no host work beyond cublasLtMatmul itself; the first launch at a new size (the
// runner's verification run) builds it.
class ThreadCublasLt {
  public:
    explicit ThreadCublasLt(const CublasLtFunctions& lt) : lt_(lt) {}
    ~ThreadCublasLt() {
        release_plan();
        if (workspace_ != nullptr) cudaFree(workspace_);
        if (handle_ != nullptr) lt_.destroy(handle_);
    }
    ThreadCublasLt(const ThreadCublasLt&) = delete;
    ThreadCublasLt& operator=(const ThreadCublasLt&) = delete;

    cublasStatus_t matmul(const GemmOperands& op, cudaStream_t stream) {
        cublasStatus_t status = prepare(op.problem);
        if (status != CUBLAS_STATUS_SUCCESS) return status;
        const float one = 1.0f;
        const float zero = 0.0f;
        return lt_.matmul(handle_, desc_, &one, op.b, b_layout_, op.a, a_layout_, &zero, op.c,
                          c_layout_, op.c, c_layout_, &algo_, workspace_, kWorkspaceBytes, stream);
    }

  private:
    // Handle, workspace and the plan for `p` (kept when p is the last problem).
    cublasStatus_t prepare(const GemmProblem& p) {
        if (handle_ == nullptr) {
            const cublasStatus_t status = lt_.create(&handle_);
            if (status != CUBLAS_STATUS_SUCCESS) {
                handle_ = nullptr;
                return status;
            }
        }
        if (workspace_ == nullptr && cudaMalloc(&workspace_, kWorkspaceBytes) != cudaSuccess) {
            workspace_ = nullptr;
            return CUBLAS_STATUS_ALLOC_FAILED;
        }
        if (planned_ && same_problem(p, planned_for_)) {
            return CUBLAS_STATUS_SUCCESS;
        }
        release_plan();
        const auto m = static_cast<std::uint64_t>(p.m);
        const auto n = static_cast<std::uint64_t>(p.n);
        const auto k = static_cast<std::uint64_t>(p.k);
        const cublasOperation_t transpose = CUBLAS_OP_T;
        const cublasOperation_t none = CUBLAS_OP_N;
        const std::int8_t fast_accumulation = 1;
        cublasStatus_t s = lt_.desc_create(&desc_, CUBLAS_COMPUTE_32F, CUDA_R_32F);
        if (s == CUBLAS_STATUS_SUCCESS)
            s = lt_.desc_set_attribute(desc_, CUBLASLT_MATMUL_DESC_TRANSA, &transpose,
                                       sizeof transpose);
        if (s == CUBLAS_STATUS_SUCCESS)
            s = lt_.desc_set_attribute(desc_, CUBLASLT_MATMUL_DESC_TRANSB, &none, sizeof none);
        if (s == CUBLAS_STATUS_SUCCESS)
            s = lt_.desc_set_attribute(desc_, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast_accumulation,
                                       sizeof fast_accumulation);
        // A' = B^T stored K x N (ld K), B' = A stored K x M (ld K), C' = D' = C^T N x M (ld N).
        if (s == CUBLAS_STATUS_SUCCESS)
            s = lt_.layout_create(&b_layout_, CUDA_R_8F_E4M3, k, n, static_cast<std::int64_t>(k));
        if (s == CUBLAS_STATUS_SUCCESS)
            s = lt_.layout_create(&a_layout_, CUDA_R_8F_E4M3, k, m, static_cast<std::int64_t>(k));
        if (s == CUBLAS_STATUS_SUCCESS)
            s = lt_.layout_create(&c_layout_, CUDA_R_32F, n, m, static_cast<std::int64_t>(n));
        cublasLtMatmulPreference_t preference = nullptr;
        if (s == CUBLAS_STATUS_SUCCESS) s = lt_.preference_create(&preference);
        if (s == CUBLAS_STATUS_SUCCESS)
            s = lt_.preference_set_attribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                             &kWorkspaceBytes, sizeof kWorkspaceBytes);
        cublasLtMatmulHeuristicResult_t heuristic = {};
        int found = 0;
        if (s == CUBLAS_STATUS_SUCCESS)
            s = lt_.algo_get_heuristic(handle_, desc_, b_layout_, a_layout_, c_layout_, c_layout_,
                                       preference, 1, &heuristic, &found);
        if (preference != nullptr) lt_.preference_destroy(preference);
        if (s == CUBLAS_STATUS_SUCCESS && found == 0) s = CUBLAS_STATUS_NOT_SUPPORTED;
        if (s != CUBLAS_STATUS_SUCCESS) {
            release_plan();
            return s;
        }
        algo_ = heuristic.algo;
        planned_ = true;
        planned_for_ = p;
        return CUBLAS_STATUS_SUCCESS;
    }

    void release_plan() {
        if (desc_ != nullptr) lt_.desc_destroy(desc_);
        for (cublasLtMatrixLayout_t* layout : {&a_layout_, &b_layout_, &c_layout_}) {
            if (*layout != nullptr) lt_.layout_destroy(*layout);
            *layout = nullptr;
        }
        desc_ = nullptr;
        planned_ = false;
    }

    const CublasLtFunctions& lt_;
    cublasLtHandle_t handle_ = nullptr;
    void* workspace_ = nullptr;
    bool planned_ = false;
    GemmProblem planned_for_;
    cublasLtMatmulDesc_t desc_ = nullptr;
    cublasLtMatrixLayout_t a_layout_ = nullptr;
    cublasLtMatrixLayout_t b_layout_ = nullptr;
    cublasLtMatrixLayout_t c_layout_ = nullptr;
    cublasLtMatmulAlgo_t algo_ = {};
};

// cuBLAS status -> the cudaError_t the descriptor contract returns; a failed call that left no
// CUDA error behind (no algorithm for these types, say) reads as a launch failure.
cudaError_t to_cuda_error(cublasStatus_t status) {
    if (status == CUBLAS_STATUS_SUCCESS) return cudaGetLastError();
    const cudaError_t cuda = cudaGetLastError();
    return cuda != cudaSuccess ? cuda : cudaErrorLaunchFailure;
}

cudaError_t launch_cublaslt_e4m3(const GemmOperands& op, cudaStream_t stream) {
    const CublasLtFunctions* functions = cublaslt_functions();
    if (functions == nullptr) return cudaErrorSharedObjectInitFailed;
    static thread_local ThreadCublasLt lt(*functions);
    return to_cuda_error(lt.matmul(op, stream));
}

}  // namespace

void attach_cublaslt_e4m3_launches(KernelDescriptor& d) { d.launch = launch_cublaslt_e4m3; }

}  // namespace tclens::kernels
