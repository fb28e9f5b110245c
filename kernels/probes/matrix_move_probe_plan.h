#pragma once
// Probe plans (pure) for the instructions that move 8x8 b16 matrices: ldmatrix (shared memory ->
// registers), stmatrix (registers -> shared memory) and movmatrix (registers -> transposed
// registers), with their launchers (ldmatrix_probe.cu, stmatrix_probe.cu, movmatrix_probe.cu).
// No arithmetic: values name their own coordinates.
//   ldmatrix: every 16-byte row slot in shared memory holds values that name (row, col) of the
//     source tile; each lane supplies the address of the row the model's address_lanes gives it
//     (lanes that supply none point at a decoy row); both halves of each destination register
//     are decoded.
//   stmatrix: every source register half holds a value naming its own (lane, reg, sub); each
//     lane supplies the address of its own row slot, all slots start as poison; the row slot of
//     the lane the model says supplies row r is read back as row r, and where each value landed
//     is that slot's measured (row, col).
//   movmatrix: two warps. The first loads A through the model with values naming (row, col) and
//     decodes D (D's coordinates are A's). The second loads each A slot with a value naming the
//     slot and reads D through its model: where slot s's value arrives is its measured (row, col).

#include <cstdint>
#include <string_view>
#include <vector>

#include "kernels/probes/fragment_probe.h"

namespace tclens::kernels {

// ldmatrix and stmatrix: 32 row slots of 16 bytes in shared memory, one per lane; lane L's slot
// lies at byte lane_offsets[L] (a permutation, so that row r is not simply at 16 * r).
constexpr int kLdmatrixSlots = 32;
constexpr int kLdmatrixRowElems = 8;

// Which matrix-move instruction an ID names (ldmatrix.x4, stmatrix.x2.trans, movmatrix.trans),
// with its count and .trans; false if it names none.
bool parse_matrix_move_id(std::string_view id, std::string& instruction, int& matrices,
                          bool& trans);

// ---- ldmatrix ----

struct LdmatrixProbePlan {
    std::string error;
    int matrices = 0;  // 1, 2 or 4
    bool trans = false;
    std::vector<uint16_t> smem;          // kLdmatrixSlots * kLdmatrixRowElems values
    std::vector<uint32_t> lane_offsets;  // kLdmatrixSlots byte offsets into smem
};

// (row, col) -> value of that source-tile element: 0x4000 | row << 4 | col; (5, 3) -> 0x4053.
// Decoy row element of lane L: 0x6000 | L << 4 | col. Poison (0xffff) and 0 are neither.
uint16_t ldmatrix_tile_value(int row, int col);
uint16_t ldmatrix_decoy_value(int lane, int col);
DecodedCoord decode_ldmatrix_value(uint16_t value, int rows);

LdmatrixProbePlan plan_ldmatrix_probe(const viz::FragmentLayout& model);

// `registers`: lane-major, `matrices` words per lane. Returns D.
std::vector<MeasuredOperand> decode_ldmatrix_probe(const viz::FragmentLayout& model,
                                                   const std::vector<uint32_t>& registers);

DeviceRun run_ldmatrix_probe(const LdmatrixProbePlan& plan);  // ldmatrix_probe.cu

// ---- stmatrix ----

struct StmatrixProbePlan {
    std::string error;
    int matrices = 0;
    bool trans = false;
    std::vector<uint32_t> registers;     // lane-major, `matrices` words per lane
    std::vector<uint32_t> lane_offsets;  // kLdmatrixSlots byte offsets of the row slots
};

// (lane, reg, sub) -> the b16 value that names it: 0x4000 | lane << 3 | reg << 1 | sub;
// (5, 2, 1) -> 0x402d. decode_slot_value inverts it (for registers of up to 4 matrices).
uint16_t slot_value(int lane, int reg, int sub);
bool decode_slot_value(uint16_t value, int& lane, int& reg, int& sub);

StmatrixProbePlan plan_stmatrix_probe(const viz::FragmentLayout& model);

// `smem`: the 32 row slots as the store left them, kLdmatrixSlots * kLdmatrixRowElems b16 values
// in 32-bit words (low half first). Returns A.
std::vector<MeasuredOperand> decode_stmatrix_probe(const viz::FragmentLayout& model,
                                                   const std::vector<uint32_t>& smem);

DeviceRun run_stmatrix_probe(const StmatrixProbePlan& plan);  // stmatrix_probe.cu

// ---- movmatrix ----

struct MovmatrixProbePlan {
    std::string error;
    std::vector<uint32_t> a;  // two warps' A registers, one word per lane
};

MovmatrixProbePlan plan_movmatrix_probe(const viz::FragmentLayout& model);

// `d`: both warps' D registers. Returns A and D.
std::vector<MeasuredOperand> decode_movmatrix_probe(const viz::FragmentLayout& model,
                                                    const std::vector<uint32_t>& d);

DeviceRun run_movmatrix_probe(const MovmatrixProbePlan& plan);  // movmatrix_probe.cu

}  // namespace tclens::kernels
