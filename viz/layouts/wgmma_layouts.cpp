#include "viz/layouts/wgmma_layouts.h"

#include "viz/layouts/mma_layouts.h"
#include "viz/warp.h"

namespace tclens::viz {

namespace {

constexpr int kWarpgroupThreads = 128;
constexpr int kWgmmaM = 64;
constexpr int kRowsPerWarp = 16;
constexpr int kMaxN = 256;
constexpr int kAccBits = 32;  // .f32 and .s32
constexpr int kARegs = 4;
constexpr int kRegsPerNStep = 4;  // one m16n8 accumulator fragment per 8 columns
constexpr int kNStep = 8;

struct WgmmaType {
    const char* name;
    int k;
    int in_bits;
    const char* ptx_types;  // dtype.atype.btype and, for b1, the operation
    bool integer_shapes;    // N = 8, 16, 24, 32, then steps of 16
};

// clang-format off
constexpr WgmmaType kWgmmaTypes[] = {
    {"f16",   16, 16, "f32.f16.f16",           false},
    {"tf32",   8, 32, "f32.tf32.tf32",         false},
    {"e4m3",  32,  8, "f32.e4m3.e4m3",         false},
    {"e5m2",  32,  8, "f32.e5m2.e5m2",         false},
    {"s8",    32,  8, "s32.s8.s8",             true},
    {"u8",    32,  8, "s32.u8.u8",             true},
    {"b1",   256,  1, "s32.b1.b1.and.popc",    true},
};
// clang-format on

const WgmmaType* find_type(std::string_view name) {
    for (const WgmmaType& type : kWgmmaTypes) {
        if (name == type.name) return &type;
    }
    return nullptr;
}

std::vector<int> valid_ns(const WgmmaType& type) {
    std::vector<int> ns;
    for (int n = kNStep; n <= kMaxN; n += kNStep) {
        if (!type.integer_shapes || n <= 32 || n % 16 == 0) ns.push_back(n);
    }
    return ns;
}

std::string shape_name(const WgmmaType& type, int n) {
    return "m64n" + std::to_string(n) + "k" + std::to_string(type.k);
}

std::string make_id(const WgmmaType& type, int n) {
    return "wgmma." + shape_name(type, n) + "." + type.name;
}

// Finds the type and N of a wgmma register-fragment ID; false if it is not one.
bool parse_id(std::string_view id, const WgmmaType*& type, int& n) {
    for (const WgmmaType& candidate : kWgmmaTypes) {
        for (int candidate_n : valid_ns(candidate)) {
            if (make_id(candidate, candidate_n) == id) {
                type = &candidate;
                n = candidate_n;
                return true;
            }
        }
    }
    return false;
}

// (lane, reg, sub) -> (row, col) of A (64 x K): warp w holds the mma.m16n8kK A fragment of rows
// 16w..16w+15. f16: lane 37, a7 (reg 3, sub 1) -> (25, 11); e4m3: lane 37, reg 2, sub 3 ->
// (17, 23)
MatrixCoord wgmma_a_coord(int in_bits, int lane, int reg, int sub) {
    const MatrixCoord in_warp = mma_a_coord(kRowsPerWarp, in_bits, lane % kWarpLanes, reg, sub);
    return {in_warp.row + kRowsPerWarp * (lane / kWarpLanes), in_warp.col};
}

// (lane, reg) -> (row, col) of D (64 x N): registers 4j..4j+3 of warp w hold the mma m16n8 C
// fragment of rows 16w..16w+15, columns 8j..8j+7.
// lane 37, d6 -> (25, 10)
MatrixCoord wgmma_d_coord(int lane, int reg) {
    const MatrixCoord in_warp = mma_c_coord(lane % kWarpLanes, reg % kRegsPerNStep);
    return {in_warp.row + kRowsPerWarp * (lane / kWarpLanes),
            in_warp.col + kNStep * (reg / kRegsPerNStep)};
}

FragmentLayout make_wgmma_layout(const WgmmaType& type, int n) {
    FragmentLayout layout = make_fragment_layout(
        make_id(type, n),
        "wgmma.mma_async.sync.aligned." + shape_name(type, n) + "." + type.ptx_types,
        kWarpgroupThreads);
    const int in_bits = type.in_bits;
    layout.operands.push_back(build_operand_layout(
        Operand::A, kWgmmaM, type.k, in_bits, kARegs, kWarpgroupThreads,
        [in_bits](int lane, int reg, int sub) { return wgmma_a_coord(in_bits, lane, reg, sub); }));
    layout.operands.push_back(build_operand_layout(
        Operand::D, kWgmmaM, n, kAccBits, kWgmmaM * n / kWarpgroupThreads, kWarpgroupThreads,
        [](int lane, int reg, int) { return wgmma_d_coord(lane, reg); }));
    return layout;
}

}  // namespace

std::vector<std::string> wgmma_layout_types() {
    std::vector<std::string> types;
    for (const WgmmaType& type : kWgmmaTypes) types.push_back(type.name);
    return types;
}

std::vector<int> wgmma_layout_ns(std::string_view type) {
    const WgmmaType* found = find_type(type);
    return found ? valid_ns(*found) : std::vector<int>{};
}

std::vector<std::string> wgmma_layout_ids() {
    std::vector<std::string> ids;
    for (const WgmmaType& type : kWgmmaTypes) {
        for (int n : valid_ns(type)) ids.push_back(make_id(type, n));
    }
    return ids;
}

int wgmma_layout_n(std::string_view id) {
    const WgmmaType* type = nullptr;
    int n = 0;
    return parse_id(id, type, n) ? n : 0;
}

std::string wgmma_layout_type(std::string_view id) {
    const WgmmaType* type = nullptr;
    int n = 0;
    return parse_id(id, type, n) ? type->name : "";
}

std::string wgmma_layout_id(std::string_view type, int n) {
    const WgmmaType* found = find_type(type);
    return found ? make_id(*found, n) : "";
}

std::optional<FragmentLayout> wgmma_layout(std::string_view id) {
    const WgmmaType* type = nullptr;
    int n = 0;
    if (!parse_id(id, type, n)) return std::nullopt;
    return make_wgmma_layout(*type, n);
}

}  // namespace tclens::viz
