#pragma once
// The Profile panel's results as draw records (viz/card_grid.h), no ImGui: the panel paints
// them and its Export buttons write the same records as SVG and PNG.

#include <vector>

#include "app/gui/views/profile_view.h"
#include "viz/draw_list.h"
#include "viz/palette.h"

namespace tclens::gui {

// Card width in the panel and in exports, pixels; a card's strip chart fits inside it.
inline constexpr float kMetricCardWidth = 250.0f;
// The plot width of a card's strip chart (viz/strip_chart.h) that fits kMetricCardWidth.
float metric_card_chart_width();

// One card per metric, `per_row` to a row: card i shows cards[i].label, cards[i].value_text and
// charts[i] (a missing chart: none), and its frame has DrawRect::hit i (for the tooltip).
viz::DrawList metric_cards_view(const std::vector<MetricCard>& cards,
                                const std::vector<viz::DrawList>& charts, int per_row,
                                const viz::Palette& palette);

// Whether a card's history is worth a sparkline: two or more finite values that differ (more
// than a millionth of the largest magnitude). A launch fact (registers, threads, blocks) or a
// recorded profile's single value does not move, and its card shows the number alone.
// {1, 1, 1} -> false; {40, 41.5} -> true; {7} -> false.
bool value_moves(const std::vector<double>& history);

// The PM-sampling strip charts one below the other (no hover targets).
viz::DrawList timeline_view(const std::vector<viz::DrawList>& charts, const viz::Palette& palette);

}  // namespace tclens::gui
