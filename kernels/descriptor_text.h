#pragma once
// A kernel descriptor's fields as table text: one format for `tclens kernels` and the Kernels
// panel.

#include <string>

#include "kernels/gemm.h"

namespace tclens::kernels {

// {128, 256, 64} -> "128x256x64"; {64, 64, 0} -> "64x64" (warp and thread tiles have no k);
// "-" for a tile the kernel does not have ({0, 0, 0}).
std::string tile_text(const TileShape& tile);

// "bf16/f32": what A and B hold / what the sums are kept in.
std::string types_text(const KernelDescriptor& kernel);

}  // namespace tclens::kernels
