// Tests for app/gui/views/exercise_overlay.*: which cells of a layout drawing an exercise report
// marks wrong.

#include "app/gui/views/exercise_overlay.h"

#include <gtest/gtest.h>

namespace tclens::gui {
namespace {

// A report for `layout` with every element right except A (r, c).
kernels::user::ExerciseReport report_with_wrong_a(const viz::FragmentLayout& layout, int r, int c) {
    kernels::user::ExerciseReport report;
    report.layout_id = layout.id;
    for (const viz::Operand op : {viz::Operand::A, viz::Operand::B, viz::Operand::C}) {
        const viz::OperandLayout* model = layout.find(op);
        kernels::user::ExerciseOperand operand;
        operand.operand = op;
        operand.rows = model->rows;
        operand.cols = model->cols;
        for (int row = 0; row < model->rows; ++row) {
            for (int col = 0; col < model->cols; ++col) {
                kernels::user::ExerciseElement e;
                e.row = row;
                e.col = col;
                e.correct = !(op == viz::Operand::A && row == r && col == c);
                operand.elements.push_back(e);
            }
        }
        report.operands.push_back(operand);
    }
    return report;
}

TEST(ExerciseOverlay, MarksExactlyTheCellsOfTheWrongElement) {
    const viz::FragmentLayout layout = *viz::fragment_layout("mma.m16n8k8.tf32");
    const viz::FragmentView view = viz::fragment_view(layout, {});
    const auto report = report_with_wrong_a(layout, 9, 5);
    const auto wrong = exercise_wrong_hits(layout, view, report);
    ASSERT_EQ(wrong.size(), view.hits.size());
    int marked = 0;
    for (std::size_t hit = 0; hit < wrong.size(); ++hit) {
        if (!wrong[hit]) continue;
        ++marked;
        const viz::FragmentHit& h = view.hits[hit];
        EXPECT_EQ(h.operand, viz::Operand::A);
        const viz::LayoutElement& cell = layout.find(h.operand)->elements[std::size_t(h.element)];
        EXPECT_EQ(cell.row, 9);
        EXPECT_EQ(cell.col, 5);
        EXPECT_EQ(wrong[hit]->row, 9);
        EXPECT_EQ(wrong[hit]->col, 5);
    }
    EXPECT_EQ(marked, 1) << "one cell of A holds (9, 5)";
}

TEST(ExerciseOverlay, AReportOfAnotherLayoutMarksNothing) {
    const viz::FragmentLayout layout = *viz::fragment_layout("mma.m16n8k8.tf32");
    const viz::FragmentView view = viz::fragment_view(layout, {});
    auto report = report_with_wrong_a(layout, 0, 0);
    report.layout_id = "mma.m16n8k16.f16";
    for (const auto* e : exercise_wrong_hits(layout, view, report)) EXPECT_EQ(e, nullptr);
}

TEST(ExerciseOverlay, AnArrowRunsFromEachWrongElementToWhereItWent) {
    const viz::FragmentLayout layout = *viz::fragment_layout("mma.m16n8k8.tf32");
    const viz::FragmentView view = viz::fragment_view(layout, {});
    auto report = report_with_wrong_a(layout, 9, 5);
    const viz::Rgba red{255, 0, 0, 255};
    // Not decoded: no arrow, the drawing as it was.
    EXPECT_TRUE(with_exercise_arrows(layout, view, report, red).lines.empty());
    // A (9, 5) went to (1, 5): a shaft from one cell's centre to the other's, and a head there.
    for (kernels::user::ExerciseOperand& operand : report.operands) {
        if (operand.operand != viz::Operand::A) continue;
        auto& e = operand.elements[std::size_t(9 * operand.cols + 5)];
        e.went_row = 1;
        e.went_col = 5;
    }
    const viz::DrawList draw = with_exercise_arrows(layout, view, report, red);
    ASSERT_EQ(draw.lines.size(), 3u);  // shaft and two head strokes
    EXPECT_EQ(draw.rects.size(), view.draw.rects.size());
    const auto centre_of = [&](int row, int col) {
        for (const viz::DrawRect& rect : view.draw.rects) {
            if (rect.hit < 0) continue;
            const viz::FragmentHit& h = view.hits[std::size_t(rect.hit)];
            if (h.operand != viz::Operand::A || h.element == viz::kLaneOnlyHit) continue;
            const auto& cell = layout.find(h.operand)->elements[std::size_t(h.element)];
            if (cell.row == row && cell.col == col)
                return std::pair{rect.x + 0.5f * rect.w, rect.y + 0.5f * rect.h};
        }
        return std::pair{-1.0f, -1.0f};
    };
    const auto from = centre_of(9, 5), to = centre_of(1, 5);
    EXPECT_FLOAT_EQ(draw.lines[0].x0, from.first);
    EXPECT_FLOAT_EQ(draw.lines[0].y0, from.second);
    EXPECT_FLOAT_EQ(draw.lines[0].x1, to.first);
    EXPECT_FLOAT_EQ(draw.lines[0].y1, to.second);
    EXPECT_EQ(draw.lines[1].x0, to.first);  // the head starts at the arrow's end
    EXPECT_TRUE(draw.lines[0].colour == red);
}

}  // namespace
}  // namespace tclens::gui
