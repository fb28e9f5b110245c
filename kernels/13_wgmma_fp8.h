#pragma once
// Rung 13's shape, shared by its kernel and launch (13_wgmma_fp8.cu, rung 11's kernel from
// kernels/persistent_gemm.cuh) and its descriptor (13_wgmma_fp8.cpp).

#include "kernels/persistent_gemm.h"

namespace tclens::kernels::wgmma_fp8 {

// Rung 11's tuning with 1-byte (e4m3) inputs: 128 x 256 x 128 tiles, the same stages, cluster,
// bands and epilogue to the byte.
using Fp8Shape = ChosenPersistentShape<1>;

}  // namespace tclens::kernels::wgmma_fp8
