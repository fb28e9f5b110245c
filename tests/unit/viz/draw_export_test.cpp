// Tests for viz/draw_list.h, viz/palette.*, viz/svg_export.* and viz/raster.*.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include "tests/support/run_command.h"
#include "viz/draw_list.h"
#include "viz/palette.h"
#include "viz/raster.h"
#include "viz/svg_export.h"

namespace tclens::viz {
namespace {

constexpr Rgba kBackground{10, 20, 30, 255};
constexpr Rgba kRed{200, 30, 40, 255};
constexpr Rgba kGreen{20, 180, 60, 255};
constexpr Rgba kWhite{255, 255, 255, 255};
constexpr Rgba kNone{0, 0, 0, 0};

Rgba pixel(const RgbaImage& image, int x, int y) {
    const std::uint8_t* p = &image.pixels[(size_t(y) * image.width + x) * 4];
    return {p[0], p[1], p[2], p[3]};
}

int count_pixels(const RgbaImage& image, Rgba colour) {
    int count = 0;
    for (int y = 0; y < image.height; ++y) {
        for (int x = 0; x < image.width; ++x) count += pixel(image, x, y) == colour;
    }
    return count;
}

size_t count_of(const std::string& text, const std::string& needle) {
    size_t count = 0;
    for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
        ++count;
    }
    return count;
}

DrawList two_rects() {
    DrawList list;
    list.width = 100;
    list.height = 60;
    list.background = kBackground;
    list.rects.push_back({10, 10, 30, 20, kRed, kNone, 0, -1});
    list.rects.push_back({50, 10, 40, 40, kGreen, kWhite, 3, 7});
    return list;
}

std::string read_file(const std::string& path) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

// ---- Palettes ----

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

// ---- SVG ----

TEST(SvgExport, OneRectElementPerDrawRectInOrder) {
    const DrawList list = two_rects();
    const std::string svg = to_svg(list);
    EXPECT_EQ(svg.rfind("<svg ", 0), 0u) << svg;
    EXPECT_NE(svg.find("width=\"100\" height=\"60\""), std::string::npos) << svg;
    EXPECT_EQ(count_of(svg, "<rect"), list.rects.size());
    EXPECT_NE(svg.find("fill=\"#0a141e\""), std::string::npos) << "background";
    const size_t red = svg.find("fill=\"#c81e28\"");
    const size_t green = svg.find("fill=\"#14b43c\"");
    ASSERT_NE(red, std::string::npos);
    ASSERT_NE(green, std::string::npos);
    EXPECT_LT(red, green);
    // The 3 px outline sits inside the rect: geometry inset by 1.5.
    EXPECT_NE(svg.find("<rect x=\"51.5\" y=\"11.5\" width=\"37\" height=\"37\""), std::string::npos)
        << svg;
    EXPECT_NE(svg.find("stroke=\"#ffffff\" stroke-width=\"3\""), std::string::npos);
    EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

TEST(SvgExport, EscapesTextAndAlignsIt) {
    DrawList list = two_rects();
    list.texts.push_back({5, 5, 10, kWhite, TextAlign::kLeft, "a<b & \"c\""});
    list.texts.push_back({50, 30, 12, kWhite, TextAlign::kCenter, "mid"});
    const std::string svg = to_svg(list);
    EXPECT_NE(svg.find(">a&lt;b &amp; &quot;c&quot;</text>"), std::string::npos) << svg;
    EXPECT_EQ(svg.find("a<b"), std::string::npos);
    EXPECT_EQ(count_of(svg, "<text"), 2u);
    EXPECT_EQ(count_of(svg, "text-anchor=\"middle\""), 1u);
    EXPECT_NE(svg.find("font-size=\"12\""), std::string::npos);
}

TEST(SvgExport, TranslucentColoursCarryOpacityAndEmptyFillIsNone) {
    DrawList list;
    list.width = list.height = 10;
    list.rects.push_back({0, 0, 5, 5, Rgba{255, 0, 0, 128}, kNone, 0, -1});
    list.rects.push_back({0, 0, 5, 5, kNone, kWhite, 1, -1});
    const std::string svg = to_svg(list);
    EXPECT_NE(svg.find("fill-opacity=\"0.5\""), std::string::npos) << svg;
    EXPECT_NE(svg.find("fill=\"none\""), std::string::npos) << svg;
}

TEST(SvgExport, WriteSvgWritesTheDocumentAndNoTemporary) {
    const DrawList list = two_rects();
    const std::string path = test::temp_path("two_rects.svg");
    ASSERT_EQ(write_svg(list, path), "");
    EXPECT_EQ(read_file(path), to_svg(list));
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
    std::filesystem::remove(path);
}

TEST(SvgExport, MissingFolderGivesOneLineErrorAndLeavesNoFile) {
    const std::string path = test::temp_path("no_such_folder") + "/out.svg";
    const std::string error = write_svg(two_rects(), path);
    EXPECT_NE(error.find(path), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    EXPECT_FALSE(std::filesystem::exists(path));
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

// ---- Raster ----

TEST(Raster, FillsRectsOverTheBackground) {
    const RgbaImage image = rasterize(two_rects());
    ASSERT_EQ(image.width, 100);
    ASSERT_EQ(image.height, 60);
    ASSERT_EQ(image.pixels.size(), size_t(100) * 60 * 4);
    EXPECT_EQ(pixel(image, 25, 20), kRed);       // centre of rect 0
    EXPECT_EQ(pixel(image, 70, 30), kGreen);     // centre of rect 1
    EXPECT_EQ(pixel(image, 5, 5), kBackground);  // outside both
    EXPECT_EQ(pixel(image, 45, 55), kBackground);
    EXPECT_EQ(pixel(image, 40, 20), kBackground);  // rect 0 covers x 10..39
    EXPECT_EQ(pixel(image, 39, 20), kRed);
    EXPECT_EQ(count_pixels(image, kRed), 30 * 20);  // integer edges: no partial pixels
}

TEST(Raster, StrokeIsDrawnInsideTheRect) {
    const RgbaImage image = rasterize(two_rects());
    for (int inside = 0; inside < 3; ++inside) {
        EXPECT_EQ(pixel(image, 50 + inside, 30), kWhite) << inside;
        EXPECT_EQ(pixel(image, 89 - inside, 30), kWhite) << inside;
        EXPECT_EQ(pixel(image, 70, 10 + inside), kWhite) << inside;
        EXPECT_EQ(pixel(image, 70, 49 - inside), kWhite) << inside;
    }
    EXPECT_EQ(pixel(image, 53, 30), kGreen);
    EXPECT_EQ(pixel(image, 49, 30), kBackground);
    EXPECT_EQ(pixel(image, 70, 50), kBackground);
    EXPECT_EQ(count_pixels(image, kWhite), 40 * 40 - 34 * 34);
}

TEST(Raster, BlendsTranslucentFillsAndCoversPartialPixels) {
    DrawList list;
    list.width = list.height = 4;
    list.background = Rgba{0, 0, 0, 255};
    list.rects.push_back({0, 0, 2, 4, Rgba{255, 255, 255, 128}, kNone, 0, -1});
    list.rects.push_back({2, 0, 0.5f, 4, Rgba{255, 255, 255, 255}, kNone, 0, -1});
    const RgbaImage image = rasterize(list);
    EXPECT_NEAR(pixel(image, 0, 0).r, 128, 1);
    EXPECT_EQ(pixel(image, 0, 0).a, 255);
    EXPECT_NEAR(pixel(image, 2, 0).r, 128, 1);  // half-covered pixel
    EXPECT_EQ(pixel(image, 3, 0).r, 0);
}

TEST(Raster, CoverageOfSubPixelAndStraddlingRectsIsExact) {
    DrawList list;
    list.width = 8;
    list.height = 1;
    list.background = Rgba{0, 0, 0, 255};
    list.rects.push_back({1.25f, 0, 0.5f, 1, kWhite, kNone, 0, -1});  // inside pixel 1
    list.rects.push_back({3.5f, 0, 2.0f, 1, kWhite, kNone, 0, -1});   // 3 half, 4 full, 5 half
    const RgbaImage image = rasterize(list);
    EXPECT_EQ(pixel(image, 0, 0).r, 0);
    EXPECT_NEAR(pixel(image, 1, 0).r, 128, 1);
    EXPECT_EQ(pixel(image, 2, 0).r, 0);
    EXPECT_NEAR(pixel(image, 3, 0).r, 128, 1);
    EXPECT_EQ(pixel(image, 4, 0).r, 255);
    EXPECT_NEAR(pixel(image, 5, 0).r, 128, 1);
    EXPECT_EQ(pixel(image, 6, 0).r, 0);
}

TEST(Raster, TextProducesPixelsOfTheTextColour) {
    DrawList list;
    list.width = 120;
    list.height = 40;
    list.background = kBackground;
    list.texts.push_back({4, 4, 24, kRed, TextAlign::kLeft, "T5 a2"});
    const RgbaImage image = rasterize(list);
    const int red = count_pixels(image, kRed);
    EXPECT_GT(red, 40);
    // Glyphs stay inside their line: nothing above y = 4 or below y = 4 + 24.
    for (int x = 0; x < image.width; ++x) {
        EXPECT_EQ(pixel(image, x, 2), kBackground);
        EXPECT_EQ(pixel(image, x, 29), kBackground);
    }
}

TEST(Raster, CentredTextIsCentredOnItsAnchor) {
    DrawList list;
    list.width = 200;
    list.height = 30;
    list.background = kBackground;
    list.texts.push_back({100, 2, 24, kWhite, TextAlign::kCenter, "HHHH"});
    const RgbaImage image = rasterize(list);
    int min_x = image.width, max_x = -1;
    for (int y = 0; y < image.height; ++y) {
        for (int x = 0; x < image.width; ++x) {
            if (pixel(image, x, y) != kBackground) {
                min_x = std::min(min_x, x);
                max_x = std::max(max_x, x);
            }
        }
    }
    ASSERT_GE(max_x, 0);
    EXPECT_NEAR(0.5 * (min_x + max_x + 1), 100.0, 4.0) << min_x << ".." << max_x;
}

TEST(Raster, ScaleMultipliesEverything) {
    const RgbaImage image = rasterize(two_rects(), 2.0f);
    ASSERT_EQ(image.width, 200);
    ASSERT_EQ(image.height, 120);
    EXPECT_EQ(count_pixels(image, kRed), 60 * 40);
    EXPECT_EQ(pixel(image, 50, 40), kRed);
    EXPECT_EQ(pixel(image, 100, 22), kWhite);  // stroke band 6 px from y = 20
}

TEST(Raster, EmptyCanvasGivesEmptyImage) {
    EXPECT_EQ(rasterize(DrawList{}).pixels.size(), 0u);
    EXPECT_EQ(rasterize(two_rects(), 0.0f).width, 0);
}

TEST(Raster, NonAsciiTextIsDrawnAsQuestionMarks) {
    DrawList list;
    list.width = 60;
    list.height = 20;
    list.background = kBackground;
    list.texts.push_back({2, 2, 12, kWhite, TextAlign::kLeft, "\xc3\xa9\x01"});
    EXPECT_GT(count_pixels(rasterize(list), kWhite), 0);
}

}  // namespace
}  // namespace tclens::viz
