// Tests for viz/palette.*: distinct neighbouring categories, wrap-around, readable labels,
// precision colours that stay apart for red-green colour blindness.
#include "viz/palette.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>

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

using Matrix = std::array<std::array<double, 3>, 3>;
// Dichromat simulation in linear RGB (Vienot, Brettel and Mollon 1999).
constexpr Matrix kNormal = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
constexpr Matrix kDeuteranopia = {
    {{0.29275, 0.70725, 0}, {0.29275, 0.70725, 0}, {-0.02234, 0.02234, 1}}};
constexpr Matrix kProtanopia = {
    {{0.11238, 0.88762, 0}, {0.11238, 0.88762, 0}, {0.00401, -0.00401, 1}}};

double linear(std::uint8_t c) {
    const double v = c / 255.0;
    return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
}

// `c` as seen through `vision`, in CIELAB (D65).
std::array<double, 3> seen_lab(Rgba c, const Matrix& vision) {
    const double in[3] = {linear(c.r), linear(c.g), linear(c.b)};
    double rgb[3];
    for (int i = 0; i < 3; ++i) {
        rgb[i] = std::clamp(vision[i][0] * in[0] + vision[i][1] * in[1] + vision[i][2] * in[2], 0.0,
                            1.0);
    }
    const double x = (0.4124 * rgb[0] + 0.3576 * rgb[1] + 0.1805 * rgb[2]) / 0.95047;
    const double y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
    const double z = (0.0193 * rgb[0] + 0.1192 * rgb[1] + 0.9505 * rgb[2]) / 1.08883;
    auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0; };
    return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}

// CIE76 colour difference of a and b as seen through `vision`: about 2 is just noticeable,
// more than 15 tells two swatches apart at a glance.
double seen_difference(Rgba a, Rgba b, const Matrix& vision) {
    const auto la = seen_lab(a, vision), lb = seen_lab(b, vision);
    return std::hypot(la[0] - lb[0], la[1] - lb[1], la[2] - lb[2]);
}

// The throughput chart's f16 green next to bf16 red read as good and bad, and the two look alike
// to a deuteranope (difference 4.3 for the old 0x3f8f4f and 0xb8434a). Every pair of precision
// colours now differs by more than 15 with normal vision, deuteranopia and protanopia alike (the
// least: 18.6, dark f32 and bf16 for a protanope).
TEST(Palette, PrecisionColoursStayApartForRedGreenColourBlindness) {
    EXPECT_LT(
        seen_difference(Rgba{0x3f, 0x8f, 0x4f, 255}, Rgba{0xb8, 0x43, 0x4a, 255}, kDeuteranopia),
        15.0);  // the old pair fails the bound below
    for (const Palette* palette : {&dark_palette(), &high_contrast_palette()}) {
        SCOPED_TRACE(palette->name);
        ASSERT_EQ(palette->precisions.size(), 5u);  // f32, tf32, f16, bf16, e4m3
        for (size_t i = 0; i < palette->precisions.size(); ++i) {
            for (size_t j = i + 1; j < palette->precisions.size(); ++j) {
                const Rgba a = palette->precisions[i], b = palette->precisions[j];
                for (const Matrix* vision : {&kNormal, &kDeuteranopia, &kProtanopia}) {
                    EXPECT_GT(seen_difference(a, b, *vision), 15.0) << i << " " << j;
                }
            }
        }
        EXPECT_EQ(precision_colour(*palette, 7), palette->precisions[2]);
    }
}

}  // namespace
}  // namespace tclens::viz
