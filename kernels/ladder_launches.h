#pragma once
// The launches of the rungs, one function per kernels/NN_<idea>.cu file: each attaches to the
// descriptor of its rung (kernels/ladder.h, built without CUDA) the launch of d.precision's
// instantiation, and the traced launch where the rung has trace points (d.traced.traceable()).
// The GPU registry (kernels/gpu_registry.h) calls them; nothing else should (but for the one
// noted below).

#include "kernels/dispatch_rules.h"
#include "kernels/gemm.h"

namespace tclens::kernels {

void attach_naive_fma_launches(KernelDescriptor& d);        // 01_naive_fma.cu
void attach_smem_tiled_launches(KernelDescriptor& d);       // 02_smem_tiled.cu
void attach_register_tiled_launches(KernelDescriptor& d);   // 03_register_tiled.cu
void attach_wmma_launches(KernelDescriptor& d);             // 04_wmma.cu
void attach_mma_tf32_puzzle_launches(KernelDescriptor& d);  // 05_mma_tf32_puzzle.cu
void attach_mma_tf32_tuned_launches(KernelDescriptor& d);   // 06_mma_tf32_tuned.cu
// 16-bit rungs: d.precision's launch; another precision gets a launch that enqueues nothing
// and returns cudaErrorInvalidValue (kernels/sixteen_bit_launch.h).
void attach_mma_ldmatrix_xor_launches(KernelDescriptor& d);        // 07_mma_ldmatrix_xor.cu
void attach_mma_cp_async_launches(KernelDescriptor& d);            // 08_mma_cp_async.cu, traced too
void attach_wgmma_tma_launches(KernelDescriptor& d);               // 09_wgmma_tma.cu, traced too
void attach_wgmma_warp_specialized_launches(KernelDescriptor& d);  // 10_..., traced too
// 11_wgmma_persistent.cu, traced too; also the traced shape on the clusters that fit on the
// current device (the descriptor's assumes kDefaultPersistentSms), and for_problem's
// descriptors with their launches.
void attach_wgmma_persistent_launches(KernelDescriptor& d);
// 12_wgmma_stream_k.cu, traced too; also the traced shape on the current device's SMs (the
// descriptor's assumes kDefaultPersistentSms).
void attach_wgmma_stream_k_launches(KernelDescriptor& d);
void attach_wgmma_fp8_launches(KernelDescriptor& d);  // 13_wgmma_fp8.cu
// 14_dispatch.cu: the launch that runs rung 14's choice for each problem (the chosen rung's
// launch from the GPU registry, or the split-K GEMM, on zero-padded copies where needed).
void attach_dispatch_launches(KernelDescriptor& d);
// 14_dispatch.cu: `choice` (a configuration and its padded problem) run as rung 14 runs its own
// choice, for the tool that times each configuration rung 14 could pick
// (tests/gpu/tools/dispatch_candidates.cpp). Precondition: dispatch_configuration_can_run(choice,
// precision) == "".
GpuStatus dispatch_choice_launch(const DispatchChoice& choice, Precision precision,
                                 const GemmOperands& operands, GpuStream stream);

// The references: cuBLAS's launch of d.precision (none for kE4M3) and cuBLASLt's FP8 GEMM.
void attach_cublas_launches(KernelDescriptor& d);         // cublas_reference.cu
void attach_cublaslt_e4m3_launches(KernelDescriptor& d);  // cublaslt_reference.cu

}  // namespace tclens::kernels
