// ldmatrix fragment layouts (PTX ISA, "Warp-level matrix load instruction: ldmatrix"):
// ldmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}.shared.b16, one warp of 32 lanes.
//
// The only operand is D, the destination registers: register j receives 8x8 matrix j. Rows and
// columns are coordinates in the source tile as stored in shared memory, matrix j being rows
// 8j..8j+7 (rows = 8 x matrices, cols = 8), so `.trans` changes which lane receives an element,
// never where the element sits in the tile. Lane 8j+r supplies the address of row 8j+r
// (FragmentLayout::address_lanes).
//
// IDs: ldmatrix.x1, ldmatrix.x2, ldmatrix.x4, ldmatrix.x1.trans, ldmatrix.x2.trans,
// ldmatrix.x4.trans.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "viz/fragment_layout.h"

namespace tclens::viz {

// The ldmatrix IDs above, in that order.
std::vector<std::string> ldmatrix_layout_ids();

// The layout for an ldmatrix ID, or nullopt if `id` is not one.
std::optional<FragmentLayout> ldmatrix_layout(std::string_view id);

// (lane, reg, sub) -> (row, col) in the tile of 8x8 b16 matrices, matrix `reg` being rows
// 8*reg .. 8*reg+7. Without `trans` lane 4g+t holds row g, columns 2t and 2t+1 of its matrix (a
// group of four lanes holds one row); with `trans` it holds column g, rows 2t and 2t+1. stmatrix
// and movmatrix (matrix_move_layouts.h) use the same fragment.
// lane 5, r0 sub 1 -> (1, 3); with trans -> (3, 1)
MatrixCoord ldmatrix_coord(bool trans, int lane, int reg, int sub);

}  // namespace tclens::viz
