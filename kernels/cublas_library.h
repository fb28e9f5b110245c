#pragma once
// cuBLAS and cuBLASLt, loaded at their first use (dlopen) instead of linked: every process that
// links tclens_kernels (the CLI, the GUI, the worker, the tests) otherwise runs cuBLASLt's start-up
// whether it calls cuBLAS or not, measured at 0.35 s and 210 MB of memory per process start on a
// 2-core machine (2026-11-29: `int main() {}` linked with -lcublasLt against none). Only the
// same-run references (cublas_reference.cu, cublaslt_reference.cu) call them, through here.
//
// The libraries are looked up as the linker would find them (the binary's run path, the loader's
// path), then in the toolkit's library folder the build used. Never unloaded.

#include <cublasLt.h>
#include <cublas_v2.h>

#include <string>

namespace tclens::kernels {

// The functions tclens calls, by their exported names (cublas_v2.h maps cublasCreate to
// cublasCreate_v2 and so on).
struct CublasFunctions {
    decltype(&cublasCreate_v2) create = nullptr;
    decltype(&cublasDestroy_v2) destroy = nullptr;
    decltype(&cublasSetStream_v2) set_stream = nullptr;
    // The exported cublasGemmEx, with a cublasComputeType_t (C++ also sees an inline overload).
    cublasStatus_t (*gemm_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                              const void*, const void*, cudaDataType, int, const void*,
                              cudaDataType, int, const void*, void*, cudaDataType, int,
                              cublasComputeType_t, cublasGemmAlgo_t) = nullptr;
};

struct CublasLtFunctions {
    decltype(&cublasLtCreate) create = nullptr;
    decltype(&cublasLtDestroy) destroy = nullptr;
    decltype(&cublasLtMatmul) matmul = nullptr;
    decltype(&cublasLtMatmulAlgoGetHeuristic) algo_get_heuristic = nullptr;
    decltype(&cublasLtMatmulDescCreate) desc_create = nullptr;
    decltype(&cublasLtMatmulDescDestroy) desc_destroy = nullptr;
    decltype(&cublasLtMatmulDescSetAttribute) desc_set_attribute = nullptr;
    decltype(&cublasLtMatmulPreferenceCreate) preference_create = nullptr;
    decltype(&cublasLtMatmulPreferenceDestroy) preference_destroy = nullptr;
    decltype(&cublasLtMatmulPreferenceSetAttribute) preference_set_attribute = nullptr;
    decltype(&cublasLtMatrixLayoutCreate) layout_create = nullptr;
    decltype(&cublasLtMatrixLayoutDestroy) layout_destroy = nullptr;
};

// Loaded on the first call (thread-safe); nullptr when the library or one of its functions cannot
// be found, and then `error` (if given) gets one line, "cannot load cuBLAS: libcublas.so.13: ...",
// which the first call also writes to stderr.
const CublasFunctions* cublas_functions(std::string* error = nullptr);
const CublasLtFunctions* cublaslt_functions(std::string* error = nullptr);

}  // namespace tclens::kernels
