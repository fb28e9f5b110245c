// The Profile panel's draw records (app/gui/views/profile_results_view.h) and their export: one
// card per metric with the card's index as its hit, charts that fit inside the cards, the timeline
// charts stacked; the SVG and PNG the Export buttons write exist and are not blank.
#include "app/gui/views/profile_results_view.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "tests/support/png_inspect.h"
#include "tests/support/run_command.h"
#include "viz/png_writer.h"
#include "viz/raster.h"
#include "viz/strip_chart.h"
#include "viz/svg_export.h"

namespace tclens::gui {
namespace {

std::vector<MetricCard> three_cards() {
    profiling::KernelProfile profile;
    profile.metrics = {{kTensorPipeMetric, "tensor pipe", "%", 61.5},
                       {"dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM", "%", 12.0},
                       {"gpu__time_duration.sum", "duration", "ms", 1.25}};
    return metric_cards(profile);
}

std::vector<viz::DrawList> charts_for(size_t count, const viz::Palette& palette) {
    std::vector<viz::DrawList> charts;
    for (size_t i = 0; i < count; ++i) {
        viz::StripChartOptions options;
        options.width = metric_card_chart_width();
        options.fixed_max = 100;
        options.category = int(i);
        options.palette = &palette;
        charts.push_back(viz::strip_chart({10, 40, 70, 55}, options));
    }
    return charts;
}

TEST(MetricCardsView, OneCardPerMetricChartsInsideTheirCards) {
    const auto cards = three_cards();
    const viz::Palette& palette = viz::dark_palette();
    const viz::DrawList draw =
        metric_cards_view(cards, charts_for(cards.size(), palette), 2, palette);
    std::vector<const viz::DrawRect*> frames;
    for (const viz::DrawRect& rect : draw.rects) {
        if (rect.hit >= 0) frames.push_back(&rect);
    }
    ASSERT_EQ(frames.size(), 3u);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(frames[size_t(i)]->hit, i);
        EXPECT_FLOAT_EQ(frames[size_t(i)]->w, kMetricCardWidth);
    }
    EXPECT_FLOAT_EQ(frames[0]->y, frames[1]->y);  // two to a row
    EXPECT_GT(frames[2]->y, frames[0]->y);
    // Every chart column lies inside a card.
    int columns = 0;
    for (const viz::DrawRect& rect : draw.rects) {
        if (rect.hit >= 0 || rect.fill != viz::category_colour(palette, 1)) continue;
        ++columns;
        EXPECT_GE(rect.x, frames[1]->x);
        EXPECT_LE(rect.x + rect.w, frames[1]->x + frames[1]->w + 0.01f);
    }
    EXPECT_EQ(columns, 4);
    bool value = false;
    for (const viz::DrawText& text : draw.texts) value = value || text.text == cards[0].value_text;
    EXPECT_TRUE(value) << cards[0].value_text;
}

TEST(TimelineView, ChartsStackedWithoutHits) {
    const viz::Palette& palette = viz::high_contrast_palette();
    const auto charts = charts_for(3, palette);
    const viz::DrawList draw = timeline_view(charts, palette);
    EXPECT_GE(draw.height, 3 * charts[0].height);
    for (const viz::DrawRect& rect : draw.rects) EXPECT_EQ(rect.hit, -1);
    EXPECT_EQ(draw.background, palette.background);
}

TEST(ProfileExport, SvgAndPngAreWrittenAndNotBlank) {
    const auto cards = three_cards();
    const viz::Palette& palette = viz::dark_palette();
    const viz::DrawList draw =
        metric_cards_view(cards, charts_for(cards.size(), palette), 3, palette);
    const std::string svg = test::temp_path("profile.svg"), png = test::temp_path("profile.png");
    ASSERT_EQ(viz::write_svg(draw, svg), "");
    ASSERT_EQ(viz::write_png(viz::rasterize(draw), png), "");
    std::ifstream file(svg);
    std::stringstream text;
    text << file.rdbuf();
    EXPECT_NE(text.str().find(">tensor pipe</text>"), std::string::npos);
    const test::PngFacts facts = test::inspect_png(png);
    std::remove(svg.c_str());
    std::remove(png.c_str());
    ASSERT_TRUE(facts.loaded);
    EXPECT_EQ(facts.width, int(draw.width));
    EXPECT_EQ(facts.height, int(draw.height));
    EXPECT_GT(facts.distinct_colours, 6);  // background, card fill and outline, three chart colours
    EXPECT_GT(facts.text_rows, 10);        // one row of cards: the values' glyphs, 18 px tall
    // The first chart's columns are painted in its category colour.
    EXPECT_GT(test::count_pixels(facts, viz::category_colour(palette, 0)), 100);
}

}  // namespace
}  // namespace tclens::gui

namespace tclens::gui {
namespace {

TEST(ProfileResultsView, ASparklineOnlyWhereTheValueMoves) {
    EXPECT_FALSE(value_moves({}));
    EXPECT_FALSE(value_moves({7}));                // a recorded profile: one value
    EXPECT_FALSE(value_moves({128, 128, 128}));    // a launch fact: registers per thread
    EXPECT_FALSE(value_moves({1e9, 1e9 + 1e-3}));  // float noise on a large value
    EXPECT_TRUE(value_moves({40, 41.5}));
    EXPECT_TRUE(value_moves({0, 0, 0.5}));
    EXPECT_TRUE(value_moves({NAN, 3, 4}));
    EXPECT_FALSE(value_moves({NAN, 3, INFINITY}));  // one finite value
}

}  // namespace
}  // namespace tclens::gui
