#include "viz/layouts/mma_layouts.h"

#include <utility>

#include "viz/warp.h"

namespace tclens::viz {

namespace {

constexpr int kMmaN = 8;  // every shape served here has N = 8

struct MmaSpec {
    int m;
    int k;
    const char* in_type;  // A and B element type
    int in_bits;
    const char* acc_type;  // C and D element type
    int acc_bits;
    const char* id_suffix;   // after the input type: "", ".f16acc", ".and", ".xor"
    const char* ptx_suffix;  // after the C type: "", ".and.popc", ".xor.popc"
};

// clang-format off
constexpr MmaSpec kMmaSpecs[] = {
    {16,   4, "tf32", 32, "f32", 32, "", ""},
    {16,   8, "tf32", 32, "f32", 32, "", ""},
    {16,   8, "f16",  16, "f32", 32, "", ""},
    {16,  16, "f16",  16, "f32", 32, "", ""},
    {16,  16, "bf16", 16, "f32", 32, "", ""},
    {16,  32, "s8",    8, "s32", 32, "", ""},
    {16,  32, "e4m3",  8, "f32", 32, "", ""},
    { 8,   4, "f64",  64, "f64", 64, "", ""},
    {16,   8, "bf16", 16, "f32", 32, "", ""},
    {16,  16, "f16",  16, "f16", 16, ".f16acc", ""},
    {16,  32, "e5m2",  8, "f32", 32, "", ""},
    {16,  32, "e4m3",  8, "f16", 16, ".f16acc", ""},
    {16,  32, "e5m2",  8, "f16", 16, ".f16acc", ""},
    {16,  64, "s4",    4, "s32", 32, "", ""},
    {16,  64, "u4",    4, "s32", 32, "", ""},
    {16, 256, "b1",    1, "s32", 32, ".and", ".and.popc"},
    {16, 256, "b1",    1, "s32", 32, ".xor", ".xor.popc"},
    { 8,  16, "s8",    8, "s32", 32, "", ""},
    { 8,  32, "s4",    4, "s32", 32, "", ""},
};
// clang-format on

std::string shape_name(const MmaSpec& spec) {
    return "m" + std::to_string(spec.m) + "n" + std::to_string(kMmaN) + "k" +
           std::to_string(spec.k);
}

std::string mma_id(const MmaSpec& spec) {
    return "mma." + shape_name(spec) + "." + spec.in_type + spec.id_suffix;
}

std::string mma_ptx(const MmaSpec& spec) {
    const std::string in = spec.in_type;
    const std::string acc = spec.acc_type;
    return "mma.sync.aligned." + shape_name(spec) + ".row.col." + acc + "." + in + "." + in + "." +
           acc + spec.ptx_suffix;
}

FragmentLayout make_mma_layout(const MmaSpec& spec) {
    // Register counts follow from the PTX operand lists: each lane holds elements_per_register
    // elements of its operand per register.
    const int in_per_reg = elements_per_register(spec.in_bits);
    const int acc_per_reg = elements_per_register(spec.acc_bits);
    const int a_regs = spec.m * spec.k / (kWarpLanes * in_per_reg);
    const int b_regs = spec.k * kMmaN / (kWarpLanes * in_per_reg);
    const int c_regs = spec.m * kMmaN / (kWarpLanes * acc_per_reg);

    const ElementMapping a_map = [&](int lane, int reg, int sub) {
        return mma_a_coord(spec.m, spec.in_bits, lane, reg, sub);
    };
    const ElementMapping b_map = [&](int lane, int reg, int sub) {
        return mma_b_coord(spec.in_bits, lane, reg, sub);
    };
    const ElementMapping c_map = [&](int lane, int reg, int sub) {
        return mma_c_coord(lane, reg * acc_per_reg + sub);
    };

    FragmentLayout layout = make_fragment_layout(mma_id(spec), mma_ptx(spec), kWarpLanes);
    layout.operands.push_back(
        build_operand_layout(Operand::A, spec.m, spec.k, spec.in_bits, a_regs, kWarpLanes, a_map));
    layout.operands.push_back(
        build_operand_layout(Operand::B, spec.k, kMmaN, spec.in_bits, b_regs, kWarpLanes, b_map));
    OperandLayout c =
        build_operand_layout(Operand::C, spec.m, kMmaN, spec.acc_bits, c_regs, kWarpLanes, c_map);
    OperandLayout d = c;
    d.operand = Operand::D;
    layout.operands.push_back(std::move(c));
    layout.operands.push_back(std::move(d));
    return layout;
}

}  // namespace

// (lane, reg, sub) -> (row, col) of A (M x K). "Quadrants": register r covers an 8-row block of
// 4 * per_reg columns, blocks ordered top-to-bottom, then left-to-right; within a block lane
// 4g+t holds row g, columns t*per_reg .. t*per_reg + per_reg - 1.
// m16n8k8.tf32: lane 5, a2 -> (1, 5); m16n8k256.b1: lane 6, reg 2, sub 31 -> (1, 191)
MatrixCoord mma_a_coord(int m, int elem_bits, int lane, int reg, int sub) {
    const int per_reg = elements_per_register(elem_bits);
    const int row_blocks = m / 8;
    const int group = lane / 4;
    const int thread_in_group = lane % 4;
    return {group + 8 * (reg % row_blocks),
            (reg / row_blocks) * 4 * per_reg + thread_in_group * per_reg + sub};
}

// (lane, reg, sub) -> (row, col) of B (K x 8). "Halves": register r covers rows
// 4*per_reg*r .. 4*per_reg*(r+1) - 1; lane 4g+t holds column g, rows t*per_reg + sub of it.
// m16n8k16.f16: lane 6, b2 (reg 1, sub 0) -> (12, 1)
MatrixCoord mma_b_coord(int elem_bits, int lane, int reg, int sub) {
    const int per_reg = elements_per_register(elem_bits);
    return {reg * 4 * per_reg + (lane % 4) * per_reg + sub, lane / 4};
}

// (lane, element i) -> (row, col) of C/D (M x 8). "Stripes": c0, c1 sit in row g, c2, c3 eight
// rows lower; lane 4g+t holds the adjacent columns 2t and 2t+1.
// lane 6, c3 -> (9, 5); f16 accumulators: lane 6, reg 1, sub 1 is c3 -> (9, 5)
MatrixCoord mma_c_coord(int lane, int element) {
    return {lane / 4 + 8 * (element / 2), 2 * (lane % 4) + element % 2};
}

std::vector<std::string> mma_layout_ids() {
    std::vector<std::string> ids;
    for (const MmaSpec& spec : kMmaSpecs) {
        ids.push_back(mma_id(spec));
    }
    return ids;
}

std::optional<FragmentLayout> mma_layout(std::string_view id) {
    for (const MmaSpec& spec : kMmaSpecs) {
        if (mma_id(spec) == id) {
            return make_mma_layout(spec);
        }
    }
    return std::nullopt;
}

}  // namespace tclens::viz
