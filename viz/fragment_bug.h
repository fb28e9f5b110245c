#pragma once
// What a wrong C says about the kernel's bug, read from the values themselves. Pure C++.
//
// The error map (error_map.h) says where C is wrong; this says why, for the bugs a fragment or
// block index makes. C is cut into tiles of the instruction the kernel uses (its C operand:
// 16 x 8 for mma.m16n8k16 and m16n8k8); the wrong elements of every tile are folded onto one tile
// (FoldedErrors: how often each place was wrong), and a wrong element that holds the right value
// of another place says where its value came from:
//   place (row, col) -> (lane, reg) of the C fragment: layout.find(Operand::C), one element per
//   32-bit register (sub 0).
// An element is wrong as error_map.h says (is_wrong_element).

#include <cstdint>
#include <string>

#include "viz/error_map.h"
#include "viz/fragment_layout.h"

namespace tclens::viz {

// Folds got against expected (both rows x cols of C, row-major). An empty FoldedErrors (rows 0)
// when the layout has no C operand.
FoldedErrors fold_errors(const float* got, const double* expected, std::int64_t rows,
                         std::int64_t cols, double tolerance, const FragmentLayout& layout);
FoldedErrors fold_errors(const float* got, const float* expected, std::int64_t rows,
                         std::int64_t cols, double tolerance, const FragmentLayout& layout);

// A and B as the kernel was given them, for the rules about its A and B fragments: A is
// rows x depth, B depth x cols, both row-major, as floats (an f16 or bf16 input widened).
struct GemmInputs {
    const float* a = nullptr;
    const float* b = nullptr;
    std::int64_t depth = 0;  // K
};

// One line naming the bug, "" when no rule fits or nothing is wrong. Tried in this order:
//   block tiles (block_rows x block_cols; 0 when not known: squares of 16 to 128 are tried),
//   every wrong block tile wholly wrong and holding the right values of another block tile:
//     "each block tile holds the values of block (y, x): blockIdx.x and blockIdx.y are swapped
//      where C is stored"
//     "each block tile holds the values of the block 1 down: a wrong blockIdx offset"
//   in the instruction tile (at least 90 % of the wrong places agree):
//     "C: every lane's c1 and c2 are exchanged (c1: rows 0-7, odd columns; c2: rows 8-15, even
//      columns of each 16x8 tile)"
//     "C: registers c2, c3 of every lane are wrong (rows 8-15, every column of each 16x8 tile)"
//     "C: lanes 0-3 are wrong in every register (rows 0, 8, every column of each 16x8 tile)"
//   with `inputs`, an exchange of two registers of A or B in every lane, found by computing C
//   from A and B exchanged that way on a sample of the wrong elements:
//     "A: every lane's a1 and a2 are exchanged (a1: rows 8-15, columns 0-7; a2: rows 0-7,
//      columns 8-15 of each 16x16 tile)"
// With `folded`, the fold it made (fold_errors) is left there, so a caller that shows both folds
// C once.
std::string name_fragment_bug(const float* got, const double* expected, std::int64_t rows,
                              std::int64_t cols, double tolerance, const FragmentLayout& layout,
                              int block_rows, int block_cols, const GemmInputs* inputs = nullptr,
                              FoldedErrors* folded = nullptr);
std::string name_fragment_bug(const float* got, const float* expected, std::int64_t rows,
                              std::int64_t cols, double tolerance, const FragmentLayout& layout,
                              int block_rows, int block_cols, const GemmInputs* inputs = nullptr,
                              FoldedErrors* folded = nullptr);

}  // namespace tclens::viz
