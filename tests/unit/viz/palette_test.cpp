// Tests for viz/palette.*: distinct neighbouring categories, wrap-around, readable labels.
#include "viz/palette.h"

#include <gtest/gtest.h>

namespace tclens::viz {
namespace {

TEST(Palette, BothPalettesHaveDistinctNeighbouringCategories) {
    for (const Palette* palette : {&dark_palette(), &high_contrast_palette()}) {
        SCOPED_TRACE(palette->name);
        ASSERT_GE(palette->categories.size(), 8u);
        std::set<std::tuple<int, int, int>> distinct;
        for (const Rgba& c : palette->categories) {
            EXPECT_EQ(c.a, 255);
            distinct.insert({c.r, c.g, c.b});
        }
        EXPECT_EQ(distinct.size(), palette->categories.size());
        EXPECT_NE(palette->text, palette->background);
        EXPECT_NE(palette->highlight, palette->background);
    }
    EXPECT_NE(dark_palette().name, high_contrast_palette().name);
    EXPECT_NE(dark_palette().background, high_contrast_palette().background);
}

TEST(Palette, CategoryColourWrapsAroundForAnyIndex) {
    const Palette& palette = dark_palette();
    const int size = static_cast<int>(palette.categories.size());
    EXPECT_EQ(category_colour(palette, 0), palette.categories[0]);
    EXPECT_EQ(category_colour(palette, size + 2), palette.categories[2]);
    EXPECT_EQ(category_colour(palette, -1), palette.categories[size_t(size - 1)]);
}

TEST(Palette, LabelColourContrastsWithTheFill) {
    const Palette& palette = high_contrast_palette();  // white text on black
    EXPECT_EQ(label_colour_on(palette, Rgba{250, 240, 60, 255}), palette.background);
    EXPECT_EQ(label_colour_on(palette, Rgba{0, 40, 120, 255}), palette.text);
}

}  // namespace
}  // namespace tclens::viz
