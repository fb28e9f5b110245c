#pragma once
// The descriptor of every rung, one function per kernels/NN_<idea>.cpp file (plain C++, in
// tclens_kernels_model): what the rung is, without its launch, which kernels/ladder_launches.h
// attaches in the CUDA layer. The registry (kernels/registry.h) lists them in ladder order, the GPU
// registry (kernels/gpu_registry.h) with their launches; nothing else should call these directly.

#include "kernels/gemm.h"

namespace tclens::kernels {

KernelDescriptor naive_fma_kernel();                            // 01_naive_fma.cpp
KernelDescriptor smem_tiled_kernel();                           // 02_smem_tiled.cpp
KernelDescriptor register_tiled_kernel();                       // 03_register_tiled.cpp
KernelDescriptor wmma_kernel(Precision precision);              // 04_wmma.cpp: kF16 or kBF16
KernelDescriptor mma_tf32_puzzle_kernel();                      // 05_mma_tf32_puzzle.cpp
KernelDescriptor mma_tf32_tuned_kernel();                       // 06_mma_tf32_tuned.cpp
KernelDescriptor mma_ldmatrix_xor_kernel(Precision precision);  // 07_..., kF16 or kBF16
KernelDescriptor mma_cp_async_kernel(Precision precision);      // 08_..., kF16 or kBF16

// Hopper rungs, kF16 or kBF16, min_sm = 90: they need sm_90a (TMA, mbarrier transactions,
// wgmma) and are stubs in the binaries of other architectures.
KernelDescriptor wgmma_tma_kernel(Precision precision);  // 09_wgmma_tma.cpp
KernelDescriptor wgmma_warp_specialized_kernel(
    Precision precision);                                       // 10_wgmma_warp_specialized.cpp
KernelDescriptor wgmma_persistent_kernel(Precision precision);  // 11_wgmma_persistent.cpp
KernelDescriptor wgmma_stream_k_kernel(Precision precision);    // 12_wgmma_stream_k.cpp
// FP8 e4m3 (B stored K-major, kernels/gemm.h), min_sm = 90, sm_90a only as 09-11.
KernelDescriptor wgmma_fp8_kernel();  // 13_wgmma_fp8.cpp: "wgmma_fp8.e4m3"
// Rung 14, kF16 or kBF16 (it runs rungs 9, 11 and 12 or a split-K GEMM) or kE4M3 (rung 13's
// kernel on three tiles, or split-K), min_sm = 90: 14_dispatch.cpp; its launch: 14_dispatch.cu
// (ladder_launches.h).
KernelDescriptor dispatch_kernel(Precision precision);

// cuBLAS in the same run, one descriptor per precision (cublas_reference.cpp; its launch
// cublas_reference.cu):
//   kF32  cublasGemmEx, CUBLAS_COMPUTE_32F_PEDANTIC (tensor cores forbidden)
//   kTF32 CUBLAS_COMPUTE_32F_FAST_TF32;  kF16 / kBF16: 16-bit inputs, CUBLAS_COMPUTE_32F
KernelDescriptor cublas_kernel(Precision precision);
// cuBLASLt FP8 in the same run, "cublaslt.e4m3" (cublaslt_reference.cpp / .cu): e4m3 inputs in the
// TN layout, CUBLAS_COMPUTE_32F, f32 out, scales of 1, rung 13's reference.
KernelDescriptor cublaslt_e4m3_kernel();

}  // namespace tclens::kernels
