#include "viz/fragment_layout.h"

#include <utility>

#include "common/text.h"
#include "viz/layouts/ldmatrix_layouts.h"
#include "viz/layouts/matrix_move_layouts.h"
#include "viz/layouts/mma_layouts.h"
#include "viz/layouts/mma_sp_layouts.h"
#include "viz/layouts/tcgen05_layouts.h"
#include "viz/layouts/wgmma_layouts.h"
#include "viz/layouts/wgmma_smem_layouts.h"

namespace tclens::viz {

namespace {

struct LayoutFamily {
    std::vector<std::string> (*ids)();
    std::optional<FragmentLayout> (*layout)(std::string_view id);
};

// The one list of layout families; its order is the order of fragment_layout_ids().
constexpr LayoutFamily kFamilies[] = {
    {mma_layout_ids, mma_layout},           {mma_sp_layout_ids, mma_sp_layout},
    {ldmatrix_layout_ids, ldmatrix_layout}, {matrix_move_layout_ids, matrix_move_layout},
    {wgmma_layout_ids, wgmma_layout},       {wgmma_smem_layout_ids, wgmma_smem_layout},
    {tcgen05_layout_ids, tcgen05_layout},
};

bool starts_with(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

bool is_fp8(std::string_view id) {
    return id.find(".e4m3") != std::string_view::npos || id.find(".e5m2") != std::string_view::npos;
}

// "wgmma.m64n96k32.e4m3" -> "wgmma.m64nNk32.e4m3 (N = 8, 16, ..., 256)"; the integer and b1
// shapes list their first values, which step by 8 and then by 16.
std::string folded_wgmma_entry(std::string_view id) {
    const std::string type = wgmma_layout_type(id);
    const std::vector<int> ns = wgmma_layout_ns(type);
    std::string shape(id.substr(0, id.size() - type.size() - 1));
    const size_t n_at = shape.find('n', 6);
    const size_t k_at = shape.find('k', n_at);
    shape = shape.substr(0, n_at + 1) + "N" + shape.substr(k_at);
    const bool every_8 = int(ns.size()) == 32;
    return shape + "." + type +
           (every_8 ? " (N = 8, 16, ..., 256)" : " (N = 8, 16, 24, 32, 48, 64, ..., 256)");
}

}  // namespace

const OperandLayout* FragmentLayout::find(Operand op) const {
    for (const OperandLayout& layout : operands) {
        if (layout.operand == op) {
            return &layout;
        }
    }
    return nullptr;
}

std::vector<std::string> fragment_layout_ids() {
    std::vector<std::string> ids;
    for (const LayoutFamily& family : kFamilies) {
        std::vector<std::string> family_ids = family.ids();
        ids.insert(ids.end(), family_ids.begin(), family_ids.end());
    }
    return ids;
}

std::string fragment_layout_ids_text() {
    std::vector<std::string> entries;
    std::string last_wgmma_type;
    for (const std::string& id : fragment_layout_ids()) {
        const std::string wgmma_type = wgmma_layout_type(id);
        if (!wgmma_type.empty() && wgmma_type == last_wgmma_type) continue;
        last_wgmma_type = wgmma_type;
        entries.push_back(wgmma_type.empty() ? id : folded_wgmma_entry(id));
    }
    return common::join(entries, ", ");
}

std::optional<FragmentLayout> fragment_layout(std::string_view id) {
    for (const LayoutFamily& family : kFamilies) {
        if (std::optional<FragmentLayout> layout = family.layout(id)) {
            return layout;
        }
    }
    return std::nullopt;
}

LayoutFamilyInfo layout_family(std::string_view id) {
    if (!fragment_layout(id)) return {};
    if (starts_with(id, "mma.sp.")) return {"mma.sp", is_fp8(id) ? "sm_89" : "sm_80"};
    if (starts_with(id, "mma.")) return {"mma.sync", is_fp8(id) ? "sm_89" : "sm_80"};
    if (starts_with(id, "ldmatrix.")) return {"ldmatrix", "sm_80"};
    if (starts_with(id, "stmatrix.")) return {"stmatrix", "sm_90"};
    if (starts_with(id, "movmatrix.")) return {"movmatrix", "sm_80"};
    if (starts_with(id, "wgmma.smem.")) return {"wgmma smem", "sm_90a"};
    if (starts_with(id, "wgmma.")) return {"wgmma", "sm_90a"};
    if (starts_with(id, "tcgen05.")) return {"tcgen05", "sm_100a"};
    return {};
}

FragmentLayout make_fragment_layout(std::string id, std::string ptx, int threads) {
    FragmentLayout layout;
    layout.id = std::move(id);
    layout.ptx = std::move(ptx);
    layout.threads = threads;
    return layout;
}

char operand_letter(Operand op) {
    switch (op) {
        case Operand::A:
            return 'A';
        case Operand::B:
            return 'B';
        case Operand::C:
            return 'C';
        case Operand::D:
            return 'D';
        case Operand::E:
            return 'E';
    }
    return '?';
}

std::optional<Operand> parse_operand(std::string_view text) {
    if (text == "A") return Operand::A;
    if (text == "B") return Operand::B;
    if (text == "C") return Operand::C;
    if (text == "D") return Operand::D;
    if (text == "E") return Operand::E;
    return std::nullopt;
}

int elements_per_register(int elem_bits) { return elem_bits == 64 ? 1 : 32 / elem_bits; }

bool is_dense(const OperandLayout& operand, int threads) {
    return operand.elements.size() == static_cast<size_t>(threads) * operand.regs_per_thread *
                                          elements_per_register(operand.elem_bits);
}

OperandLayout build_operand_layout(Operand op, int rows, int cols, int elem_bits,
                                   int regs_per_thread, int threads, const ElementMapping& map) {
    const int subs = elements_per_register(elem_bits);
    OperandLayout layout{op, rows, cols, elem_bits, regs_per_thread, {}, {}};
    layout.elements.reserve(static_cast<size_t>(threads * regs_per_thread * subs));
    for (int lane = 0; lane < threads; ++lane) {
        for (int reg = 0; reg < regs_per_thread; ++reg) {
            for (int sub = 0; sub < subs; ++sub) {
                const MatrixCoord at = map(lane, reg, sub);
                layout.elements.push_back({lane, reg, sub, at.row, at.col});
            }
        }
    }
    return layout;
}

OperandLayout build_partial_operand_layout(Operand op, int rows, int cols, int elem_bits,
                                           int regs_per_thread, int threads,
                                           const PartialElementMapping& map) {
    const int subs = elements_per_register(elem_bits);
    OperandLayout layout{op, rows, cols, elem_bits, regs_per_thread, {}, {}};
    layout.elements.reserve(static_cast<size_t>(rows * cols));
    for (int lane = 0; lane < threads; ++lane) {
        for (int reg = 0; reg < regs_per_thread; ++reg) {
            for (int sub = 0; sub < subs; ++sub) {
                if (const std::optional<MatrixCoord> at = map(lane, reg, sub)) {
                    layout.elements.push_back({lane, reg, sub, at->row, at->col});
                }
            }
        }
    }
    return layout;
}

}  // namespace tclens::viz
