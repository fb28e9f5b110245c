#include "app/gui/views/exercise_overlay.h"

namespace tclens::gui {

std::vector<const kernels::user::ExerciseElement*> exercise_wrong_hits(
    const viz::FragmentLayout& layout, const viz::FragmentView& view,
    const kernels::user::ExerciseReport& report) {
    std::vector<const kernels::user::ExerciseElement*> wrong(view.hits.size(), nullptr);
    if (report.layout_id != layout.id) return wrong;
    for (std::size_t hit = 0; hit < view.hits.size(); ++hit) {
        const viz::FragmentHit& h = view.hits[hit];
        if (h.element == viz::kLaneOnlyHit) continue;
        const viz::OperandLayout* model = layout.find(h.operand);
        if (!model || h.element >= int(model->elements.size())) continue;
        const viz::LayoutElement& cell = model->elements[std::size_t(h.element)];
        for (const kernels::user::ExerciseOperand& operand : report.operands) {
            if (operand.operand != h.operand) continue;
            if (cell.row >= operand.rows || cell.col >= operand.cols) continue;
            const std::size_t index = std::size_t(cell.row) * std::size_t(operand.cols) + cell.col;
            if (index < operand.elements.size() && !operand.elements[index].correct)
                wrong[hit] = &operand.elements[index];
        }
    }
    return wrong;
}

}  // namespace tclens::gui
