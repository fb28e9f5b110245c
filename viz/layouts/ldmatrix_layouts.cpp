#include "viz/layouts/ldmatrix_layouts.h"

#include <numeric>

#include "viz/warp.h"

namespace tclens::viz {

namespace {

constexpr int kLdmatrixSide = 8;       // each matrix is 8 x 8
constexpr int kLdmatrixElemBits = 16;  // .b16

struct LdmatrixSpec {
    int matrices;
    bool trans;
};

constexpr LdmatrixSpec kLdmatrixSpecs[] = {
    {1, false}, {2, false}, {4, false}, {1, true}, {2, true}, {4, true},
};

std::string variant_suffix(const LdmatrixSpec& spec) {
    return ".x" + std::to_string(spec.matrices) + (spec.trans ? ".trans" : "");
}

std::string ldmatrix_id(const LdmatrixSpec& spec) { return "ldmatrix" + variant_suffix(spec); }

std::string ldmatrix_ptx(const LdmatrixSpec& spec) {
    return "ldmatrix.sync.aligned.m8n8" + variant_suffix(spec) + ".shared.b16";
}

FragmentLayout make_ldmatrix_layout(const LdmatrixSpec& spec) {
    const int rows = kLdmatrixSide * spec.matrices;
    FragmentLayout layout = make_fragment_layout(ldmatrix_id(spec), ldmatrix_ptx(spec), kWarpLanes);
    layout.operands.push_back(build_operand_layout(
        Operand::D, rows, kLdmatrixSide, kLdmatrixElemBits, spec.matrices, kWarpLanes,
        [&](int lane, int reg, int sub) { return ldmatrix_coord(spec.trans, lane, reg, sub); }));
    layout.address_lanes.resize(static_cast<size_t>(rows));
    std::iota(layout.address_lanes.begin(), layout.address_lanes.end(), 0);
    return layout;
}

}  // namespace

MatrixCoord ldmatrix_coord(bool trans, int lane, int reg, int sub) {
    const int group = lane / 4;
    const int pair = 2 * (lane % 4) + sub;
    const int first_row = kLdmatrixSide * reg;
    return trans ? MatrixCoord{first_row + pair, group} : MatrixCoord{first_row + group, pair};
}

std::vector<std::string> ldmatrix_layout_ids() {
    std::vector<std::string> ids;
    for (const LdmatrixSpec& spec : kLdmatrixSpecs) {
        ids.push_back(ldmatrix_id(spec));
    }
    return ids;
}

std::optional<FragmentLayout> ldmatrix_layout(std::string_view id) {
    for (const LdmatrixSpec& spec : kLdmatrixSpecs) {
        if (ldmatrix_id(spec) == id) {
            return make_ldmatrix_layout(spec);
        }
    }
    return std::nullopt;
}

}  // namespace tclens::viz
