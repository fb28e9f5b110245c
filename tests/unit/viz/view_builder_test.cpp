// Tests for viz/view_builder.h: the grid geometry, labels inside cells, legend labels, hits and
// the extent of what is drawn, worked out by hand from the header's contracts.
#include "viz/view_builder.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tclens::viz {
namespace {

struct SampleView {
    DrawList draw;
    std::vector<std::string> hits;
};

TEST(CellGrid, LinesFromEightPixelsAndOutlinesOfTwelvePercent) {
    EXPECT_FLOAT_EQ(cell_grid(16.0f).line, 1.0f);
    EXPECT_FLOAT_EQ(cell_grid(16.0f).outline, 2.0f);
    EXPECT_FLOAT_EQ(cell_grid(28.0f).outline, 3.0f);  // round(3.36)
    EXPECT_FLOAT_EQ(cell_grid(7.9f).line, 0.0f);
    EXPECT_FLOAT_EQ(cell_grid(6.0f).outline, 2.0f);
}

TEST(DrawListBuilder, StartsOnTheBackgroundAndTracksTheExtent) {
    const Palette& palette = dark_palette();
    DrawListBuilder b(palette);
    b.rect(10, 20, 30, 40, palette.grid);
    EXPECT_FLOAT_EQ(b.right(), 40.0f);
    EXPECT_FLOAT_EQ(b.bottom(), 60.0f);
    b.text(100, 0, 10, palette.text, TextAlign::kLeft, "abcd");  // 4 x 6.2 -> 25 px
    EXPECT_FLOAT_EQ(b.right(), 125.0f);
    b.text(200, 90, 10, palette.text, TextAlign::kCenter, "abcd");  // half of 25 right of 200
    EXPECT_FLOAT_EQ(b.right(), 212.5f);
    EXPECT_FLOAT_EQ(b.bottom(), 100.0f);
    const DrawList draw = b.take();
    EXPECT_EQ(draw.background, palette.background);
    ASSERT_EQ(draw.rects.size(), 1u);
    EXPECT_EQ(draw.rects[0].hit, -1);
    EXPECT_EQ(draw.rects[0].stroke, kTransparent);
    ASSERT_EQ(draw.texts.size(), 2u);
}

TEST(DrawListBuilder, CellLabelsAreCentredAndReadOnTheirFill) {
    const Palette& palette = dark_palette();
    DrawListBuilder b(palette);
    // Two lines of 10 px in a 40 x 30 cell at (100, 200): the block starts 5 px down.
    b.cell_label(100, 200, 40, 30, 10, palette.background, {"T3", "a0"});
    const DrawList draw = b.take();
    ASSERT_EQ(draw.texts.size(), 2u);
    EXPECT_FLOAT_EQ(draw.texts[0].x, 120.0f);
    EXPECT_FLOAT_EQ(draw.texts[0].y, 205.0f);
    EXPECT_FLOAT_EQ(draw.texts[1].y, 215.0f);
    EXPECT_EQ(draw.texts[0].align, TextAlign::kCenter);
    EXPECT_EQ(draw.texts[0].colour, label_colour_on(palette, palette.background));
    EXPECT_EQ(draw.texts[1].text, "a0");
}

TEST(DrawListBuilder, SwatchLabelsSitAfterTheSwatch) {
    DrawListBuilder b(dark_palette());
    const float end = b.swatch_label(10, 0, 14, 10, "abcd");
    const DrawList draw = b.take();
    ASSERT_EQ(draw.texts.size(), 1u);
    EXPECT_FLOAT_EQ(draw.texts[0].x, 10 + 14 + kSwatchLabelGap);
    EXPECT_FLOAT_EQ(end, 10 + 14 + kSwatchLabelGap + text_width(4, 10));
}

TEST(DrawListBuilder, GridCellsShowTheBackdropAsLinesAndOutlinesCoverThem) {
    const Palette& palette = dark_palette();
    const CellGrid grid = cell_grid(16.0f);
    DrawListBuilder b(palette);
    b.backdrop(grid, 0, 0, 32, 16);
    b.grid_cell(grid, 0, 0, 16, 16, palette.text, kTransparent, 0);
    b.grid_cell(grid, 16, 0, 16, 16, palette.text, palette.highlight, 1);
    const DrawList draw = b.take();
    ASSERT_EQ(draw.rects.size(), 3u);
    const DrawRect& backdrop = draw.rects[0];
    EXPECT_FLOAT_EQ(backdrop.w, 33.0f);  // one line past the last cell
    EXPECT_EQ(backdrop.fill, palette.grid);
    const DrawRect& plain = draw.rects[1];
    EXPECT_FLOAT_EQ(plain.x, 1.0f);
    EXPECT_FLOAT_EQ(plain.w, 15.0f);
    EXPECT_FLOAT_EQ(plain.stroke_width, 0.0f);
    const DrawRect& outlined = draw.rects[2];
    EXPECT_FLOAT_EQ(outlined.x, 16.0f);
    EXPECT_FLOAT_EQ(outlined.w, 17.0f);
    EXPECT_EQ(outlined.stroke, palette.highlight);
    EXPECT_FLOAT_EQ(outlined.stroke_width, grid.outline);
    EXPECT_EQ(outlined.hit, 1);
}

TEST(DrawListBuilder, NoBackdropWithoutGridLines) {
    DrawListBuilder b(dark_palette());
    b.backdrop(cell_grid(4.0f), 0, 0, 32, 16);
    EXPECT_TRUE(b.take().rects.empty());
}

TEST(ViewBuilder, HitsAreNumberedInOrderAndTravelWithTheView) {
    ViewBuilder<std::string> b(dark_palette());
    EXPECT_EQ(b.hit("first"), 0);
    const int second = b.hit("second");
    b.rect(0, 0, 1, 1, kTransparent, kTransparent, 0.0f, second);
    const SampleView view = b.take_view<SampleView>();
    ASSERT_EQ(view.hits.size(), 2u);
    EXPECT_EQ(view.hits[1], "second");
    ASSERT_EQ(view.draw.rects.size(), 1u);
    EXPECT_EQ(view.draw.rects[0].hit, 1);
}

}  // namespace
}  // namespace tclens::viz
