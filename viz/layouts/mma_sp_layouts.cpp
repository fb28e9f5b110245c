#include "viz/layouts/mma_sp_layouts.h"

#include <utility>

#include "viz/layouts/mma_layouts.h"
#include "viz/warp.h"

namespace tclens::viz {

namespace {

constexpr int kSpM = 16;
constexpr int kN = 8;
constexpr int kMetadataBits = 2;
constexpr int kFieldsPerRegister = 16;

// Which lanes hold which metadata fields; see the header.
enum class MetadataScheme {
    kOneLaneBothRows,   // m16n8k16 16-bit: lane 4g+sel
    kTwoLanesBothRows,  // m16n8k32 16-bit: lanes 4g+2sel+p, column halves
    kTwoLanesOneRow,    // m16n8k32 8-bit: lanes 4g+2sel+p, row g+8p
    kFourLanesOneRow,   // m16n8k64 8-bit: lanes 4g+p+2q
};

struct SparseSpec {
    int k;  // full K
    const char* in_type;
    int in_bits;
    const char* acc_type;
    int selectors;
    MetadataScheme scheme;
};

// clang-format off
constexpr SparseSpec kSparseSpecs[] = {
    {16, "f16",  16, "f32", 4, MetadataScheme::kOneLaneBothRows},
    {16, "bf16", 16, "f32", 4, MetadataScheme::kOneLaneBothRows},
    {32, "f16",  16, "f32", 2, MetadataScheme::kTwoLanesBothRows},
    {32, "bf16", 16, "f32", 2, MetadataScheme::kTwoLanesBothRows},
    {32, "s8",    8, "s32", 2, MetadataScheme::kTwoLanesOneRow},
    {64, "s8",    8, "s32", 1, MetadataScheme::kFourLanesOneRow},
    {64, "e4m3",  8, "f32", 1, MetadataScheme::kFourLanesOneRow},
};
// clang-format on

std::string shape_name(const SparseSpec& spec) {
    return "m" + std::to_string(kSpM) + "n" + std::to_string(kN) + "k" + std::to_string(spec.k);
}

std::string sparse_id(const SparseSpec& spec, int selector) {
    return "mma.sp." + shape_name(spec) + "." + spec.in_type + ".sel" + std::to_string(selector);
}

std::string sparse_ptx(const SparseSpec& spec) {
    const std::string in = spec.in_type;
    const std::string acc = spec.acc_type;
    return "mma.sp::ordered_metadata.sync.aligned." + shape_name(spec) + ".row.col." + acc + "." +
           in + "." + in + "." + acc;
}

// (lane, field) -> (row, compressed column) of E, or nullopt where the lane holds no metadata
// for this selector. m16n8k32.f16 sel 1: lane 7 (g 1, p 1), field 9 -> (9, 9)
std::optional<MatrixCoord> metadata_coord(MetadataScheme scheme, int selector, int lane,
                                          int field) {
    const int group = lane / 4;
    const int thread_in_group = lane % 4;
    switch (scheme) {
        case MetadataScheme::kOneLaneBothRows:
            if (thread_in_group != selector) return std::nullopt;
            return MatrixCoord{group + 8 * (field / 8), field % 8};
        case MetadataScheme::kTwoLanesBothRows:
            if (thread_in_group / 2 != selector) return std::nullopt;
            return MatrixCoord{group + 8 * (field / 8), 8 * (thread_in_group % 2) + field % 8};
        case MetadataScheme::kTwoLanesOneRow:
            if (thread_in_group / 2 != selector) return std::nullopt;
            return MatrixCoord{group + 8 * (thread_in_group % 2), field};
        case MetadataScheme::kFourLanesOneRow:
            return MatrixCoord{group + 8 * (thread_in_group % 2),
                               16 * (thread_in_group / 2) + field};
    }
    return std::nullopt;
}

FragmentLayout make_sparse_layout(const SparseSpec& spec, int selector) {
    const int compressed_k = spec.k / 2;
    const int per_reg = elements_per_register(spec.in_bits);
    const int a_regs = kSpM * compressed_k / (kWarpLanes * per_reg);
    const int b_regs = spec.k * kN / (kWarpLanes * per_reg);
    const int c_regs = kSpM * kN / kWarpLanes;

    FragmentLayout layout =
        make_fragment_layout(sparse_id(spec, selector), sparse_ptx(spec), kWarpLanes);
    layout.operands.push_back(
        build_operand_layout(Operand::A, kSpM, compressed_k, spec.in_bits, a_regs, kWarpLanes,
                             [&](int lane, int reg, int sub) {
                                 return mma_a_coord(kSpM, spec.in_bits, lane, reg, sub);
                             }));
    layout.operands.back().note =
        "Compressed 2:4: column c is the non-zero of full columns 4(c/2)..4(c/2)+3 that the "
        "metadata E places.";
    layout.operands.push_back(build_operand_layout(
        Operand::B, spec.k, kN, spec.in_bits, b_regs, kWarpLanes,
        [&](int lane, int reg, int sub) { return mma_b_coord(spec.in_bits, lane, reg, sub); }));
    OperandLayout c =
        build_operand_layout(Operand::C, kSpM, kN, 32, c_regs, kWarpLanes,
                             [](int lane, int reg, int) { return mma_c_coord(lane, reg); });
    OperandLayout d = c;
    d.operand = Operand::D;
    layout.operands.push_back(std::move(c));
    layout.operands.push_back(std::move(d));
    layout.operands.push_back(
        build_partial_operand_layout(Operand::E, kSpM, compressed_k, kMetadataBits, 1, kWarpLanes,
                                     [&](int lane, int, int field) {
                                         return metadata_coord(spec.scheme, selector, lane, field);
                                     }));
    layout.operands.back().note =
        "Each 2-bit field is the position (0-3) of compressed element (row, c) inside its group "
        "of four full columns; sparsity selector " +
        std::to_string(selector) + " picks the lanes of each group of four that hold it.";
    return layout;
}

static_assert(kFieldsPerRegister == 32 / kMetadataBits, "sixteen 2-bit fields per register");

}  // namespace

std::vector<std::string> mma_sp_layout_ids() {
    std::vector<std::string> ids;
    for (const SparseSpec& spec : kSparseSpecs) {
        for (int selector = 0; selector < spec.selectors; ++selector) {
            ids.push_back(sparse_id(spec, selector));
        }
    }
    return ids;
}

std::optional<FragmentLayout> mma_sp_layout(std::string_view id) {
    for (const SparseSpec& spec : kSparseSpecs) {
        for (int selector = 0; selector < spec.selectors; ++selector) {
            if (sparse_id(spec, selector) == id) return make_sparse_layout(spec, selector);
        }
    }
    return std::nullopt;
}

}  // namespace tclens::viz
