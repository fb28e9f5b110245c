#pragma once
// Rung 1's constants, shared by its kernel and launch (01_naive_fma.cu) and its descriptor
// (01_naive_fma.cpp).

namespace tclens::kernels::naive_fma {

inline constexpr int kBlockCols = 32;  // threadIdx.x: columns of C, one warp wide
inline constexpr int kBlockRows = 8;   // threadIdx.y: rows of C

}  // namespace tclens::kernels::naive_fma
