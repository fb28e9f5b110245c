// `tclens screenshot` renders a real panel offscreen under Xvfb; the PNG must have the requested
// size and show text, not a blank frame.

#include <gtest/gtest.h>

#include <filesystem>

#include "tests/support/png_inspect.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

using test::kTclens;

test::PngFacts screenshot(const std::string& view, const std::string& size) {
    const std::string path = test::temp_path(view + "_" + size + ".png");
    const auto result = test::run_under_xvfb(kTclens + " screenshot --view " + view + " --size " +
                                             size + " --out " + path);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    test::PngFacts facts = test::inspect_png(path);
    std::filesystem::remove(path);
    return facts;
}

TEST(Screenshot, DevicePanelIsRequestedSizeAndNotBlank) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const test::PngFacts png = screenshot("device", "800x600");
    ASSERT_TRUE(png.loaded);
    EXPECT_EQ(png.width, 800);
    EXPECT_EQ(png.height, 600);
    // Clear colour, window background, title bar, separator, text: a blank frame has one.
    EXPECT_GE(png.distinct_colours, 4);
    // Several lines of glyphs: hundreds of bright pixels over dozens of rows.
    EXPECT_GE(png.text_pixels, 400);
    EXPECT_GE(png.text_rows, 20);
}

TEST(Screenshot, HonoursNonSquareSizes) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const test::PngFacts png = screenshot("device", "1024x200");
    ASSERT_TRUE(png.loaded);
    EXPECT_EQ(png.width, 1024);
    EXPECT_EQ(png.height, 200);
    EXPECT_GE(png.text_pixels, 100);
}

TEST(Screenshot, UnwritableOutputFailsInOneLineAndLeavesNothing) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const std::string path = test::temp_path("missing_folder") + "/shot.png";
    const auto result = test::run_under_xvfb(kTclens + " screenshot --view device --out " + path);
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace tclens
