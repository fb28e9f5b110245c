#pragma once
// Rung 11's two tiles and its traced variant's shape, shared by its kernel and launch
// (11_wgmma_persistent.cu, on kernels/persistent_gemm.cuh) and its descriptor
// (11_wgmma_persistent.cpp).

#include "kernels/gemm.h"
#include "kernels/persistent_gemm.h"
#include "kernels/wave_choice.h"

namespace tclens::kernels::wgmma_persistent {

// The two tiles of the 2-byte inputs (f16 and bf16 alike; see 11_wgmma_persistent.cu):
// ChosenPersistentShape's 128 x 256, and the same tuning with 128 x 192.
using WideShape = ChosenPersistentShape<2>;
using NarrowShape = PersistentShape<2, 192, 4, 2, 8, 16, 2, true>;

static_assert(has_tile<WideShape>(kPersistentWideTile) &&
                  has_tile<NarrowShape>(kPersistentNarrowTile),
              "the shapes are the tiles kernels/wave_choice.h chooses between");
static_assert(NarrowShape::kSmemBytes < WideShape::kSmemBytes,
              "the descriptor's shared memory (the wide tile's) covers both");
static_assert(NarrowShape::kBlockK == WideShape::kBlockK, "both tiles run 4 wgmma per K tile");

// The traced launch's shape (gemm.h) for `problem` on `clusters` co-resident clusters of the
// wide tile: the tile persistent_tile_for picks, its grid, kThreads / 32 warps, and per warp
// the phases of the most output tiles a cluster takes (defined in 11_wgmma_persistent.cpp).
TracedShape persistent_traced_shape(const GemmProblem& problem, int clusters);

}  // namespace tclens::kernels::wgmma_persistent
