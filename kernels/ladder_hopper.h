#pragma once
// The Hopper rungs of the ladder (to be merged into kernels/ladder.h). Each takes kF16 or
// kBF16; min_sm = 90: they need sm_90a (TMA, mbarrier transactions, wgmma) and are stubs in
// the binaries of other architectures.

#include "kernels/gemm.h"

namespace tclens::kernels {

KernelDescriptor wgmma_tma_kernel(Precision precision);               // 09_wgmma_tma.cu
KernelDescriptor wgmma_warp_specialized_kernel(Precision precision);  // 10_wgmma_warp_specialized.cu
KernelDescriptor wgmma_persistent_kernel(Precision precision);        // 11_wgmma_persistent.cu

}  // namespace tclens::kernels
