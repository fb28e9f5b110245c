// The Device panel under Xvfb: its facts are painted from draw records
// (app/gui/views/device_view.h), the same ones its Export buttons write, in the palette of the
// theme: the dark one by default, the high-contrast one in lecture mode. An open recording is
// named by its file, when and where it was made (read back from the panel's text).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/png_inspect.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"
#include "viz/draw_list.h"

namespace tclens {
namespace {

using test::kTclens;
constexpr int kDeviceWidth = 900;
constexpr int kDeviceHeight = 500;

test::PngFacts device_screenshot(const std::string& arguments) {
    test::CommandResult result;
    test::PngFacts png =
        test::view_screenshot(kTclens, "device", kDeviceWidth, kDeviceHeight, arguments, result);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return png;
}

// viz::dark_palette(): canvas 0x1b1d23; labels 30% of the way from the text (0xe6e6e6) to it.
constexpr viz::Rgba kDarkCanvas{27, 29, 35, 255};
constexpr viz::Rgba kDarkLabel{169, 170, 172, 255};
// viz::high_contrast_palette(): black canvas, white values, labels 30% toward black.
constexpr viz::Rgba kWhite{255, 255, 255, 255};
constexpr viz::Rgba kContrastLabel{179, 179, 179, 255};

TEST(DevicePanel, PaintsTheFactsTableInTheDarkPalette) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto png = device_screenshot("");
    ASSERT_TRUE(png.loaded);
    EXPECT_EQ(png.width, kDeviceWidth);
    EXPECT_EQ(png.height, kDeviceHeight);
    EXPECT_GT(png.distinct_colours, 6);
    EXPECT_GT(png.text_rows, 30);
    EXPECT_GT(test::count_pixels(png, kDarkCanvas), 20000);  // the table's canvas
    EXPECT_GT(test::count_pixels(png, kDarkLabel), 100);     // the labels' glyphs
}

TEST(DevicePanel, LectureModePaintsItInTheHighContrastPalette) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto png = device_screenshot("--lecture");
    ASSERT_TRUE(png.loaded);
    EXPECT_EQ(test::count_pixels(png, kDarkCanvas), 0);
    EXPECT_GT(test::count_pixels(png, kWhite), 300);
    EXPECT_GT(test::count_pixels(png, kContrastLabel), 20);
}

TEST(DevicePanel, NamesARecordingByFileWhenAndWhereNotItsCommandLine) {
    // The panel's text as drawn (`tclens headless --text`), with the shipped recording open: it
    // was made by `tclens record /root/out/r/h200.json ...` on an H200.
    const std::string path = test::temp_path("device_text.txt");
    const auto result = test::run_command("env -u DISPLAY " + kTclens +
                                          " headless --view device --open " TCLENS_ASSETS_DIR
                                          "/recordings/h200.json.gz --frames 3 --text " +
                                          path);
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    std::filesystem::remove(path);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(text.str().find("h200.json.gz: recorded on NVIDIA H200, 2026-11-30 20:20 UTC "
                              "(driver 580.159.04, CUDA runtime 13.0, tclens 0.1.0)"),
              std::string::npos)
        << text.str();
    EXPECT_EQ(text.str().find("tclens record"), std::string::npos) << text.str();
    EXPECT_EQ(text.str().find("/root/out/r"), std::string::npos) << text.str();
}

}  // namespace
}  // namespace tclens
