// stmatrix and movmatrix fragment layouts (PTX ISA, "Warp-level matrix store instruction:
// stmatrix" and "Warp-level matrix transpose instruction: movmatrix"), one warp of 32 lanes,
// 8x8 matrices of b16 elements. Both use the ldmatrix fragment (ldmatrix_layouts.h).
//
// stmatrix.sync.aligned.m8n8.x{1,2,4}{.trans}.shared.b16 [p], {r0, ...}: the mirror of
// ldmatrix. The only operand is A, the source registers: register j holds matrix j, and
// row/col are coordinates in the destination tile as it lands in shared memory, matrix j being
// rows 8j..8j+7. Lane 8j+r supplies the address that row 8j+r is written to (address_lanes).
// Without .trans lane 4g+t's register j goes to row g, columns 2t and 2t+1 of matrix j; with
// .trans to column g, rows 2t and 2t+1.
// IDs: stmatrix.x1, stmatrix.x2, stmatrix.x4, stmatrix.x1.trans, stmatrix.x2.trans,
// stmatrix.x4.trans.
//
// movmatrix.sync.aligned.m8n8.trans.b16 d, a: transposes one 8x8 matrix held in registers.
// Operands A (the source register: lane 4g+t holds row g, columns 2t and 2t+1 of the 8x8 matrix
// A) and D (the destination register). D's row/col are coordinates in the source matrix A, as
// for ldmatrix.trans: D = A transposed, so lane 4g+t receives A(2t, g) and A(2t+1, g).
// ID: movmatrix.trans.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "viz/fragment_layout.h"

namespace tclens::viz {

// The stmatrix IDs above, then movmatrix.trans.
std::vector<std::string> matrix_move_layout_ids();

// The layout for one of those IDs, or nullopt.
std::optional<FragmentLayout> matrix_move_layout(std::string_view id);

}  // namespace tclens::viz
