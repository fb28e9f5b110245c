// Tests for viz/compare_table.*: deltas against the first run, their texts, and the bars' side,
// length and colour.
#include "viz/compare_table.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "tests/support/draw_list_queries.h"

namespace tclens::viz {
namespace {

const double kNan = std::numeric_limits<double>::quiet_NaN();

using test::find_text;

using test::hit_rect;

// The 1 px centre tick of the delta area that holds `bar` (same row band, nearest x).
const DrawRect* centre_tick(const DrawList& draw, const DrawRect& bar) {
    const DrawRect* best = nullptr;
    for (const DrawRect& rect : draw.rects) {
        if (rect.hit != -1 || rect.w != 1.0f || rect.y > bar.y || rect.y + rect.h < bar.y + bar.h) {
            continue;
        }
        const float distance = std::fabs(rect.x - bar.x);
        if (!best || distance < std::fabs(best->x - bar.x)) best = &rect;
    }
    return best;
}

TEST(CompareTable, DeltaIsRelativeToTheBaseline) {
    EXPECT_DOUBLE_EQ(delta_pct(400, 500), 25.0);
    EXPECT_DOUBLE_EQ(delta_pct(400, 300), -25.0);
    EXPECT_DOUBLE_EQ(delta_pct(-2, -1), 50.0);  // relative to |baseline|
    EXPECT_DOUBLE_EQ(delta_pct(7, 7), 0.0);
    EXPECT_TRUE(std::isnan(delta_pct(0, 5)));
    EXPECT_TRUE(std::isnan(delta_pct(kNan, 5)));
    EXPECT_TRUE(std::isnan(delta_pct(5, kNan)));
    EXPECT_TRUE(std::isnan(delta_pct(5, std::numeric_limits<double>::infinity())));
}

TEST(CompareTable, DeltaTexts) {
    EXPECT_EQ(delta_text(25.0), "+25.0%");
    EXPECT_EQ(delta_text(-3.14), "-3.1%");
    // A change that rounds to 0.0 % is no change: never "+0.0%" or "-0.0%".
    EXPECT_EQ(delta_text(0.0), "same");
    EXPECT_EQ(delta_text(0.04), "same");
    EXPECT_EQ(delta_text(-0.049), "same");
    EXPECT_EQ(delta_text(0.05), "+0.1%");
    EXPECT_EQ(delta_text(1234.4), "+1234%");
    EXPECT_EQ(delta_text(-999.0), "-999.0%");
    EXPECT_EQ(delta_text(kNan), "");
}

TEST(CompareTable, ChangeIsJudgedByTheMetricsBetterDirection) {
    EXPECT_EQ(judge_change(Better::kHigher, 10), Change::kBetter);
    EXPECT_EQ(judge_change(Better::kHigher, -10), Change::kWorse);
    EXPECT_EQ(judge_change(Better::kLower, -10), Change::kBetter);
    EXPECT_EQ(judge_change(Better::kLower, 10), Change::kWorse);
    EXPECT_EQ(judge_change(Better::kNeither, 10), Change::kNeutral);
    EXPECT_EQ(judge_change(Better::kHigher, 0), Change::kNone);
    EXPECT_EQ(judge_change(Better::kLower, 0.04), Change::kNone);  // reads "same", not "worse"
    EXPECT_EQ(judge_change(Better::kLower, kNan), Change::kNone);
}

TEST(CompareTable, BarsGrowFromTheCentreByDeltaAndAreColouredByMeaning) {
    const std::vector<CompareColumn> columns = {{"mma_cp_async.f16", "4096x4096x4096", 0},
                                                {"wgmma_tma.f16", "4096x4096x4096", 1},
                                                {"wgmma_persistent.f16", "4096x4096x4096", 2}};
    const std::vector<CompareRow> rows = {
        {"TFLOP/s", Better::kHigher, {400, 500, 300}, {"400.0", "500.0", "300.0"}},
        {"time (ms)", Better::kLower, {1.0, 0.8, 3.0}, {"1.000", "0.800", "3.000"}},
        {"DRAM %", Better::kNeither, {50, 60, 50}, {"50 %", "60 %", "50 %"}}};
    CompareTableOptions options;
    options.bar_half_px = 40;
    options.full_scale_pct = 100;
    const DrawList draw = compare_table(columns, rows, options);
    const Palette& palette = dark_palette();
    const int n = int(columns.size());

    // The baseline column has no bars.
    for (int r = 0; r < 3; ++r) EXPECT_FALSE(hit_rect(draw, r * n + 0)) << r;

    // TFLOP/s +25%: 10 px to the right, an improvement.
    const DrawRect* faster = hit_rect(draw, 0 * n + 1);
    ASSERT_TRUE(faster);
    const DrawRect* tick = centre_tick(draw, *faster);
    ASSERT_TRUE(tick);
    EXPECT_NEAR(faster->w, 10.0f, 0.01f);
    EXPECT_GE(faster->x, tick->x);
    EXPECT_EQ(faster->fill, palette.better);
    // TFLOP/s -25%: 10 px to the left, a regression.
    const DrawRect* slower = hit_rect(draw, 0 * n + 2);
    ASSERT_TRUE(slower);
    const DrawRect* slower_tick = centre_tick(draw, *slower);
    ASSERT_TRUE(slower_tick);
    EXPECT_NEAR(slower->w, 10.0f, 0.01f);
    EXPECT_NEAR(slower->x + slower->w, slower_tick->x, 0.01f);
    EXPECT_EQ(slower->fill, palette.worse);
    // Time -20% is better (lower is better); +200% is worse and capped at full scale.
    const DrawRect* quicker = hit_rect(draw, 1 * n + 1);
    const DrawRect* much_longer = hit_rect(draw, 1 * n + 2);
    ASSERT_TRUE(quicker && much_longer);
    EXPECT_NEAR(quicker->w, 8.0f, 0.01f);
    EXPECT_EQ(quicker->fill, palette.better);
    EXPECT_NEAR(much_longer->w, 40.0f, 0.01f);
    EXPECT_EQ(much_longer->fill, palette.worse);
    // A metric with no better direction: neutral colour; no change: no bar but a text.
    const DrawRect* neutral = hit_rect(draw, 2 * n + 1);
    ASSERT_TRUE(neutral);
    EXPECT_EQ(neutral->fill, palette.unjudged);
    EXPECT_FALSE(hit_rect(draw, 2 * n + 2));

    // The key names the bars' colours in words, and none of them is green or red.
    for (const char* text : {"bars:", "better", "worse", "no better direction"}) {
        EXPECT_TRUE(find_text(draw, text)) << text;
    }
    for (const Rgba& colour : {palette.better, palette.worse}) {
        EXPECT_FALSE(colour.g > colour.r + 40 && colour.g > colour.b + 40) << "green";
        EXPECT_FALSE(colour.r > colour.g + 40 && colour.r > colour.b + 40 && colour.b > colour.g)
            << "red";
    }
    for (const char* text : {"+25.0%", "-25.0%", "-20.0%", "+200.0%", "+20.0%", "same"}) {
        EXPECT_TRUE(find_text(draw, text)) << text;
    }
    // Bars of one column sit in one delta area: the same centre tick x.
    EXPECT_NEAR(centre_tick(draw, *faster)->x, centre_tick(draw, *quicker)->x, 0.01f);
}

TEST(CompareTable, HeadersValuesAndMissingValues) {
    const std::vector<CompareColumn> columns = {{"a.f16", "1024x1024x1024", 0},
                                                {"b.f16", "1024x1024x1024", 5}};
    const std::vector<CompareRow> rows = {
        {"tensor pipe", Better::kHigher, {kNan, 80}, {"-", "80.0 %"}},
        {"L2 hit rate", Better::kHigher, {0, 50}, {"0 %", "50 %"}},
        {"short row", Better::kHigher, {10}, {"10"}}};
    CompareTableOptions options;
    options.title = "2 runs";
    const DrawList draw = compare_table(columns, rows, options);
    for (const char* text :
         {"2 runs", "metric", "A", "B", "(baseline)", "a.f16", "b.f16", "1024x1024x1024 (baseline)",
          "1024x1024x1024", "tensor pipe", "-", "80.0 %", "0 %", "50 %", "short row", "10"}) {
        EXPECT_TRUE(find_text(draw, text)) << text;
    }
    // No baseline value, a zero baseline, a missing value: no delta anywhere; the only hits are
    // the two column headers (rows x columns + c).
    for (const DrawRect& rect : draw.rects) {
        EXPECT_TRUE(rect.hit == -1 || rect.hit == 6 || rect.hit == 7) << rect.hit;
    }
    for (const DrawText& text : draw.texts) {
        EXPECT_NE(text.text.front(), '+') << text.text;
        EXPECT_FALSE(text.text.size() > 1 && text.text.front() == '-') << text.text;
    }
    // Swatches in the columns' categories: the header's and the key's.
    int swatches = 0;
    for (const DrawRect& rect : draw.rects) {
        swatches += rect.fill == category_colour(dark_palette(), 5);
    }
    EXPECT_EQ(swatches, 2);
}

TEST(CompareTable, EverythingFitsOnTheCanvas) {
    const std::vector<CompareColumn> columns = {{"wgmma_persistent.bf16", "8192x8192x8192", 0},
                                                {"naive_fma.f32", "16x3072x3072", 1}};
    const std::vector<CompareRow> rows = {
        {"smem load conflicts (wavefronts)", Better::kLower, {1, 123456}, {"1", "123456"}},
        {"TFLOP/s", Better::kHigher, {798, 5}, {"798.0", "5.0"}}};
    CompareTableOptions options;
    options.title = "a long title for a table that is narrower than the title itself, quite so";
    const DrawList draw = compare_table(columns, rows, options);
    ASSERT_TRUE(find_text(draw, "+12345500%"));
    for (const DrawRect& rect : draw.rects) {
        EXPECT_GE(rect.x, 0);
        EXPECT_LE(rect.x + rect.w, draw.width);
        EXPECT_LE(rect.y + rect.h, draw.height);
    }
    for (const DrawText& text : draw.texts) {
        EXPECT_GE(text.x, 0) << text.text;
        EXPECT_LE(text.x + text_width(text.text.size(), text.size), draw.width) << text.text;
        EXPECT_LE(text.y + text.size, draw.height) << text.text;
    }
}

TEST(CompareTable, ColumnsWrapIntoBandsGreedily) {
    EXPECT_EQ(column_bands({4, 4, 4}, 2, 10), (std::vector<size_t>{0, 2}));
    EXPECT_EQ(column_bands({4, 4, 4}, 2, 0), (std::vector<size_t>{0}));    // no limit
    EXPECT_EQ(column_bands({20, 4}, 2, 10), (std::vector<size_t>{0, 1}));  // too wide: alone
    EXPECT_EQ(column_bands({}, 2, 10), (std::vector<size_t>{}));
    EXPECT_EQ(column_key(0), "A");
    EXPECT_EQ(column_key(25), "Z");
    EXPECT_EQ(column_key(26), "27");
}

// Ten runs (the Compare panel's default on the shipped recording) in the 836 px the panel has at
// 1280x720: every column lies inside that width, headed by its key, each run named in the key.
TEST(CompareTable, TenRunsFitAProjectorWidthInBands) {
    std::vector<CompareColumn> columns;
    for (int i = 0; i < 10; ++i) {
        columns.push_back({"wgmma_persistent.bf16", "4096x4096x4096", i,
                           "NVIDIA H100 80GB HBM3, 2026-11-25 23:33 UTC"});
    }
    std::vector<CompareRow> rows = {{"smem store wavefronts (wavefronts)", Better::kLower, {}, {}},
                                    {"TFLOP/s", Better::kHigher, {}, {}}};
    for (int i = 0; i < 10; ++i) {
        rows[0].values.push_back(1270092 - 1000 * i);
        rows[0].texts.push_back("1,270,092");
        rows[1].values.push_back(700 + i);
        rows[1].texts.push_back("700.0 (profiled)");
    }
    CompareTableOptions options;
    options.max_width = 836;
    const DrawList draw = compare_table(columns, rows, options);
    EXPECT_LE(draw.width, 836.0f);
    for (int c = 0; c < 10; ++c) {
        const DrawRect* header = hit_rect(draw, 2 * 10 + c);
        ASSERT_TRUE(header) << c;
        EXPECT_LE(header->x + header->w, 836.0f) << c;
        EXPECT_TRUE(find_text(draw, column_key(size_t(c)))) << c;
    }
    // The metric labels repeat in every band: more than one band here.
    int labels = 0;
    for (const DrawText& text : draw.texts) labels += text.text == "TFLOP/s";
    EXPECT_GE(labels, 2);
    // Without a limit it is one band, wider than the panel.
    options.max_width = 0;
    EXPECT_GT(compare_table(columns, rows, options).width, 836.0f);
}

}  // namespace
}  // namespace tclens::viz
