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
// Each matrix element is held by exactly one (lane, reg, sub), and each (lane, reg, sub) holds at
// most one element. Most operands are dense (every slot of every lane holds an element); the
// exceptions list only the slots that hold one: the mma.sp metadata E (only the lanes the
// sparsity selector names hold it, except for m16n8k64, which uses every lane), tcgen05's M = 64
// accumulator (half the TMEM lanes) and its scale factors (the bytes of a 32-bit column that the
// block-scale kind uses).
//
// Two kinds of IDs are not register fragments and say so in their fields:
//   - tcgen05 (Blackwell) models: `verifiable` is false and `source` names the PTX ISA section;
//     for the accumulator and scale-factor IDs `tmem_slots` is true: `lane` is the Tensor Memory
//     lane (data path), `reg` the 32-bit TMEM column from the operand's base address and `sub`
//     the byte (scale factors) inside it.
//   - wgmma shared-memory descriptor views: no register operands; `shared_memory` says which
//     byte of shared memory holds each element of A and B (wgmma_smem_layouts.h).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tclens::viz {

// E is the sparsity metadata of mma.sp: one 2-bit index per element of the compressed A.
enum class Operand { A, B, C, D, E };

// What every view, export and JSON of a layout with verifiable == false says.
inline constexpr const char* kModelOnlyNote = "model (PTX ISA), not verified: needs sm_100";

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
    // A fact of the instruction that the mapping cannot show (e.g. "duplicated in all four lane
    // subpartitions"); appended to the operand's plain-language description. Usually empty.
    std::string note;
};

// One element of a shared-memory tile: where (row, col) of the operand matrix lies relative
// to the matrix descriptor's start address, and which 8-row x 16-byte core matrix it is in.
struct SharedMemoryElement {
    int row;
    int col;
    int byte;         // byte address offset from the start address, swizzle applied
    int bit;          // bit inside that byte: 0 except for b1 elements (low bit first)
    int core_matrix;  // index of its core matrix, see wgmma_smem_layouts.h for the order
};

// An operand of a wgmma shared-memory matrix descriptor view (wgmma_smem_layouts.h).
struct SharedMemoryTile {
    Operand operand;  // A (M x K) or B (K x N)
    int rows;
    int cols;
    int elem_bits;
    bool k_major;         // false: M-major (A) or N-major (B), the imm-trans = 1 form
    int swizzle_bytes;    // 0 (none), 32, 64 or 128
    int leading_bytes;    // LBO as the descriptor holds it (bytes; 16 where the mode ignores it)
    int stride_bytes;     // SBO (bytes)
    uint64_t descriptor;  // the 64-bit matrix descriptor with start address 0
    std::vector<SharedMemoryElement> elements;  // row-major order
};

struct FragmentLayout {
    std::string id;   // e.g. "mma.m16n8k8.tf32"
    std::string ptx;  // full instruction, e.g. "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"
    int threads = 0;  // 32, or 128 for wgmma (lanes are thread indices within the warpgroup)
    // mma: A, B, C, D. mma.sp: A (compressed), B, C, D, E. ldmatrix: D. stmatrix: A (the source
    // registers). movmatrix: A and D. wgmma: A and D only; see wgmma_layouts.h for why.
    std::vector<OperandLayout> operands;
    // ldmatrix and stmatrix only (empty otherwise): address_lanes[row] is the lane that supplies
    // the shared-memory address of tile row `row`.
    std::vector<int> address_lanes;
    // false for models that no GPU at hand can check (tcgen05); `source` then names the PTX ISA
    // section the model follows and every view says kModelOnlyNote.
    bool verifiable = true;
    std::string source;
    // tcgen05 accumulator and scale-factor IDs: slots are Tensor Memory (lane, column, byte), not
    // thread registers (see the top of this file).
    bool tmem_slots = false;
    // wgmma shared-memory descriptor views only (empty otherwise).
    std::vector<SharedMemoryTile> shared_memory;

    // The layout of `op`, or nullptr if this instruction has no register fragment for it.
    const OperandLayout* find(Operand op) const;
};

// Every layout ID, in a stable order: mma.sync shapes, mma.sp, ldmatrix, stmatrix and
// movmatrix, wgmma by type and N, the wgmma shared-memory views, then the tcgen05 models.
std::vector<std::string> fragment_layout_ids();

// fragment_layout_ids() for an error message, on one line; each wgmma type's N shapes are folded
// into one entry, e.g. "wgmma.m64nNk16.f16 (N = 8, 16, ..., 256)".
std::string fragment_layout_ids_text();

// Where an ID sits in an instruction list: its family ("mma.sync", "mma.sp", "ldmatrix",
// "stmatrix", "movmatrix", "wgmma", "wgmma smem", "tcgen05") and the first architecture that has
// the instruction ("sm_80", "sm_89", "sm_90", "sm_90a", "sm_100a"). Empty strings for an unknown
// ID.
struct LayoutFamilyInfo {
    std::string family;
    std::string arch;
};
LayoutFamilyInfo layout_family(std::string_view id);

// The layout for `id`, or nullopt if `id` is not one of fragment_layout_ids().
std::optional<FragmentLayout> fragment_layout(std::string_view id);

// 'A'..'E'.
char operand_letter(Operand op);

// "A".."E" (upper case only) -> operand; nullopt for anything else.
std::optional<Operand> parse_operand(std::string_view text);

// ---- Building blocks for the per-family layout files (viz/layouts/) ----

// A layout with these three fields set and no operands yet; the other fields keep their defaults.
FragmentLayout make_fragment_layout(std::string id, std::string ptx, int threads);

struct MatrixCoord {
    int row;
    int col;
};

// Elements packed in one register: 64-bit elements live alone in a 64-bit register, narrower
// ones are packed into 32-bit registers (1 for 32-bit, 2 for 16-bit, 4 for 8-bit, 8 for 4-bit,
// 16 for the 2-bit sparsity indices, 32 for b1).
int elements_per_register(int elem_bits);

// True when every (lane < threads, reg, sub) slot of `operand` holds an element.
bool is_dense(const OperandLayout& operand, int threads);

// Maps (lane, reg, sub) to the operand-matrix element that this slot holds.
using ElementMapping = std::function<MatrixCoord(int lane, int reg, int sub)>;

// Enumerates every lane < threads, reg < regs_per_thread and sub < elements_per_register(
// elem_bits), in that nesting order, and places each slot where `map` says.
OperandLayout build_operand_layout(Operand op, int rows, int cols, int elem_bits,
                                   int regs_per_thread, int threads, const ElementMapping& map);

// The same for operands that are not dense: `map` returns nullopt for a slot that holds nothing.
using PartialElementMapping = std::function<std::optional<MatrixCoord>(int lane, int reg, int sub)>;
OperandLayout build_partial_operand_layout(Operand op, int rows, int cols, int elem_bits,
                                           int regs_per_thread, int threads,
                                           const PartialElementMapping& map);

}  // namespace tclens::viz
