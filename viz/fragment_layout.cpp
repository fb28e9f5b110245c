#include "viz/fragment_layout.h"

#include "viz/layouts/ldmatrix_layouts.h"
#include "viz/layouts/mma_layouts.h"
#include "viz/layouts/wgmma_layouts.h"

namespace tclens::viz {

namespace {

struct LayoutFamily {
    std::vector<std::string> (*ids)();
    std::optional<FragmentLayout> (*layout)(std::string_view id);
};

// The one list of layout families; its order is the order of fragment_layout_ids().
constexpr LayoutFamily kFamilies[] = {
    {mma_layout_ids, mma_layout},
    {ldmatrix_layout_ids, ldmatrix_layout},
    {wgmma_layout_ids, wgmma_layout},
};

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
    std::string text;
    bool wgmma_listed = false;
    for (const std::string& id : fragment_layout_ids()) {
        const bool wgmma = id.rfind("wgmma.", 0) == 0;
        if (wgmma && wgmma_listed) continue;
        if (!text.empty()) text += ", ";
        text += wgmma ? "wgmma.m64nNk16.f16 (N = 8, 16, ..., 256)" : id;
        wgmma_listed = wgmma_listed || wgmma;
    }
    return text;
}

std::optional<FragmentLayout> fragment_layout(std::string_view id) {
    for (const LayoutFamily& family : kFamilies) {
        if (std::optional<FragmentLayout> layout = family.layout(id)) {
            return layout;
        }
    }
    return std::nullopt;
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
    }
    return '?';
}

std::optional<Operand> parse_operand(std::string_view text) {
    if (text == "A") return Operand::A;
    if (text == "B") return Operand::B;
    if (text == "C") return Operand::C;
    if (text == "D") return Operand::D;
    return std::nullopt;
}

int elements_per_register(int elem_bits) { return elem_bits == 64 ? 1 : 32 / elem_bits; }

OperandLayout build_operand_layout(Operand op, int rows, int cols, int elem_bits,
                                   int regs_per_thread, int threads, const ElementMapping& map) {
    const int subs = elements_per_register(elem_bits);
    OperandLayout layout{op, rows, cols, elem_bits, regs_per_thread, {}};
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

}  // namespace tclens::viz
