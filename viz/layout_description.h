#pragma once
// Plain-language descriptions of an operand layout, derived from the model (never written by
// hand), in the spirit of "A is split into 4 quadrants, each mapped to one register,
// top-to-bottom then left-to-right; row-major inside".
//
// summarize_operand finds the block structure of an operand: the elements a lane holds, in PTX
// order (element index e = their rank in (reg, sub) order; every holding lane holds the same
// (reg, sub) slots), are cut into groups of
// `per_block` consecutive indices; group b of every holding lane covers one block of
// block_rows x block_cols, the same size for every group; inside a block the holding lanes
// (ranked 0, 1, ... in lane order) fill it row by row or column by column, `lanes_per_line`
// lanes across a line, each holding per_block consecutive elements along the line. For a
// warpgroup (threads = 128) whose warp w holds rows warp_rows * w onward with the same
// pattern, the summary describes warp 0. Of all group sizes that give such a structure, the one
// with the fewest blocks wins (ties: the smaller group).
// When no group size gives blocks, summarize_operand tries bit steps: starting from the first
// holding lane's element 0, flipping lane bit b (or register bit b, or sub bit b) moves the
// element by a fixed (rows, columns) step, the steps adding up for every element (the fragments
// of the PTX ISA that are not blocks, e.g. tcgen05.ld.16x64b, are of this kind). When neither
// fits, the description lists what each register covers.
//
// expand_summary turns a summary back into (lane, reg, sub) -> (row, col) elements; the unit tests
// check that it reproduces every model exactly, so a description cannot claim a structure the
// model does not have.

#include <string>
#include <utility>
#include <vector>

#include "viz/fragment_layout.h"

namespace tclens::viz {

struct BlockPlacement {
    int row;  // top-left corner of the block, inside warp 0's rows
    int col;
};

enum class BlockOrder {
    kColumnsOfBlocks,  // top-to-bottom, then left-to-right
    kRowsOfBlocks,     // left-to-right, then top-to-bottom
    kListed,           // neither: see `blocks`
};

// One bit step: flipping `bit` of the lane / register / sub index moves the element by
// (rows, cols). `holds` false: lanes with that bit flipped hold nothing (lane bits only).
struct BitStep {
    int bit;
    bool holds;
    int rows;
    int cols;
};

struct OperandSummary {
    bool regular = false;      // blocks
    bool bit_steps = false;    // not blocks, but bit steps (fields below the line)
    std::vector<int> holders;  // lanes of warp 0 (or all lanes) that hold elements, ascending
    int warp_rows = 0;         // > 0: warp w holds rows warp_rows * w onward, like warp 0
    int per_block = 0;
    int block_rows = 0;
    int block_cols = 0;
    std::vector<BlockPlacement> blocks;  // block b holds elements b * per_block ...
    BlockOrder order = BlockOrder::kListed;
    bool row_major_inside = true;
    int lanes_per_line = 0;
    // The (reg, sub) slots every holding lane holds, in order (element index -> slot).
    std::vector<std::pair<int, int>> slots;
    // ---- bit steps ----
    int base_lane = 0;
    MatrixCoord base{0, 0};  // where base_lane's first slot lies
    std::vector<BitStep> lane_steps, reg_steps, sub_steps;
};

OperandSummary summarize_operand(const OperandLayout& operand, int threads);

// The elements a summary describes, ordered by lane, reg, sub (empty if neither regular nor
// bit_steps).
std::vector<LayoutElement> expand_summary(const OperandSummary& summary,
                                          const OperandLayout& operand, int threads);

// One paragraph for `operand` of `layout`: its shape and type, who holds it, its block structure
// (or, when irregular, what each register covers), then operand.note. Example, mma.m16n8k16.f16
// operand A: "A (16x16, f16, 4 registers per lane): split into 4 blocks of 8x8, one per register
// (a0, a1, a2, a3), top-to-bottom then left-to-right; row-major inside: lane 4g+t holds row g,
// columns 2t..2t+1 of the block."
std::string describe_operand(const FragmentLayout& layout, const OperandLayout& operand);

// The element type token of `operand` as the PTX instruction of `layout` spells it ("f16",
// "e4m3", ...), else "b<bits>". Type suffixes come in the order D, A, B, C (mma.sync: 4, wgmma:
// 3); ldmatrix-like instructions have one type for every operand.
std::string operand_type(const FragmentLayout& layout, const OperandLayout& operand);

}  // namespace tclens::viz
