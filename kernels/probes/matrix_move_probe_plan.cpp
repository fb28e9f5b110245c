// Probe plans for ldmatrix, stmatrix and movmatrix; see matrix_move_probe_plan.h.
//
// [SECTION] ldmatrix
// [SECTION] stmatrix
// [SECTION] movmatrix
#include "kernels/probes/matrix_move_probe_plan.h"

#include <cstdio>
#include <map>
#include <string>
#include <tuple>

namespace tclens::kernels {

bool parse_matrix_move_id(std::string_view id, std::string& instruction, int& matrices,
                          bool& trans) {
    if (id == "movmatrix.trans") {
        instruction = "movmatrix";
        matrices = 1;
        trans = true;
        return true;
    }
    for (const char* name : {"ldmatrix", "stmatrix"}) {
        for (int count : {1, 2, 4}) {
            const std::string base = std::string(name) + ".x" + std::to_string(count);
            if (id == base || id == base + ".trans") {
                instruction = name;
                matrices = count;
                trans = id.size() > base.size();
                return true;
            }
        }
    }
    return false;
}

// [SECTION] ldmatrix ---------------------------------------------------------------------------

namespace {

constexpr uint16_t kTileTag = 0x4000;
constexpr uint16_t kDecoyTag = 0x6000;
constexpr uint16_t kTagMask = 0xf000;
constexpr int kRowBytes = kLdmatrixRowElems * 2;

// lane -> position of its row slot: an odd multiplier permutes the 32 slots, so a hardware
// that ignored the lane's address and read row r at 16 * r would be caught. 3 -> 7
int ldmatrix_slot_position(int lane) { return (lane * 13) % kLdmatrixSlots; }

// "ldmatrix.x4.trans" -> matrices 4, trans true; false if `id` is not an ldmatrix ID.
bool parse_ldmatrix_id(std::string_view id, int& matrices, bool& trans) {
    std::string instruction;
    return parse_matrix_move_id(id, instruction, matrices, trans) && instruction == "ldmatrix";
}

}  // namespace

uint16_t ldmatrix_tile_value(int row, int col) { return uint16_t(kTileTag | row << 4 | col); }

uint16_t ldmatrix_decoy_value(int lane, int col) { return uint16_t(kDecoyTag | lane << 4 | col); }

DecodedCoord decode_ldmatrix_value(uint16_t value, int rows) {
    DecodedCoord out;
    const int index = (value >> 4) & 0xff;
    const int col = value & 0xf;
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%04x", unsigned(value));
    if ((value & kTagMask) == kDecoyTag) {
        out.problem = std::string(hex) + " comes from the decoy row of lane " +
                      std::to_string(index) + ", a lane the model gives no row";
    } else if ((value & kTagMask) != kTileTag) {
        out.problem = std::string(hex) +
                      (value == 0xffff ? " (poison: never written)" : " is not a tile value");
    } else if (index >= rows || col >= kLdmatrixRowElems) {
        out.problem = std::string(hex) + " lies outside the tile";
    } else {
        out.row = index;
        out.col = col;
    }
    return out;
}

LdmatrixProbePlan plan_ldmatrix_probe(const viz::FragmentLayout& model) {
    LdmatrixProbePlan plan;
    const viz::OperandLayout* d = model.find(viz::Operand::D);
    if (!parse_ldmatrix_id(model.id, plan.matrices, plan.trans)) {
        plan.error = model.id + " is not an ldmatrix ID";
        return plan;
    }
    const int rows = 8 * plan.matrices;
    if (!d || model.threads != 32 || d->regs_per_thread != plan.matrices) {
        plan.error = model.id + ": the model needs a D layout of " + std::to_string(plan.matrices) +
                     " registers on 32 lanes";
        return plan;
    }
    if ((plan.error = shape_error(model.id.c_str(), *d, rows, kLdmatrixRowElems, 16)) != "") {
        return plan;
    }
    if (model.address_lanes.size() != size_t(rows)) {
        plan.error = model.id + ": address_lanes must name one lane for each of the " +
                     std::to_string(rows) + " rows";
        return plan;
    }
    std::vector<int> row_of_lane(kLdmatrixSlots, -1);
    for (int row = 0; row < rows; ++row) {
        const int lane = model.address_lanes[size_t(row)];
        if (lane < 0 || lane >= kLdmatrixSlots || row_of_lane[size_t(lane)] != -1) {
            plan.error = model.id + ": address lane " + std::to_string(lane) + " of row " +
                         std::to_string(row) + " is out of range or repeated";
            return plan;
        }
        row_of_lane[size_t(lane)] = row;
    }
    plan.smem.assign(size_t(kLdmatrixSlots) * kLdmatrixRowElems, 0);
    plan.lane_offsets.assign(kLdmatrixSlots, 0);
    for (int lane = 0; lane < kLdmatrixSlots; ++lane) {
        const int position = ldmatrix_slot_position(lane);
        plan.lane_offsets[size_t(lane)] = uint32_t(position * kRowBytes);
        const int row = row_of_lane[size_t(lane)];
        for (int col = 0; col < kLdmatrixRowElems; ++col) {
            plan.smem[size_t(position * kLdmatrixRowElems + col)] =
                row >= 0 ? ldmatrix_tile_value(row, col) : ldmatrix_decoy_value(lane, col);
        }
    }
    return plan;
}

std::vector<MeasuredOperand> decode_ldmatrix_probe(const viz::FragmentLayout& model,
                                                   const std::vector<uint32_t>& registers) {
    const viz::OperandLayout* d = model.find(viz::Operand::D);
    if (!d || d->elem_bits != 16) {
        return {};
    }
    const int matrices = d->regs_per_thread;
    if (registers.size() != size_t(kLdmatrixSlots) * matrices) {
        return {unmeasured(*d, "no output from the GPU")};
    }
    std::vector<DecodedCoord> decoded;
    for (const viz::LayoutElement& slot : d->elements) {
        const uint32_t word = registers[size_t(slot.lane * matrices + slot.reg)];
        decoded.push_back(decode_ldmatrix_value(uint16_t(word >> (16 * slot.sub)), d->rows));
    }
    return {measured_from(*d, decoded)};
}

// [SECTION] stmatrix ---------------------------------------------------------------------------

namespace {

constexpr uint16_t kSlotTag = 0x4000;
constexpr uint16_t kSlotTagMask = 0xff00;
constexpr uint16_t kPoison = 0xffff;

// The row slot of `lane` at lane_offsets[lane]; the same permutation as ldmatrix's.
std::vector<uint32_t> row_slot_offsets() {
    std::vector<uint32_t> offsets(kLdmatrixSlots);
    for (int lane = 0; lane < kLdmatrixSlots; ++lane) {
        offsets[size_t(lane)] = uint32_t(ldmatrix_slot_position(lane) * kRowBytes);
    }
    return offsets;
}

// The model's single register operand (D for ldmatrix, A for stmatrix) and its checks.
std::string check_moves(const viz::FragmentLayout& model, const viz::OperandLayout* operand,
                        int matrices) {
    const int rows = 8 * matrices;
    if (!operand || model.threads != 32 || operand->regs_per_thread != matrices) {
        return model.id + ": the model needs one operand of " + std::to_string(matrices) +
               " registers on 32 lanes";
    }
    if (std::string error = shape_error(model.id.c_str(), *operand, rows, kLdmatrixRowElems, 16);
        !error.empty()) {
        return error;
    }
    if (model.address_lanes.size() != size_t(rows)) {
        return model.id + ": address_lanes must name one lane for each of the " +
               std::to_string(rows) + " rows";
    }
    std::vector<int> row_of_lane(kLdmatrixSlots, -1);
    for (int row = 0; row < rows; ++row) {
        const int lane = model.address_lanes[size_t(row)];
        if (lane < 0 || lane >= kLdmatrixSlots || row_of_lane[size_t(lane)] != -1) {
            return model.id + ": address lane " + std::to_string(lane) + " of row " +
                   std::to_string(row) + " is out of range or repeated";
        }
        row_of_lane[size_t(lane)] = row;
    }
    return "";
}

uint16_t smem_value(const std::vector<uint32_t>& words, size_t index) {
    return uint16_t(words[index / 2] >> (16 * (index % 2)));
}

}  // namespace

uint16_t slot_value(int lane, int reg, int sub) {
    return uint16_t(kSlotTag | lane << 3 | reg << 1 | sub);
}

bool decode_slot_value(uint16_t value, int& lane, int& reg, int& sub) {
    if ((value & kSlotTagMask) != kSlotTag) return false;
    lane = (value >> 3) & 31;
    reg = (value >> 1) & 3;
    sub = value & 1;
    return true;
}

StmatrixProbePlan plan_stmatrix_probe(const viz::FragmentLayout& model) {
    StmatrixProbePlan plan;
    std::string instruction;
    if (!parse_matrix_move_id(model.id, instruction, plan.matrices, plan.trans) ||
        instruction != "stmatrix") {
        plan.error = model.id + " is not a stmatrix ID";
        return plan;
    }
    if ((plan.error = check_moves(model, model.find(viz::Operand::A), plan.matrices)) != "") {
        return plan;
    }
    plan.lane_offsets = row_slot_offsets();
    plan.registers.assign(size_t(kLdmatrixSlots) * plan.matrices, 0);
    for (int lane = 0; lane < kLdmatrixSlots; ++lane) {
        for (int reg = 0; reg < plan.matrices; ++reg) {
            plan.registers[size_t(lane * plan.matrices + reg)] =
                uint32_t(slot_value(lane, reg, 0)) | uint32_t(slot_value(lane, reg, 1)) << 16;
        }
    }
    return plan;
}

std::vector<MeasuredOperand> decode_stmatrix_probe(const viz::FragmentLayout& model,
                                                   const std::vector<uint32_t>& smem) {
    const viz::OperandLayout* a = model.find(viz::Operand::A);
    if (!a) return {};
    const size_t values = size_t(kLdmatrixSlots) * kLdmatrixRowElems;
    if (smem.size() != values / 2) return {unmeasured(*a, "no output from the GPU")};
    const std::vector<uint32_t> offsets = row_slot_offsets();
    std::vector<int> row_of_lane(kLdmatrixSlots, -1);
    for (size_t row = 0; row < model.address_lanes.size(); ++row) {
        const int lane = model.address_lanes[row];
        if (lane >= 0 && lane < kLdmatrixSlots) row_of_lane[size_t(lane)] = int(row);
    }
    // Where each (lane, reg, sub) value landed: (row, col), or a problem.
    std::map<std::tuple<int, int, int>, DecodedCoord> landed;
    for (int slot_lane = 0; slot_lane < kLdmatrixSlots; ++slot_lane) {
        const size_t first = offsets[size_t(slot_lane)] / 2;
        for (int col = 0; col < kLdmatrixRowElems; ++col) {
            const uint16_t value = smem_value(smem, first + size_t(col));
            int lane = 0, reg = 0, sub = 0;
            if (value == kPoison || !decode_slot_value(value, lane, reg, sub)) continue;
            DecodedCoord& at = landed[{lane, reg, sub}];
            if (at.row != -1 || !at.problem.empty()) {
                at = {-1, -1, "stored twice"};
            } else if (row_of_lane[size_t(slot_lane)] < 0) {
                at.problem = "stored to the row slot of lane " + std::to_string(slot_lane) +
                             ", which the model gives no row";
            } else {
                at.row = row_of_lane[size_t(slot_lane)];
                at.col = col;
            }
        }
    }
    std::vector<DecodedCoord> decoded;
    for (const viz::LayoutElement& slot : a->elements) {
        const auto it = landed.find({slot.lane, slot.reg, slot.sub});
        decoded.push_back(it == landed.end() ? DecodedCoord{-1, -1, "never stored"} : it->second);
    }
    return {measured_from(*a, decoded)};
}

// [SECTION] movmatrix --------------------------------------------------------------------------

MovmatrixProbePlan plan_movmatrix_probe(const viz::FragmentLayout& model) {
    MovmatrixProbePlan plan;
    const viz::OperandLayout* a = model.find(viz::Operand::A);
    const viz::OperandLayout* d = model.find(viz::Operand::D);
    if (model.id != "movmatrix.trans" || !a || !d || model.threads != 32 ||
        a->regs_per_thread != 1 || d->regs_per_thread != 1) {
        plan.error = model.id + ": the model needs A and D of one register on 32 lanes";
        return plan;
    }
    for (const viz::OperandLayout* operand : {a, d}) {
        if (std::string error = shape_error(model.id.c_str(), *operand, 8, 8, 16); !error.empty()) {
            plan.error = error;
            return plan;
        }
    }
    plan.a.assign(2 * kLdmatrixSlots, 0);
    for (const viz::LayoutElement& slot : a->elements) {
        write_slot(&plan.a[0], *a, slot, ldmatrix_tile_value(slot.row, slot.col));
        write_slot(&plan.a[kLdmatrixSlots], *a, slot, slot_value(slot.lane, 0, slot.sub));
    }
    return plan;
}

std::vector<MeasuredOperand> decode_movmatrix_probe(const viz::FragmentLayout& model,
                                                    const std::vector<uint32_t>& d) {
    const viz::OperandLayout* a = model.find(viz::Operand::A);
    const viz::OperandLayout* d_layout = model.find(viz::Operand::D);
    if (!a || !d_layout) return {};
    if (d.size() != 2 * size_t(kLdmatrixSlots)) {
        return {unmeasured(*a, "no output from the GPU"),
                unmeasured(*d_layout, "no output from the GPU")};
    }
    std::vector<DecodedCoord> d_coords;
    std::map<std::pair<int, int>, DecodedCoord> a_at;  // (lane, sub) of A -> where it arrived
    for (const viz::LayoutElement& slot : d_layout->elements) {
        d_coords.push_back(decode_ldmatrix_value(uint16_t(read_slot(&d[0], *d_layout, slot)), 8));
        int lane = 0, reg = 0, sub = 0;
        const uint16_t identity = uint16_t(read_slot(&d[kLdmatrixSlots], *d_layout, slot));
        if (decode_slot_value(identity, lane, reg, sub) && reg == 0) {
            DecodedCoord& at = a_at[{lane, sub}];
            at = at.row == -1 && at.problem.empty() ? DecodedCoord{slot.row, slot.col, ""}
                                                    : DecodedCoord{-1, -1, "arrived twice"};
        }
    }
    std::vector<DecodedCoord> a_coords;
    for (const viz::LayoutElement& slot : a->elements) {
        const auto it = a_at.find({slot.lane, slot.sub});
        a_coords.push_back(it == a_at.end() ? DecodedCoord{-1, -1, "reached no D register"}
                                            : it->second);
    }
    return {measured_from(*a, a_coords), measured_from(*d_layout, d_coords)};
}

}  // namespace tclens::kernels
