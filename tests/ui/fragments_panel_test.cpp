// The Fragments panel under Xvfb: the colours on screen follow the model's registers, and a
// pinned lane is highlighted.

#include <gtest/gtest.h>

#include <set>
#include <utility>
#include <vector>

#include "tests/support/png_inspect.h"
#include "tests/support/run_command.h"
#include "viz/fragment_layout.h"
#include "viz/palette.h"

namespace tclens {
namespace {

const std::string kTclens = TCLENS_BINARY;

test::PngFacts fragments_screenshot(const std::string& settings) {
    test::CommandResult result;
    test::PngFacts facts = test::view_screenshot(kTclens, "fragments", 1000, 720, settings, result);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return facts;
}

TEST(FragmentsPanel, RegisterColouringShowsEachRegisterOfTheLayout) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto png = fragments_screenshot("--set layout=mma.m16n8k8.tf32 --set colour=register");
    ASSERT_TRUE(png.loaded);
    const auto& categories = viz::dark_palette().categories;
    // a0..a3 / c0..c3 use categories 0..3: each covers many cells of 28 x 28 pixels.
    for (int reg = 0; reg < 4; ++reg) {
        EXPECT_GT(test::count_pixels(png, categories[reg]), 5000) << "register " << reg;
    }
    // No register 4 in this instruction: its colour must not appear in cells.
    EXPECT_LT(test::count_pixels(png, categories[4]), 200);
}

TEST(FragmentsPanel, PinnedLaneIsOutlinedAndOnlyThen) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const viz::Rgba highlight = viz::dark_palette().highlight;
    const auto plain = fragments_screenshot("--set layout=mma.m16n8k16.f16");
    const auto pinned = fragments_screenshot("--set layout=mma.m16n8k16.f16 --set lane=5");
    ASSERT_TRUE(plain.loaded && pinned.loaded);
    EXPECT_LT(test::count_pixels(plain, highlight), 50);
    // Lane 5 holds 8 A, 4 B and 4 C/D cells plus its lane-strip cell: outlines on all of them.
    EXPECT_GT(test::count_pixels(pinned, highlight), 600);
}

// The four warps of a warpgroup own the 16-row bands of A and D (fragment_view.h), outlined in
// palette.text. Each band is drawn, and each of its 16 rows shows exactly the lane colours of the
// lanes that hold that row in the model (its own warp's: lane 32w + 4g + t), no other lane
// colour.
TEST(FragmentsPanel, WgmmaAccumulatorRendersAllWarps) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto png =
        fragments_screenshot("--set layout=wgmma.m64n256k16.f16 --set zoom=0.25 --set colour=lane");
    ASSERT_TRUE(png.loaded);
    const viz::Palette& palette = viz::dark_palette();
    // Top edge, the three lines between the bands, bottom edge: long runs of the outline colour.
    const std::vector<std::pair<int, int>> lines = test::horizontal_lines(png, palette.text, 400);
    ASSERT_EQ(lines.size(), 5u) << "the outlines of 4 warp bands";
    const viz::FragmentLayout layout = *viz::fragment_layout("wgmma.m64n256k16.f16");
    for (int warp = 0; warp < 4; ++warp) {
        const int top = lines[warp].second + 1;
        const int bottom = lines[warp + 1].first;
        ASSERT_GT(bottom - top, 16 * 3) << "warp " << warp << "'s band is too thin to hold 16 rows";
        for (int band_row = 0; band_row < 16; ++band_row) {
            const int row = 16 * warp + band_row;
            std::set<int> expected;  // category indices of the lanes holding this row in A and D
            for (const viz::OperandLayout& operand : layout.operands) {
                for (const viz::LayoutElement& e : operand.elements) {
                    if (e.row == row) expected.insert(e.lane % int(palette.categories.size()));
                }
            }
            ASSERT_EQ(expected.size(), 4u) << "row " << row << ": one group of 4 lanes";
            const int y = top + (2 * band_row + 1) * (bottom - top) / 32;
            for (int c = 0; c < int(palette.categories.size()); ++c) {
                const int pixels = test::count_pixels_in_row(png, palette.categories[c], y);
                if (expected.count(c)) {
                    EXPECT_GT(pixels, 100) << "warp " << warp << " row " << row << " colour " << c;
                } else {
                    EXPECT_EQ(pixels, 0) << "warp " << warp << " row " << row << " colour " << c;
                }
            }
        }
    }
}

TEST(FragmentsPanel, BadSettingIsUsageErrorBeforeAnyWindow) {
    const auto result = test::run_command(kTclens +
                                          " screenshot --view fragments --set colour=rainbow "
                                          "--out " +
                                          test::temp_path("never.png"));
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("rainbow"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace tclens
