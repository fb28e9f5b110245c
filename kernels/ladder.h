#pragma once
// The descriptor of every rung, one function per kernels/NN_<idea>.cu file. The registry
// (kernels/registry.h) lists them in ladder order; nothing else should call these directly.

#include "kernels/gemm.h"

namespace tclens::kernels {

KernelDescriptor naive_fma_kernel();                            // 01_naive_fma.cu
KernelDescriptor smem_tiled_kernel();                           // 02_smem_tiled.cu
KernelDescriptor register_tiled_kernel();                       // 03_register_tiled.cu
KernelDescriptor wmma_kernel(Precision precision);              // 04_wmma.cu: kF16 or kBF16
KernelDescriptor mma_tf32_puzzle_kernel();                      // 05_mma_tf32_puzzle.cu
KernelDescriptor mma_tf32_tuned_kernel();                       // 06_mma_tf32_tuned.cu
KernelDescriptor mma_ldmatrix_xor_kernel(Precision precision);  // 07_..., kF16 or kBF16
KernelDescriptor mma_cp_async_kernel(Precision precision);      // 08_..., kF16 or kBF16

// Hopper rungs, kF16 or kBF16, min_sm = 90: they need sm_90a (TMA, mbarrier transactions,
// wgmma) and are stubs in the binaries of other architectures.
KernelDescriptor wgmma_tma_kernel(Precision precision);  // 09_wgmma_tma.cu
KernelDescriptor wgmma_warp_specialized_kernel(
    Precision precision);                                       // 10_wgmma_warp_specialized.cu
KernelDescriptor wgmma_persistent_kernel(Precision precision);  // 11_wgmma_persistent.cu
KernelDescriptor wgmma_stream_k_kernel(Precision precision);    // 12_wgmma_stream_k.cu
// FP8 e4m3 (B stored K-major, kernels/gemm.h), min_sm = 90, sm_90a only as 09-11.
KernelDescriptor wgmma_fp8_kernel();  // 13_wgmma_fp8.cu: "wgmma_fp8.e4m3"
// Rung 14, kF16 or kBF16, min_sm = 90 (it runs rungs 9, 11 and 12): the description
// (14_dispatch.cpp), then its GPU launch attached (14_dispatch.cu).
KernelDescriptor dispatch_kernel(Precision precision);
void attach_dispatch_launches(KernelDescriptor& d);

// cuBLAS in the same run, one descriptor per precision (cublas_reference.cu):
//   kF32  cublasGemmEx, CUBLAS_COMPUTE_32F_PEDANTIC (tensor cores forbidden)
//   kTF32 CUBLAS_COMPUTE_32F_FAST_TF32;  kF16 / kBF16: 16-bit inputs, CUBLAS_COMPUTE_32F
KernelDescriptor cublas_kernel(Precision precision);
// cuBLASLt FP8 in the same run, "cublaslt.e4m3" (cublaslt_reference.cu): e4m3 inputs in the TN
// layout, CUBLAS_COMPUTE_32F, f32 out, scales of 1, rung 13's reference.
KernelDescriptor cublaslt_e4m3_kernel();

}  // namespace tclens::kernels
