// Tests for viz/bar_chart.*. Expected lengths and ticks are worked out by hand from the header's
// contract (bar length = value / axis.max * bar_area; axis step the smallest 1, 2 or 5 x 10^k
// >= largest / 5).
#include "viz/bar_chart.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "tests/support/draw_list_queries.h"

namespace tclens::viz {
namespace {

using test::find_text;
using test::hit_rect;

const DrawRect* bar_rect(const DrawList& draw, int bar) {
    for (const DrawRect& rect : draw.rects) {
        if (rect.hit == bar) return &rect;
    }
    return nullptr;
}

TEST(BarChartAxis, NiceStepsAndEnds) {
    const AxisScale a = nice_axis(612.4);  // 612.4 / 5 = 122.5 -> 200; 4 steps reach 800
    EXPECT_DOUBLE_EQ(a.step, 200);
    EXPECT_DOUBLE_EQ(a.max, 800);
    const AxisScale b = nice_axis(200);  // 40 -> 50, exactly 4 steps
    EXPECT_DOUBLE_EQ(b.step, 50);
    EXPECT_DOUBLE_EQ(b.max, 200);
    const AxisScale c = nice_axis(1000);  // 200 -> 200, exactly 5 steps
    EXPECT_DOUBLE_EQ(c.step, 200);
    EXPECT_DOUBLE_EQ(c.max, 1000);
    const AxisScale d = nice_axis(7);  // 1.4 -> 2; 8
    EXPECT_DOUBLE_EQ(d.step, 2);
    EXPECT_DOUBLE_EQ(d.max, 8);
    const AxisScale e = nice_axis(0.3);  // 0.06 -> 0.1; 0.3
    EXPECT_NEAR(e.step, 0.1, 1e-12);
    EXPECT_NEAR(e.max, 0.3, 1e-12);
    for (const double bad : {0.0, -5.0, std::numeric_limits<double>::quiet_NaN(),
                             std::numeric_limits<double>::infinity()}) {
        const AxisScale f = nice_axis(bad);
        EXPECT_EQ(f.step, 1);
        EXPECT_EQ(f.max, 1);
    }
}

TEST(BarChartAxis, AtMostFiveStepsAndNeverShorterThanTheLargestValue) {
    for (double v = 0.013; v < 1e5; v *= 1.37) {
        const AxisScale axis = nice_axis(v);
        EXPECT_GE(axis.max, v * (1 - 1e-9)) << v;
        EXPECT_LE(axis.max / axis.step, 5.0 + 1e-9) << v;
        EXPECT_GE(axis.max / axis.step, 1.0 - 1e-9) << v;
    }
}

TEST(BarChart, BarLengthsFollowTheValuesOnTheAxis) {
    BarChartOptions options;
    options.bar_area = 400;
    options.title = "TFLOP/s";
    const std::vector<Bar> bars = {
        {"naive", 100, "100.0", 0}, {"cublas", 612.4, "612.4", 1}, {"wmma", 400, "400.0", 2}};
    const DrawList draw = bar_chart(bars, options);
    // Axis 0..800: 100 -> 50 px, 612.4 -> 306.2 px, 400 -> 200 px, all from one origin.
    const DrawRect* naive = bar_rect(draw, 0);
    const DrawRect* cublas = bar_rect(draw, 1);
    const DrawRect* wmma = bar_rect(draw, 2);
    ASSERT_TRUE(naive && cublas && wmma);
    EXPECT_FLOAT_EQ(naive->w, 50.0f);
    EXPECT_NEAR(cublas->w, 306.2f, 0.01f);
    EXPECT_FLOAT_EQ(wmma->w, 200.0f);
    EXPECT_EQ(naive->x, cublas->x);
    EXPECT_EQ(naive->x, wmma->x);
    // In order, top to bottom, one row each, same height.
    EXPECT_LT(naive->y + naive->h, cublas->y + 0.5f);
    EXPECT_LT(cublas->y + cublas->h, wmma->y + 0.5f);
    EXPECT_EQ(naive->h, options.bar_height);
    // Colours by category.
    const Palette& palette = dark_palette();
    EXPECT_EQ(naive->fill, category_colour(palette, 0));
    EXPECT_EQ(cublas->fill, category_colour(palette, 1));
    EXPECT_EQ(wmma->fill, category_colour(palette, 2));
    // Labels left of the origin, value texts just right of each bar's end, same row.
    const DrawText* label = find_text(draw, "cublas");
    const DrawText* value = find_text(draw, "612.4");
    ASSERT_TRUE(label && value);
    EXPECT_LT(label->x, cublas->x);
    EXPECT_GE(value->x, cublas->x + cublas->w);
    EXPECT_LT(value->x, cublas->x + cublas->w + 12);
    EXPECT_GE(value->y, cublas->y);
    EXPECT_LE(value->y + value->size, cublas->y + cublas->h + 0.5f);
    ASSERT_TRUE(find_text(draw, "TFLOP/s"));
}

TEST(BarChart, GridLinesAndTickLabelsAtEveryStep) {
    BarChartOptions options;
    options.bar_area = 400;
    options.axis_label = "TFLOP/s";
    const DrawList draw = bar_chart({{"a", 612.4, "", 0}}, options);
    const DrawRect* bar = bar_rect(draw, 0);
    ASSERT_TRUE(bar);
    // Ticks 0, 200, ..., 800: five grid lines 100 px apart from the origin, before the bar.
    int lines = 0;
    for (const DrawRect& rect : draw.rects) {
        if (rect.hit >= 0) break;  // grid lines come first
        EXPECT_FLOAT_EQ(rect.x, bar->x + 100.0f * float(lines));
        EXPECT_EQ(rect.fill, dark_palette().grid);
        ++lines;
    }
    EXPECT_EQ(lines, 5);
    for (const char* tick : {"0", "200", "400", "600", "800"}) {
        const DrawText* text = find_text(draw, tick);
        ASSERT_TRUE(text) << tick;
        EXPECT_EQ(text->align, TextAlign::kCenter);
        EXPECT_GT(text->y, bar->y + bar->h);
    }
    const DrawText* axis = find_text(draw, "TFLOP/s");
    ASSERT_TRUE(axis);
    EXPECT_GT(axis->x, bar->x + 400.0f);
}

TEST(BarChart, ZeroNegativeAndNotFiniteValuesHaveNoBarButKeepTheirTexts) {
    const std::vector<Bar> bars = {{"zero", 0, "0 TFLOP/s", 0},
                                   {"negative", -3, "-3", 0},
                                   {"nan", std::numeric_limits<double>::quiet_NaN(), "nan", 0},
                                   {"inf", std::numeric_limits<double>::infinity(), "inf", 0},
                                   {"real", 5, "5", 0}};
    const DrawList draw = bar_chart(bars, BarChartOptions{});
    for (int i = 0; i < 4; ++i) EXPECT_FALSE(bar_rect(draw, i)) << bars[size_t(i)].label;
    ASSERT_TRUE(bar_rect(draw, 4));
    EXPECT_FLOAT_EQ(bar_rect(draw, 4)->w, BarChartOptions{}.bar_area);  // 5 on a 0..5 axis
    for (const Bar& bar : bars) {
        EXPECT_TRUE(find_text(draw, bar.label)) << bar.label;
        EXPECT_TRUE(find_text(draw, bar.value_text)) << bar.value_text;
    }
}

TEST(BarChart, EverythingFitsOnTheCanvas) {
    BarChartOptions options;
    options.title = "a long title that is wider than the bars and their labels together";
    options.axis_label = "TFLOP/s";
    options.bar_area = 120;
    const DrawList draw =
        bar_chart({{"mma_cp_async.bf16 4096x4096x4096", 612.4, "612.4 TFLOP/s, 91.2% of cuBLAS", 3},
                   {"x", 1, "1", 0}},
                  options);
    for (const DrawRect& rect : draw.rects) {
        EXPECT_GE(rect.x, 0);
        EXPECT_GE(rect.y, 0);
        EXPECT_LE(rect.x + rect.w, draw.width);
        EXPECT_LE(rect.y + rect.h, draw.height);
    }
    for (const DrawText& text : draw.texts) {
        const float width = text_width(text.text.size(), text.size);
        const float left = text.align == TextAlign::kCenter ? text.x - width / 2 : text.x;
        EXPECT_GE(left, 0) << text.text;
        EXPECT_LE(left + width, draw.width) << text.text;
        EXPECT_LE(text.y + text.size, draw.height) << text.text;
    }
}

// Fills passed in (e.g. a palette's precision colours) colour the bars by category, and the
// legend above the bars shows each entry's swatch in the same colour, its label beside it.
TEST(BarChart, FillsAndLegendNameWhatEachColourMeans) {
    BarChartOptions options;
    options.fills = {Rgba{10, 20, 30, 255}, Rgba{40, 50, 60, 255}};
    options.legend = {{"f16", 0}, {"bf16", 1}};
    const DrawList draw =
        bar_chart({{"a", 5, "5", 0}, {"b", 4, "4", 1}, {"c", 3, "3", 3}}, options);
    const DrawRect* a = hit_rect(draw, 0);
    const DrawRect* b = hit_rect(draw, 1);
    const DrawRect* c = hit_rect(draw, 2);
    ASSERT_TRUE(a && b && c);
    EXPECT_EQ(a->fill, options.fills[0]);
    EXPECT_EQ(b->fill, options.fills[1]);
    EXPECT_EQ(c->fill, options.fills[1]);  // 3 mod 2
    for (const char* label : {"f16", "bf16"}) {
        const DrawText* text = find_text(draw, label);
        ASSERT_TRUE(text) << label;
        EXPECT_LE(text->y + text->size, a->y) << label;  // above the bars
        // Its swatch, just left of it on its line, in its colour.
        const Rgba fill = options.fills[std::string(label) == "f16" ? 0 : 1];
        bool swatch = false;
        for (const DrawRect& rect : draw.rects) {
            swatch = swatch || (rect.hit == -1 && rect.fill == fill && rect.x < text->x &&
                                std::fabs(rect.y - text->y) < 3.0f);
        }
        EXPECT_TRUE(swatch) << label;
        EXPECT_LE(text->y + text->size, draw.height);
    }
}

TEST(BarChart, NoBarsGivesTheAxisOnly) {
    BarChartOptions options;
    options.title = "nothing verified";
    const DrawList draw = bar_chart({}, options);
    EXPECT_GT(draw.width, 0);
    EXPECT_GT(draw.height, 0);
    for (const DrawRect& rect : draw.rects) EXPECT_EQ(rect.hit, -1);
    EXPECT_TRUE(find_text(draw, "nothing verified"));
    EXPECT_TRUE(find_text(draw, "0"));
    EXPECT_TRUE(find_text(draw, "1"));
}

}  // namespace
}  // namespace tclens::viz
