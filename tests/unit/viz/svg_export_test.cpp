// Tests for viz/svg_export.*: one element per draw record, escaped and aligned text, opacity,
// and atomic writes with one-line errors.
#include "viz/svg_export.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/run_command.h"
#include "tests/unit/viz/sample_draw_list.h"
#include "viz/draw_list.h"

namespace tclens::viz {
namespace {

using namespace test_draw;

size_t count_of(const std::string& text, const std::string& needle) {
    size_t count = 0;
    for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
        ++count;
    }
    return count;
}

std::string read_file(const std::string& path) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

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

TEST(SvgExport, LinesAreLineElementsBetweenRectsAndTexts) {
    DrawList list = two_rects();
    list.lines.push_back({1.0f, 2.0f, 30.5f, 40.0f, kWhite, 2.0f});
    list.texts.push_back({5.0f, 5.0f, 10.0f, kWhite, TextAlign::kLeft, "t"});
    const std::string svg = to_svg(list);
    EXPECT_EQ(count_of(svg, "<line"), 1u);
    const size_t line = svg.find(
        "<line x1=\"1\" y1=\"2\" x2=\"30.5\" y2=\"40\" stroke=\"#ffffff\" "
        "stroke-width=\"2\"/>");
    ASSERT_NE(line, std::string::npos) << svg;
    EXPECT_GT(line, svg.rfind("<rect"));
    EXPECT_LT(line, svg.find("<text"));
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

}  // namespace
}  // namespace tclens::viz
