// The monitor's content scale (app/gui/shell/gui_runtime.h, lecture_mode.h): on a 4K monitor at
// 200 % the app's text is built twice as tall, at least 24 px. Xvfb reports a content scale of
// 1, so the tests force one (`--content-scale`, which the app otherwise reads from the monitor)
// and read the body text's height from the layout report ("font_pixels"), the rail's lines of
// text from the PNG and, from the report's "values", that the controls grew with the text.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include "tests/support/png_inspect.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

using test::kTclens;
constexpr float kMinTextPixels = 24.0f;  // issue 32: readable on a 4K monitor at 200 %

struct Window {
    test::CommandResult result;
    test::PngFacts png;
    nlohmann::json layout;
};

// `tclens screenshot --window` at 3840x2160 with `arguments`.
Window window_at_4k(const std::string& arguments) {
    const std::string png = test::temp_path("content_scale.png");
    const std::string json = test::temp_path("content_scale.json");
    Window shot;
    shot.result = test::run_under_xvfb(kTclens + " screenshot --window --size 3840x2160 --out " +
                                           png + " --layout-json " + json + " " + arguments,
                                       "3840x2160");
    shot.png = test::inspect_png(png);
    std::ifstream in(json);
    if (in) shot.layout = nlohmann::json::parse(in, nullptr, false);
    std::filesystem::remove(png);
    std::filesystem::remove(json);
    return shot;
}

// The median height of the bands of image rows with bright (text) pixels in columns
// [x_begin, x_end): one band per line of text where lines do not touch.
int median_text_band(const test::PngFacts& png, int x_begin, int x_end) {
    std::vector<int> bands;
    int run = 0;
    for (int y = 0; y <= png.height; ++y) {
        bool text = false;
        for (int x = x_begin; y < png.height && x < x_end && !text; ++x) {
            const std::uint8_t* p = &png.rgba[(size_t(y) * png.width + x) * 4];
            text = p[0] > 200 && p[1] > 200 && p[2] > 200;
        }
        if (text) {
            ++run;
        } else if (run > 0) {
            if (run >= 3) bands.push_back(run);
            run = 0;
        }
    }
    if (bands.empty()) return 0;
    std::sort(bands.begin(), bands.end());
    return bands[bands.size() / 2];
}

// The rail's view names (Device, Fragments ...): the same words at either scale.
int rail_text_band(const Window& shot) {
    const nlohmann::json& rail = shot.layout["areas"]["rail"];
    const int x = int(rail[0].get<float>()) + 2;
    return median_text_band(shot.png, x, x + int(rail[2].get<float>()) - 4);
}

TEST(ContentScale, AtScaleTwoOnA4kScreenTheTextIsAtLeast24PixelsTall) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const Window plain = window_at_4k("");
    const Window scaled = window_at_4k("--content-scale 2");
    ASSERT_EQ(plain.result.exit_code, 0) << plain.result.err;
    ASSERT_EQ(scaled.result.exit_code, 0) << scaled.result.err;
    ASSERT_TRUE(plain.png.loaded && scaled.png.loaded);
    ASSERT_TRUE(plain.layout.is_object() && scaled.layout.is_object());
    const float plain_font = plain.layout["display"]["font_pixels"];
    const float scaled_font = scaled.layout["display"]["font_pixels"];
    EXPECT_LT(plain_font, kMinTextPixels);  // what a 4K monitor showed before (13 px)
    EXPECT_GE(scaled_font, kMinTextPixels);
    EXPECT_GE(scaled_font, 2 * plain_font);
    // In the picture: the rail's lines of text are drawn about twice as tall (the built-in font
    // at 13 px against a TrueType one at 30 px, whose glyphs fill less of their line).
    const int plain_band = rail_text_band(plain), scaled_band = rail_text_band(scaled);
    EXPECT_GT(plain_band, 5);
    EXPECT_GE(scaled_band * 10, plain_band * 17) << plain_band << " -> " << scaled_band;
    // The controls grew with the text: every value they show fits (views/item_width.h).
    EXPECT_FALSE(scaled.layout["values"].empty());
    for (const nlohmann::json& value : scaled.layout["values"]) {
        const float width = value["frame"][2], needed = value["needed"];
        EXPECT_GE(width + 1.0f, needed) << std::string(value["text"]) << " is cut";
    }
}

TEST(ContentScale, ABadScaleIsAOneLineUsageError) {
    for (const std::string value : {"9", "0", "abc"}) {
        const auto result = test::run_command(
            kTclens + " screenshot --window --out /dev/null --content-scale " + value);
        EXPECT_EQ(result.exit_code, 2) << value;
        EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
        EXPECT_NE(result.err.find("--content-scale"), std::string::npos) << result.err;
        EXPECT_NE(result.err.find(value), std::string::npos) << result.err;
    }
}

}  // namespace
}  // namespace tclens
