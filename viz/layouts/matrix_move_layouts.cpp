#include "viz/layouts/matrix_move_layouts.h"

#include <numeric>

#include "viz/layouts/ldmatrix_layouts.h"
#include "viz/warp.h"

namespace tclens::viz {

namespace {

constexpr int kMoveSide = 8;
constexpr int kMoveElemBits = 16;
constexpr const char* kMovmatrixId = "movmatrix.trans";

struct StmatrixSpec {
    int matrices;
    bool trans;
};

constexpr StmatrixSpec kStmatrixSpecs[] = {
    {1, false}, {2, false}, {4, false}, {1, true}, {2, true}, {4, true},
};

std::string variant_suffix(const StmatrixSpec& spec) {
    return ".x" + std::to_string(spec.matrices) + (spec.trans ? ".trans" : "");
}

std::string stmatrix_id(const StmatrixSpec& spec) { return "stmatrix" + variant_suffix(spec); }

FragmentLayout make_stmatrix_layout(const StmatrixSpec& spec) {
    const int rows = kMoveSide * spec.matrices;
    FragmentLayout layout = make_fragment_layout(
        stmatrix_id(spec), "stmatrix.sync.aligned.m8n8" + variant_suffix(spec) + ".shared.b16",
        kWarpLanes);
    layout.operands.push_back(build_operand_layout(
        Operand::A, rows, kMoveSide, kMoveElemBits, spec.matrices, kWarpLanes,
        [&](int lane, int reg, int sub) { return ldmatrix_coord(spec.trans, lane, reg, sub); }));
    layout.operands.back().note =
        "Row/col are where the element lands in shared memory; lane 8j+r supplies the address "
        "of row 8j+r.";
    layout.address_lanes.resize(static_cast<size_t>(rows));
    std::iota(layout.address_lanes.begin(), layout.address_lanes.end(), 0);
    return layout;
}

FragmentLayout make_movmatrix_layout() {
    FragmentLayout layout =
        make_fragment_layout(kMovmatrixId, "movmatrix.sync.aligned.m8n8.trans.b16", kWarpLanes);
    for (const Operand op : {Operand::A, Operand::D}) {
        const bool trans = op == Operand::D;
        layout.operands.push_back(build_operand_layout(
            op, kMoveSide, kMoveSide, kMoveElemBits, 1, kWarpLanes,
            [trans](int lane, int reg, int sub) { return ldmatrix_coord(trans, lane, reg, sub); }));
    }
    layout.operands.back().note =
        "D is A transposed; its row/col are coordinates in the source matrix A.";
    return layout;
}

}  // namespace

std::vector<std::string> matrix_move_layout_ids() {
    std::vector<std::string> ids;
    for (const StmatrixSpec& spec : kStmatrixSpecs) ids.push_back(stmatrix_id(spec));
    ids.push_back(kMovmatrixId);
    return ids;
}

std::optional<FragmentLayout> matrix_move_layout(std::string_view id) {
    for (const StmatrixSpec& spec : kStmatrixSpecs) {
        if (stmatrix_id(spec) == id) return make_stmatrix_layout(spec);
    }
    if (id == kMovmatrixId) return make_movmatrix_layout();
    return std::nullopt;
}

}  // namespace tclens::viz
