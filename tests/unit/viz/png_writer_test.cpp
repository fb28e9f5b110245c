#include "viz/png_writer.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "tests/support/png_inspect.h"
#include "tests/support/run_command.h"

namespace tclens::viz {
namespace {

RgbaImage gradient(int width, int height) {
    RgbaImage image{width, height, std::vector<std::uint8_t>(size_t(width) * height * 4)};
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            std::uint8_t* p = &image.pixels[(size_t(y) * width + x) * 4];
            p[0] = std::uint8_t(x * 7);
            p[1] = std::uint8_t(y * 11);
            p[2] = std::uint8_t(x + y);
            p[3] = 255;
        }
    }
    return image;
}

TEST(PngWriter, WritesPixelsThatReadBackExactly) {
    const RgbaImage image = gradient(37, 19);
    const std::string path = test::temp_path("gradient.png");
    ASSERT_EQ(write_png(image, path), "");
    const test::PngFacts facts = test::inspect_png(path);
    ASSERT_TRUE(facts.loaded);
    EXPECT_EQ(facts.width, 37);
    EXPECT_EQ(facts.height, 19);
    EXPECT_EQ(facts.rgba, image.pixels);
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
    std::filesystem::remove(path);
}

TEST(PngWriter, MissingFolderGivesOneLineErrorAndLeavesNoFile) {
    const std::string path = test::temp_path("no_such_folder") + "/out.png";
    const std::string error = write_png(gradient(8, 8), path);
    EXPECT_NE(error.find(path), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(path));
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

TEST(PngWriter, RejectsPixelBufferOfWrongSize) {
    RgbaImage image = gradient(8, 8);
    image.pixels.pop_back();
    const std::string path = test::temp_path("short.png");
    EXPECT_NE(write_png(image, path), "");
    EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(PngWriter, FailedWriteKeepsTheOldFile) {
    const std::string path = test::temp_path("keep.png");
    ASSERT_EQ(write_png(gradient(4, 4), path), "");
    RgbaImage broken = gradient(4, 4);
    broken.width = 0;
    EXPECT_NE(write_png(broken, path), "");
    EXPECT_EQ(test::inspect_png(path).width, 4);
    std::filesystem::remove(path);
}

}  // namespace
}  // namespace tclens::viz
