#include "viz/layouts/wgmma_layouts.h"

#include "viz/layouts/mma_layouts.h"

namespace tclens::viz {

namespace {

constexpr int kWarpgroupThreads = 128;
constexpr int kWarpLanes = 32;
constexpr int kM = 64;
constexpr int kK = 16;
constexpr int kRowsPerWarp = 16;
constexpr int kNStep = 8;
constexpr int kMaxN = 256;
constexpr int kInBits = 16;   // .f16
constexpr int kAccBits = 32;  // .f32
constexpr int kARegs = 4;
constexpr int kRegsPerNStep = 4;  // one m16n8 accumulator fragment per 8 columns

std::string wgmma_ptx(int n) {
    return "wgmma.mma_async.sync.aligned.m64n" + std::to_string(n) + "k16.f32.f16.f16";
}

// (lane, reg, sub) -> (row, col) of A (64 x 16): warp w holds the mma.m16n8k16 A fragment of
// rows 16w..16w+15.
// lane 37, a7 (reg 3, sub 1) -> (25, 11)
MatrixCoord wgmma_a_coord(int lane, int reg, int sub) {
    const MatrixCoord in_warp = mma_a_coord(kRowsPerWarp, kInBits, lane % kWarpLanes, reg, sub);
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

FragmentLayout make_wgmma_layout(int n) {
    FragmentLayout layout{wgmma_layout_id(n), wgmma_ptx(n), kWarpgroupThreads, {}, {}};
    layout.operands.push_back(build_operand_layout(Operand::A, kM, kK, kInBits, kARegs,
                                                   kWarpgroupThreads, wgmma_a_coord));
    layout.operands.push_back(build_operand_layout(
        Operand::D, kM, n, kAccBits, kM * n / kWarpgroupThreads, kWarpgroupThreads,
        [](int lane, int reg, int) { return wgmma_d_coord(lane, reg); }));
    return layout;
}

}  // namespace

std::vector<std::string> wgmma_layout_ids() {
    std::vector<std::string> ids;
    for (int n = kNStep; n <= kMaxN; n += kNStep) {
        ids.push_back(wgmma_layout_id(n));
    }
    return ids;
}

std::string wgmma_layout_id(int n) { return "wgmma.m64n" + std::to_string(n) + "k16.f16"; }

int wgmma_layout_n(std::string_view id) {
    for (int n = kNStep; n <= kMaxN; n += kNStep) {
        if (wgmma_layout_id(n) == id) return n;
    }
    return 0;
}

std::optional<FragmentLayout> wgmma_layout(std::string_view id) {
    const int n = wgmma_layout_n(id);
    if (n == 0) return std::nullopt;
    return make_wgmma_layout(n);
}

}  // namespace tclens::viz
