// Tests for viz/table_view.*: where labels and values sit, which rows are striped, the
// colours from the palette, and that everything fits on the canvas.
#include "viz/table_view.h"

#include <gtest/gtest.h>

#include "tests/support/draw_list_queries.h"
#include "viz/raster.h"

namespace tclens::viz {
namespace {

using test::find_text;

std::vector<TableSection> two_sections() {
    return {{"GPU 0", {{"SMs", "132"}, {"SM clock", "1980 MHz"}, {"L2", "50 MiB"}}},
            {"GPU 1", {{"shared memory / block", "48 KiB"}}}};
}

TEST(TableView, LabelsShareOneColumnAndValuesStartAfterIt) {
    TableViewOptions options;
    options.title = "CUDA runtime 13.0";
    const DrawList draw = table_view(two_sections(), options);
    const DrawText* sms = find_text(draw, "SMs");
    const DrawText* smem = find_text(draw, "shared memory / block");
    const DrawText* v132 = find_text(draw, "132");
    const DrawText* v48 = find_text(draw, "48 KiB");
    ASSERT_TRUE(sms && smem && v132 && v48);
    EXPECT_FLOAT_EQ(sms->x, smem->x);
    EXPECT_FLOAT_EQ(v132->x, v48->x);
    // The value column starts right of the longest label, in either section.
    EXPECT_GE(v132->x, smem->x + text_width(smem->text.size(), smem->size));
    // Rows run down in order, one row height apart inside a section.
    const DrawText* clock = find_text(draw, "SM clock");
    ASSERT_TRUE(clock);
    EXPECT_FLOAT_EQ(clock->y - sms->y, options.row_height);
    EXPECT_FLOAT_EQ(v132->y, sms->y);
    // Title above the first heading, headings above their rows.
    const DrawText* title = find_text(draw, "CUDA runtime 13.0");
    const DrawText* gpu0 = find_text(draw, "GPU 0");
    const DrawText* gpu1 = find_text(draw, "GPU 1");
    ASSERT_TRUE(title && gpu0 && gpu1);
    EXPECT_LT(title->y, gpu0->y);
    EXPECT_LT(gpu0->y, sms->y);
    EXPECT_GT(gpu1->y, find_text(draw, "L2")->y);
    EXPECT_LT(gpu1->y, smem->y);
}

TEST(TableView, EverySecondRowIsStripedAndEachSectionHasADivider) {
    const Palette& palette = dark_palette();
    TableViewOptions options;
    options.palette = &palette;
    const DrawList draw = table_view(two_sections(), options);
    int stripes = 0, dividers = 0;
    for (const DrawRect& rect : draw.rects) {
        EXPECT_EQ(rect.hit, -1);
        EXPECT_EQ(rect.fill.r, palette.text.r);
        if (rect.fill.a == kTableStripeAlpha) {
            ++stripes;
            EXPECT_FLOAT_EQ(rect.h, options.row_height);
            // Only the second row of GPU 0 ("SM clock") is striped.
            EXPECT_FLOAT_EQ(rect.y + (rect.h - options.text_size) * 0.5f,
                            find_text(draw, "SM clock")->y);
        }
        if (rect.fill.a == kTableDividerAlpha) {
            ++dividers;
            EXPECT_FLOAT_EQ(rect.w, 1.0f);
        }
    }
    EXPECT_EQ(stripes, 1);
    EXPECT_EQ(dividers, 2);
}

TEST(TableView, ColoursComeFromThePalette) {
    for (const Palette* palette : {&dark_palette(), &high_contrast_palette()}) {
        SCOPED_TRACE(palette->name);
        TableViewOptions options;
        options.palette = palette;
        const DrawList draw = table_view(two_sections(), options);
        EXPECT_EQ(draw.background, palette->background);
        EXPECT_EQ(find_text(draw, "SMs")->colour, label_colour(*palette));
        EXPECT_EQ(find_text(draw, "132")->colour, palette->text);
        EXPECT_EQ(find_text(draw, "GPU 0")->colour, palette->text);
        EXPECT_NE(label_colour(*palette), palette->text);
    }
    // 30% of the way from white to black.
    EXPECT_EQ(label_colour(high_contrast_palette()), (Rgba{179, 179, 179, 255}));
}

TEST(TableView, EverythingFitsOnTheCanvasAndRastersNonBlank) {
    TableViewOptions options;
    options.title = "a title much longer than any row of the table below it";
    const DrawList draw = table_view(two_sections(), options);
    for (const DrawText& t : draw.texts) {
        EXPECT_LE(t.x + text_width(t.text.size(), t.size), draw.width) << t.text;
        EXPECT_LE(t.y + t.size, draw.height) << t.text;
    }
    for (const DrawRect& r : draw.rects) {
        EXPECT_LE(r.x + r.w, draw.width);
        EXPECT_LE(r.y + r.h, draw.height);
    }
    const RgbaImage image = rasterize(draw);
    EXPECT_EQ(image.width, int(draw.width));
    int text_like = 0;
    for (size_t i = 0; i + 3 < image.pixels.size(); i += 4) text_like += image.pixels[i] > 150;
    EXPECT_GT(text_like, 200);
}

TEST(TableView, NoSectionsGivesTheTitleOnly) {
    TableViewOptions options;
    options.title = "no GPU";
    const DrawList draw = table_view({}, options);
    EXPECT_TRUE(draw.rects.empty());
    ASSERT_EQ(draw.texts.size(), 1u);
    EXPECT_GT(draw.width, 0.0f);
    EXPECT_GT(draw.height, options.text_size);
}

}  // namespace
}  // namespace tclens::viz
