// Lecture mode and tours under Xvfb (app/gui/views/lecture_mode.h,
// app/gui/shell/tour_overlay.h): `tclens screenshot --lecture` paints the high-contrast theme, a
// zoom makes text taller, a tour step's caption banner is drawn, the GUI runs a tour in lecture
// mode and keeps running with a bad tour file, and bad lecture or tour arguments are one-line usage
// errors.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <vector>

#include "tests/support/png_inspect.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"
#include "viz/draw_list.h"

namespace tclens {
namespace {

using test::kTclens;
constexpr int kLectureWidth = 1000;
constexpr int kLectureHeight = 640;

// The high-contrast theme's button colour (Okabe-Ito blue) and the banner's accent line.
constexpr viz::Rgba kButtonBlue{0, 114, 178, 255};
constexpr viz::Rgba kBannerYellow{240, 228, 66, 255};
constexpr viz::Rgba kBlack{0, 0, 0, 255};

test::PngFacts shot(const std::string& view, const std::string& arguments) {
    test::CommandResult result;
    test::PngFacts png =
        test::view_screenshot(kTclens, view, kLectureWidth, kLectureHeight, arguments, result);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return png;
}

// Heights of the bands of consecutive image rows that hold bright (text) pixels, in rows
// [top, bottom): one band per line of text where lines do not touch. The outermost columns are
// left out: the high-contrast theme draws the window's border there in white.
std::vector<int> text_band_heights(const test::PngFacts& png, int top = 0, int bottom = -1) {
    if (bottom < 0) bottom = png.height;
    std::vector<int> bands;
    int run = 0;
    for (int y = top; y < bottom; ++y) {
        bool text = false;
        for (int x = 4; x < png.width - 4 && !text; ++x) {
            const std::uint8_t* p = &png.rgba[(size_t(y) * png.width + x) * 4];
            text = p[0] > 200 && p[1] > 200 && p[2] > 200;
        }
        if (text) {
            ++run;
        } else if (run > 0) {
            bands.push_back(run);
            run = 0;
        }
    }
    if (run > 0) bands.push_back(run);
    return bands;
}

int median_band(const test::PngFacts& png) {
    std::vector<int> bands = text_band_heights(png);
    bands.erase(std::remove_if(bands.begin(), bands.end(), [](int h) { return h < 3; }),
                bands.end());
    if (bands.empty()) return 0;
    std::sort(bands.begin(), bands.end());
    return bands[bands.size() / 2];
}

// The first row (from the top) whose every pixel is `colour`, or -1.
int full_row_of(const test::PngFacts& png, viz::Rgba colour) {
    for (int y = 0; y < png.height; ++y) {
        if (test::count_pixels(png, colour) == 0) return -1;
        int same = 0;
        for (int x = 0; x < png.width; ++x) {
            const std::uint8_t* p = &png.rgba[(size_t(y) * png.width + x) * 4];
            same += p[0] == colour.r && p[1] == colour.g && p[2] == colour.b;
        }
        if (same == png.width) return y;
    }
    return -1;
}

std::string write_tour(const std::string& name, const std::string& text) {
    const std::string path = test::temp_path(name);
    std::ofstream(path) << text;
    return path;
}

TEST(LectureMode, ScreenshotUsesTheHighContrastTheme) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto plain = shot("device", "");
    const auto lecture = shot("device", "--lecture");
    ASSERT_TRUE(plain.loaded && lecture.loaded);
    EXPECT_EQ(lecture.width, kLectureWidth);
    EXPECT_EQ(lecture.height, kLectureHeight);
    const int pixels = kLectureWidth * kLectureHeight;
    // Black window and view backgrounds, the Export buttons in the theme's blue.
    EXPECT_GT(test::count_pixels(lecture, kBlack), pixels / 2);
    EXPECT_LT(test::count_pixels(plain, kBlack), pixels / 100);
    EXPECT_GT(test::count_pixels(lecture, kButtonBlue), 1000);
    EXPECT_EQ(test::count_pixels(plain, kButtonBlue), 0);
    EXPECT_GT(lecture.text_rows, 40);
}

TEST(LectureMode, ZoomMakesTextTaller) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto plain = shot("device", "");
    const auto at_100 = shot("device", "--set lecture.theme=high-contrast --set lecture.zoom=100");
    const auto at_200 = shot("device", "--set lecture.theme=high-contrast --set lecture.zoom=200");
    ASSERT_TRUE(plain.loaded && at_100.loaded && at_200.loaded);
    const int plain_h = median_band(plain), h100 = median_band(at_100), h200 = median_band(at_200);
    EXPECT_GT(plain_h, 5);
    // Same font, twice the pixel size: text lines about twice as tall.
    EXPECT_GE(h200 * 10, h100 * 17) << h100 << " -> " << h200;
    EXPECT_GT(h200, plain_h * 3 / 2) << plain_h << " -> " << h200;
}

