#pragma once
// Rung 2's constants, shared by its kernel and launch (02_smem_tiled.cu) and its descriptor
// (02_smem_tiled.cpp).

namespace tclens::kernels::smem_tiled {

inline constexpr int kTile = 32;  // the block tile's rows, columns and K step; threads per side

}  // namespace tclens::kernels::smem_tiled
