#pragma once
// The Fragments panel's overlay of a one-warp fragment exercise (kernels/user/
// fragment_exercise.h): which cells of the instruction's layout drawing (viz/fragment_view.h)
// hold an A, B or C element that the student's index mapping got wrong. Pure: no ImGui.

#include <vector>

#include "kernels/user/fragment_exercise.h"
#include "viz/draw_list.h"
#include "viz/fragment_layout.h"
#include "viz/fragment_view.h"

namespace tclens::gui {

// Per hit of `view` (FragmentView::hits, drawn from `layout`): the report's element of that
// cell when the mapping got it wrong, else nullptr. A cell is matched by operand and (row, col);
// lane-only hits, operands the report has no entry for (D) and a report of another layout
// (report.layout_id != layout.id) match nothing. Pointers point into `report`.
std::vector<const kernels::user::ExerciseElement*> exercise_wrong_hits(
    const viz::FragmentLayout& layout, const viz::FragmentView& view,
    const kernels::user::ExerciseReport& report);

// `view`'s drawing with an arrow in `colour` from each wrong element's cell to the cell of the
// same operand where the mapping put it (ExerciseElement::went_row / went_col), for the elements
// whose destination the report decoded; the drawing unchanged when there are none (or the
// report is of another layout).
viz::DrawList with_exercise_arrows(const viz::FragmentLayout& layout, const viz::FragmentView& view,
                                   const kernels::user::ExerciseReport& report, viz::Rgba colour);

}  // namespace tclens::gui
