#include "app/gui/views/profile_results_view.h"

#include <algorithm>
#include <cmath>

#include "viz/card_grid.h"

namespace tclens::gui {
namespace {

constexpr float kCardPadding = 8.0f;
constexpr float kStripChartMargins = 8.0f;  // viz::strip_chart's margin, both sides

}  // namespace

float metric_card_chart_width() { return kMetricCardWidth - 2 * kCardPadding - kStripChartMargins; }

viz::DrawList metric_cards_view(const std::vector<MetricCard>& cards,
                                const std::vector<viz::DrawList>& charts, int per_row,
                                const viz::Palette& palette) {
    std::vector<viz::Card> grid;
    for (std::size_t i = 0; i < cards.size(); ++i) {
        grid.push_back(
            {cards[i].label, cards[i].value_text, i < charts.size() ? charts[i] : viz::DrawList{}});
    }
    viz::CardGridOptions options;
    options.card_width = kMetricCardWidth;
    options.per_row = per_row;
    options.padding = kCardPadding;
    options.palette = &palette;
    return viz::card_grid(grid, options);
}

bool value_moves(const std::vector<double>& history) {
    double lowest = 0, highest = 0;
    int finite = 0;
    for (const double value : history) {
        if (!std::isfinite(value)) continue;
        lowest = finite == 0 ? value : std::min(lowest, value);
        highest = finite == 0 ? value : std::max(highest, value);
        ++finite;
    }
    const double magnitude = std::max(std::fabs(lowest), std::fabs(highest));
    return finite >= 2 && highest - lowest > 1e-6 * magnitude;
}

viz::DrawList timeline_view(const std::vector<viz::DrawList>& charts, const viz::Palette& palette) {
    return viz::stack_vertically(charts, 6.0f, palette.background);
}

}  // namespace tclens::gui
