#include "app/gui/views/exercise_overlay.h"

#include <map>
#include <tuple>
#include <utility>

#include "viz/view_builder.h"

namespace tclens::gui {

namespace {

// The layout element a hit of `view` points at; nullptr for lane-only hits and hits outside it.
const viz::LayoutElement* element_of_hit(const viz::FragmentLayout& layout,
                                         const viz::FragmentView& view, int hit) {
    if (hit < 0 || hit >= int(view.hits.size())) return nullptr;
    const viz::FragmentHit& h = view.hits[std::size_t(hit)];
    if (h.element == viz::kLaneOnlyHit) return nullptr;
    const viz::OperandLayout* model = layout.find(h.operand);
    if (!model || h.element >= int(model->elements.size())) return nullptr;
    return &model->elements[std::size_t(h.element)];
}

}  // namespace

std::vector<const kernels::user::ExerciseElement*> exercise_wrong_hits(
    const viz::FragmentLayout& layout, const viz::FragmentView& view,
    const kernels::user::ExerciseReport& report) {
    std::vector<const kernels::user::ExerciseElement*> wrong(view.hits.size(), nullptr);
    if (report.layout_id != layout.id) return wrong;
    for (std::size_t hit = 0; hit < view.hits.size(); ++hit) {
        const viz::LayoutElement* cell = element_of_hit(layout, view, int(hit));
        if (cell == nullptr) continue;
        for (const kernels::user::ExerciseOperand& operand : report.operands) {
            if (operand.operand != view.hits[hit].operand) continue;
            if (cell->row >= operand.rows || cell->col >= operand.cols) continue;
            const std::size_t index =
                std::size_t(cell->row) * std::size_t(operand.cols) + cell->col;
            if (index < operand.elements.size() && !operand.elements[index].correct)
                wrong[hit] = &operand.elements[index];
        }
    }
    return wrong;
}

viz::DrawList with_exercise_arrows(const viz::FragmentLayout& layout, const viz::FragmentView& view,
                                   const kernels::user::ExerciseReport& report, viz::Rgba colour) {
    viz::DrawList draw = view.draw;
    if (report.layout_id != layout.id) return draw;
    // (operand, row, col) -> the centre of its cell in the drawing.
    std::map<std::tuple<viz::Operand, int, int>, std::pair<float, float>> centre;
    for (const viz::DrawRect& rect : view.draw.rects) {
        const viz::LayoutElement* cell = element_of_hit(layout, view, rect.hit);
        if (cell == nullptr) continue;
        centre[{view.hits[std::size_t(rect.hit)].operand, cell->row, cell->col}] = {
            rect.x + 0.5f * rect.w, rect.y + 0.5f * rect.h};
    }
    viz::DrawListBuilder arrows(viz::dark_palette());
    for (const kernels::user::ExerciseOperand& operand : report.operands) {
        for (const kernels::user::ExerciseElement& e : operand.elements) {
            if (e.correct || e.went_row < 0 || e.went_col < 0) continue;
            const auto from = centre.find({operand.operand, e.row, e.col});
            const auto to = centre.find({operand.operand, e.went_row, e.went_col});
            if (from == centre.end() || to == centre.end() || from == to) continue;
            arrows.arrow(from->second.first, from->second.second, to->second.first,
                         to->second.second, colour, 2.0f, 8.0f);
        }
    }
    const viz::DrawList drawn = arrows.take();
    draw.lines.insert(draw.lines.end(), drawn.lines.begin(), drawn.lines.end());
    return draw;
}

}  // namespace tclens::gui
