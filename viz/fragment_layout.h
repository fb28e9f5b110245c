// Fragment layouts: which thread register holds which element of a Tensor Core operand.
//
// A layout answers, for one PTX instruction, "lane L, register r, element s of that register
// holds element (row, col) of operand X". The conventions are the ones of the layout JSON
// format in docs/json-formats.md:
//   - `reg` is the index of the register in the instruction's PTX operand list for that operand
//     (a0, a1, ...). Registers are 32 bits wide, except for f64 operands, whose registers are
//     64 bits wide.
//   - `sub` is the element's position inside that register, low bits first: 0 for 32/64-bit
//     elements, 0..1 for 16-bit, 0..3 for 8-bit.
//   - `row`/`col` are coordinates in the operand matrix: A is M x K, B is K x N, C/D are M x N.
//     For ldmatrix they are coordinates in the source tile as stored in shared memory.
// Every layout here is dense: each (lane, reg, sub) of the operand holds exactly one element
// and each matrix element is held by exactly one (lane, reg, sub).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tclens::viz {

enum class Operand { A, B, C, D };

struct LayoutElement {
    int lane;
    int reg;
    int sub;
    int row;
    int col;
};

struct OperandLayout {
    Operand operand;
    int rows;
    int cols;
    int elem_bits;
    int regs_per_thread;                  // registers in the PTX operand list, per thread
    std::vector<LayoutElement> elements;  // ordered by lane, then reg, then sub
};

struct FragmentLayout {
    std::string id;   // e.g. "mma.m16n8k8.tf32"
    std::string ptx;  // full instruction, e.g. "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"
    int threads;      // 32, or 128 for wgmma (lanes are thread indices within the warpgroup)
    // mma: A, B, C, D. ldmatrix: D only. wgmma: A and D only; see wgmma_layouts.h for why.
    std::vector<OperandLayout> operands;
    // ldmatrix only (empty otherwise): address_lanes[row] is the lane that supplies the
    // shared-memory address of source-tile row `row`.
    std::vector<int> address_lanes;

    // The layout of `op`, or nullptr if this instruction has no register fragment for it.
    const OperandLayout* find(Operand op) const;
};

// Every layout ID, in a stable order: mma.sync shapes, then ldmatrix, then wgmma by N.
std::vector<std::string> fragment_layout_ids();

// fragment_layout_ids() for an error message, on one line; the 32 wgmma shapes are folded
// into "wgmma.m64nNk16.f16 (N = 8, 16, ..., 256)".
std::string fragment_layout_ids_text();

// The layout for `id`, or nullopt if `id` is not one of fragment_layout_ids().
std::optional<FragmentLayout> fragment_layout(std::string_view id);

// 'A'..'D'.
char operand_letter(Operand op);

// "A".."D" (upper case only) -> operand; nullopt for anything else.
std::optional<Operand> parse_operand(std::string_view text);

// ---- Building blocks for the per-family layout files (viz/layouts/) ----

struct MatrixCoord {
    int row;
    int col;
};

// Elements packed in one register: 64-bit elements live alone in a 64-bit register, narrower
// ones are packed into 32-bit registers (1 for 32-bit, 2 for 16-bit, 4 for 8-bit).
int elements_per_register(int elem_bits);

// Maps (lane, reg, sub) to the operand-matrix element that this slot holds.
using ElementMapping = std::function<MatrixCoord(int lane, int reg, int sub)>;

// Enumerates every lane < threads, reg < regs_per_thread and sub < elements_per_register(
// elem_bits), in that nesting order, and places each slot where `map` says.
OperandLayout build_operand_layout(Operand op, int rows, int cols, int elem_bits,
                                   int regs_per_thread, int threads, const ElementMapping& map);

}  // namespace tclens::viz
