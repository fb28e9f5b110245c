// Tests for viz/raster.*: fills, strokes, blending and exact coverage of draw records, text,
// centring and scale.
#include "viz/raster.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <tuple>

#include "tests/unit/viz/sample_draw_list.h"
#include "viz/draw_list.h"

namespace tclens::viz {
namespace {

using namespace test_draw;

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

TEST(Raster, LinesAreDrawnOverTheRects) {
    DrawList list = two_rects();
    list.lines.push_back({0.0f, 5.0f, 100.0f, 5.0f, kWhite, 2.0f});   // along the top, 2 px
    list.lines.push_back({25.0f, 0.0f, 25.0f, 60.0f, kWhite, 2.0f});  // down through rect 0
    const RgbaImage image = rasterize(list);
    EXPECT_EQ(pixel(image, 50, 4), kWhite);
    EXPECT_EQ(pixel(image, 50, 5), kWhite);
    EXPECT_EQ(pixel(image, 50, 8), kBackground);
    // The vertical line crosses rect 0 (x 10..39, y 10..29): over it, the line's colour.
    for (int y = 10; y < 30; ++y) {
        EXPECT_EQ(pixel(image, 24, y), kWhite) << y;
        EXPECT_EQ(pixel(image, 25, y), kWhite) << y;
    }
    EXPECT_EQ(pixel(image, 27, 20), kRed);
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