TEST(LectureMode, TourStepShowsItsCaptionBanner) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const std::string tour = write_tour(
        "caption_tour.json",
        R"({"schema_version": 1, "steps": [{"view": "fragments", "settings": ["layout=ldmatrix.x4"],
            "caption": "Every lane of the warp supplies one row address: lanes 0-7 for matrix 0, 8-15 for matrix 1, and so on."}]})");
    test::CommandResult result;
    const std::string path = test::temp_path("tour_step.png");
    result = test::run_under_xvfb(kTclens + " screenshot --tour " + tour +
                                  " --tour-step 1 --size " + std::to_string(kLectureWidth) + "x" +
                                  std::to_string(kLectureHeight) + " --out " + path);
    const test::PngFacts with_banner = test::inspect_png(path);
    std::remove(path.c_str());
    std::remove(tour.c_str());
    EXPECT_EQ(result.exit_code, 0) << result.err;
    ASSERT_TRUE(with_banner.loaded);
    const auto without = shot("fragments", "--set layout=ldmatrix.x4");
    ASSERT_TRUE(without.loaded);
    // A full-width yellow line tops the banner in the lower part of the image; none without it.
    const int accent = full_row_of(with_banner, kBannerYellow);
    EXPECT_GT(accent, kLectureHeight / 2);
    EXPECT_EQ(full_row_of(without, kBannerYellow), -1);
    // Below it, the caption: white text taller than the UI's, wrapped on two lines (its bands
    // may touch), so more text rows than one line of it.
    const std::vector<int> caption = text_band_heights(with_banner, accent + 3, kLectureHeight);
    ASSERT_FALSE(caption.empty());
    const int tallest = *std::max_element(caption.begin(), caption.end());
    EXPECT_GT(tallest, median_band(without) * 3 / 2);
    int rows = 0;
    for (int band : caption) rows += band;
    EXPECT_GT(rows, tallest * 3 / 2);
}

TEST(LectureMode, ShippedTourStepsRender) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    for (int step : {1, 2}) {
        SCOPED_TRACE(step);
        const std::string path = test::temp_path("shipped_step.png");
        const auto result = test::run_under_xvfb(kTclens + " screenshot --lecture --tour-step " +
                                                 std::to_string(step) + " --out " + path);
        const test::PngFacts png = test::inspect_png(path);
        std::remove(path.c_str());
        EXPECT_EQ(result.exit_code, 0) << result.err;
        ASSERT_TRUE(png.loaded);
        EXPECT_GT(full_row_of(png, kBannerYellow), png.height / 2);
    }
}

TEST(LectureMode, GuiRunsATourInLectureModeWithAutoplay) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const std::string tour =
        write_tour("gui_tour.json",
                   R"({"schema_version": 1, "steps": [{"view": "device", "caption": "The GPU."},
            {"view": "fragments", "settings": ["layout=mma.m16n8k16.f16"], "caption": "A quadrants."},
            {"view": "banks", "settings": ["pattern=ldmatrix.x4", "left=none", "right=xor"], "caption": "Banks."}]})");
    // A step every 0.5 s until 5 step changes (the start and 4 steps on). Manual steps stop at
    // the last step; only autoplay wraps round, so 5 changes on 3 steps show it advancing and
    // looping, to step 2; and 4 steps on took at least 4 periods. --seconds is a limit only.
    const auto result = test::run_under_xvfb(kTclens + " --lecture --tour " + tour +
                                             " --tour-autoplay 0.5 --until-tour-changes 5 "
                                             "--seconds 120 --frame-stats");
    std::remove(tour.c_str());
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err, "");
    const std::size_t at = result.out.find("tour: at step ");
    ASSERT_NE(at, std::string::npos) << result.out;
    int step = 0, steps = 0;
    unsigned long long changes = 0;
    ASSERT_EQ(std::sscanf(result.out.c_str() + at, "tour: at step %d of %d after %llu step changes",
                          &step, &steps, &changes),
              3)
        << result.out;
    EXPECT_EQ(steps, 3);
    EXPECT_EQ(changes, 5u) << result.out;
    EXPECT_EQ(step, 2) << result.out;
    const std::size_t ran_at = result.out.find("ran ");
    ASSERT_NE(ran_at, std::string::npos) << result.out;
    double ran_s = 0;
    ASSERT_EQ(std::sscanf(result.out.c_str() + ran_at, "ran %lf s", &ran_s), 1) << result.out;
    EXPECT_GE(ran_s, 4 * 0.5) << "autoplay stepped faster than its period";
    EXPECT_LT(ran_s, 120.0) << "it ran to the time limit: autoplay stopped stepping";
}

TEST(LectureMode, BadTourFileIsReportedAndTheGuiKeepsRunning) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const std::string tour =
        write_tour("bad_tour.json",
                   R"({"schema_version": 1, "steps": [{"view": "device", "caption": "ok"},
            {"view": "fragments", "settings": ["layout=mma.m99"], "caption": "bad"}]})");
    const auto result = test::run_under_xvfb(kTclens + " --tour " + tour + " --frames 20");
    std::remove(tour.c_str());
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("step 2: setting 'layout=mma.m99'"), std::string::npos) << result.err;
}

TEST(LectureMode, BadLectureOrTourArgumentsAreOneLineUsageErrors) {
    const std::string missing_tour = test::temp_path("missing_tour.json");
    for (const std::string& arguments :
         {std::string("--view device --set lecture.zoom=500"),
          std::string("--view device --set lecture.theme=light"), std::string("--tour-step 99"),
          "--tour " + missing_tour + " --tour-step 1", std::string("--size 800x600"),
          std::string("--view device --tour-step 1")}) {
        SCOPED_TRACE(arguments);
        const auto result = test::run_command(kTclens + " screenshot " + arguments + " --out " +
                                              test::temp_path("never.png"));
        EXPECT_EQ(result.exit_code, 2);
        EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    }
    const auto zoom =
        test::run_command(kTclens + " screenshot --view device --set lecture.zoom=500 --out " +
                          test::temp_path("never.png"));
    EXPECT_NE(zoom.err.find("zoom='500': allowed: 100..300"), std::string::npos) << zoom.err;
    const auto autoplay = test::run_command(kTclens + " --tour-autoplay 0 --frames 1");
    EXPECT_EQ(autoplay.exit_code, 2);
    EXPECT_TRUE(test::is_one_line(autoplay.err)) << autoplay.err;
}

}  // namespace
}  // namespace tclens
