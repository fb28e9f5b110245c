// Tests for viz/strip_chart.*: which values become columns, where they sit and how tall they are.
#include "viz/strip_chart.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace tclens::viz {
namespace {

// The value columns (hit >= 0), in drawing order.
std::vector<DrawRect> columns(const DrawList& draw) {
    std::vector<DrawRect> found;
    for (const DrawRect& rect : draw.rects) {
        if (rect.hit >= 0) found.push_back(rect);
    }
    return found;
}

const DrawRect& frame(const DrawList& draw) {
    for (const DrawRect& rect : draw.rects) {
        if (rect.hit == -1) return rect;
    }
    ADD_FAILURE() << "no frame";
    return draw.rects.front();
}

TEST(StripChart, KeepsTheNewestCapacityValuesRightAligned) {
    StripChartOptions options;
    options.capacity = 4;
    options.width = 200;
    options.fixed_max = 10;
    const DrawList draw = strip_chart({1, 2, 3, 4, 5, 6}, options);
    const std::vector<DrawRect> cols = columns(draw);
    ASSERT_EQ(cols.size(), 4u);
    for (int j = 0; j < 4; ++j) EXPECT_EQ(cols[size_t(j)].hit, j + 2);
    const DrawRect& plot = frame(draw);
    EXPECT_FLOAT_EQ(cols.back().x + cols.back().w, plot.x + plot.w);  // newest at the right edge
    EXPECT_FLOAT_EQ(cols.front().w, 50.0f);
    EXPECT_FLOAT_EQ(cols.front().x, plot.x);
    // Heights in proportion to value / max, bottoms on the plot's bottom.
    EXPECT_FLOAT_EQ(cols[3].h, plot.h * 0.6f);
    for (const DrawRect& c : cols) EXPECT_FLOAT_EQ(c.y + c.h, plot.y + plot.h);
}

TEST(StripChart, NotYetFullFillsFromTheRight) {
    StripChartOptions options;
    options.capacity = 10;
    options.width = 100;
    options.fixed_max = 100;
    const DrawList draw = strip_chart({50, 100}, options);
    const std::vector<DrawRect> cols = columns(draw);
    ASSERT_EQ(cols.size(), 2u);
    const DrawRect& plot = frame(draw);
    EXPECT_FLOAT_EQ(cols[0].x, plot.x + 80.0f);
    EXPECT_FLOAT_EQ(cols[1].x, plot.x + 90.0f);
    EXPECT_FLOAT_EQ(cols[1].h, plot.h);
    EXPECT_FLOAT_EQ(cols[0].h, plot.h / 2);
}

TEST(StripChart, BadValuesGiveNoColumnAndLargeOnesAreClipped) {
    StripChartOptions options;
    options.fixed_max = 100;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    const DrawList draw = strip_chart({-1, nan, inf, 0, 250, 20}, options);
    const std::vector<DrawRect> cols = columns(draw);
    ASSERT_EQ(cols.size(), 2u);
    EXPECT_EQ(cols[0].hit, 4);
    EXPECT_FLOAT_EQ(cols[0].h, frame(draw).h);  // 250 of 100: full height, no more
    EXPECT_EQ(cols[1].hit, 5);
}

TEST(StripChart, AxisMaxIsFixedOrANiceRoundingOfTheDrawnValues) {
    StripChartOptions options;
    EXPECT_DOUBLE_EQ(strip_chart_max({3, 612.4, 7}, options), 800);
    options.capacity = 2;  // 612.4 is no longer drawn
    EXPECT_DOUBLE_EQ(strip_chart_max({612.4, 3, 7}, options), 8);
    EXPECT_DOUBLE_EQ(strip_chart_max({}, options), 1);
    options.fixed_max = 100;
    EXPECT_DOUBLE_EQ(strip_chart_max({612.4}, options), 100);
}

TEST(StripChart, TitleValueAndAxisTextsAndSize) {
    StripChartOptions options;
    options.title = "tensor pipe";
    options.value_text = "45.6 %";
    options.unit = "%";
    options.fixed_max = 100;
    options.width = 240;
    options.plot_height = 48;
    const DrawList draw = strip_chart({45.6}, options);
    ASSERT_EQ(draw.texts.size(), 2u);
    EXPECT_EQ(draw.texts[0].text, "tensor pipe  45.6 %");
    EXPECT_EQ(draw.texts[1].text, "0 to 100 %");
    const DrawRect& plot = frame(draw);
    EXPECT_GT(plot.y, draw.texts[0].y + draw.texts[0].size - 1);  // the plot is below the title
    EXPECT_GE(draw.width, plot.x + plot.w);
    EXPECT_GE(draw.height, plot.y + plot.h);

    const DrawList bare = strip_chart({}, StripChartOptions{});
    EXPECT_EQ(bare.texts.size(), 1u);  // the axis max only
    EXPECT_TRUE(columns(bare).empty());
}

TEST(StripChart, ColumnsTakeTheCategoryColourOfThePalette) {
    StripChartOptions options;
    options.category = 2;
    options.palette = &high_contrast_palette();
    const DrawList draw = strip_chart({1}, options);
    ASSERT_EQ(columns(draw).size(), 1u);
    EXPECT_EQ(columns(draw)[0].fill, category_colour(high_contrast_palette(), 2));
    EXPECT_EQ(draw.background, high_contrast_palette().background);
}

}  // namespace
}  // namespace tclens::viz
