// Tests for viz/card_grid.*: cards in rows with their hits, the chart placed inside each card
// without its hits, place() moving everything, and stack_vertically.
#include "viz/card_grid.h"

#include <gtest/gtest.h>

#include "viz/table_view.h"

namespace tclens::viz {
namespace {

DrawList small_chart(Rgba fill) {
    DrawList chart;
    chart.width = 100;
    chart.height = 40;
    chart.background = {1, 2, 3, 255};
    chart.rects.push_back({4, 5, 10, 20, fill, kTransparent, 0.0f, 7});
    chart.texts.push_back({2, 3, 13, fill, TextAlign::kLeft, "100 %"});
    return chart;
}

std::vector<const DrawRect*> frames(const DrawList& draw) {
    std::vector<const DrawRect*> found;
    for (const DrawRect& rect : draw.rects) {
        if (rect.hit >= 0) found.push_back(&rect);
    }
    return found;
}

TEST(CardGrid, CardsFillRowsOfPerRowWithTheirIndexAsHit) {
    std::vector<Card> cards;
    for (int i = 0; i < 5; ++i)
        cards.push_back({"metric " + std::to_string(i), "1 %", small_chart({9, 9, 9, 255})});
    CardGridOptions options;
    options.per_row = 2;
    options.card_width = 150;
    const DrawList draw = card_grid(cards, options);
    const auto cards_drawn = frames(draw);
    ASSERT_EQ(cards_drawn.size(), 5u);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(cards_drawn[size_t(i)]->hit, i);
    // Two to a row: 0 and 1 side by side, 2 below 0.
    EXPECT_FLOAT_EQ(cards_drawn[0]->y, cards_drawn[1]->y);
    EXPECT_FLOAT_EQ(cards_drawn[1]->x, cards_drawn[0]->x + 150 + options.gap);
    EXPECT_FLOAT_EQ(cards_drawn[2]->x, cards_drawn[0]->x);
    EXPECT_GT(cards_drawn[2]->y, cards_drawn[0]->y + cards_drawn[0]->h);
    EXPECT_LE(cards_drawn[4]->y + cards_drawn[4]->h, draw.height);
    EXPECT_LE(cards_drawn[1]->x + cards_drawn[1]->w, draw.width);
}

TEST(CardGrid, ACardHoldsItsLabelValueAndChartWithoutTheChartsHits) {
    const Palette& palette = high_contrast_palette();
    CardGridOptions options;
    options.palette = &palette;
    const Rgba fill = category_colour(palette, 2);
    const DrawList draw = card_grid({{"tensor pipe", "45.6 %", small_chart(fill)}}, options);
    const DrawRect& frame = *frames(draw).at(0);
    EXPECT_EQ(frame.stroke.a, kCardOutlineAlpha);
    const DrawText* label = nullptr;
    const DrawText* value = nullptr;
    for (const DrawText& text : draw.texts) {
        if (text.text == "tensor pipe") label = &text;
        if (text.text == "45.6 %") value = &text;
    }
    ASSERT_TRUE(label && value);
    EXPECT_EQ(label->colour, label_colour(palette));
    EXPECT_EQ(value->colour, palette.text);
    EXPECT_FLOAT_EQ(value->size, options.value_size);
    EXPECT_GT(value->y, label->y);
    // The chart's column is inside the card, below the value, with no hit of its own.
    bool column = false;
    for (const DrawRect& rect : draw.rects) {
        if (rect.fill != fill) continue;
        column = true;
        EXPECT_EQ(rect.hit, -1);
        EXPECT_GT(rect.y, value->y + value->size);
        EXPECT_GE(rect.x, frame.x);
        EXPECT_LE(rect.y + rect.h, frame.y + frame.h);
    }
    EXPECT_TRUE(column);
}

TEST(CardGrid, NoCardsIsAnEmptyCanvas) {
    const DrawList draw = card_grid({}, CardGridOptions{});
    EXPECT_EQ(draw.width, 0.0f);
    EXPECT_TRUE(draw.rects.empty());
}

TEST(Place, MovesRectsLinesAndTextsAndPaintsTheBackground) {
    DrawList into;
    DrawList part = small_chart({5, 5, 5, 255});
    part.lines.push_back({1.0f, 2.0f, 3.0f, 4.0f, {9, 9, 9, 255}, 1.0f});
    place(into, part, 30, 50, true);
    ASSERT_EQ(into.lines.size(), 1u);
    EXPECT_FLOAT_EQ(into.lines[0].x0, 31.0f);
    EXPECT_FLOAT_EQ(into.lines[0].y1, 54.0f);
    ASSERT_EQ(into.rects.size(), 2u);
    EXPECT_EQ(into.rects[0].fill, (Rgba{1, 2, 3, 255}));  // the part's background
    EXPECT_FLOAT_EQ(into.rects[0].w, 100.0f);
    EXPECT_FLOAT_EQ(into.rects[1].x, 34.0f);
    EXPECT_FLOAT_EQ(into.rects[1].y, 55.0f);
    EXPECT_EQ(into.rects[1].hit, 7);  // kept
    EXPECT_FLOAT_EQ(into.texts[0].x, 32.0f);
    EXPECT_FLOAT_EQ(into.texts[0].y, 53.0f);
}

TEST(StackVertically, PartsOneBelowTheOther) {
    const DrawList stack = stack_vertically(
        {small_chart({5, 5, 5, 255}), small_chart({6, 6, 6, 255})}, 6.0f, {0, 0, 0, 255});
    EXPECT_FLOAT_EQ(stack.width, 100.0f);
    EXPECT_FLOAT_EQ(stack.height, 86.0f);
    EXPECT_FLOAT_EQ(stack.rects[3].y, 46.0f + 5.0f);  // second part's column
    for (const DrawRect& rect : stack.rects) EXPECT_EQ(rect.hit, -1);
    EXPECT_EQ(stack_vertically({}, 6.0f, {0, 0, 0, 255}).height, 0.0f);
}

}  // namespace
}  // namespace tclens::viz
