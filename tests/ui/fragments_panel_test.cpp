// The Fragments panel under Xvfb: the colours on screen follow the model's registers, and a
// pinned lane is highlighted.

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <utility>
#include <vector>

#include "tests/support/png_inspect.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"
#include "viz/fragment_layout.h"
#include "viz/palette.h"

namespace tclens {
namespace {

using test::kTclens;

test::PngFacts fragments_screenshot(const std::string& settings, int height = 720) {
    test::CommandResult result;
    test::PngFacts facts =
        test::view_screenshot(kTclens, "fragments", 1000, height, settings, result);
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
    // 800 pixels high: the Description section above the drawing takes about 110 of them, and
    // all four bands with their bottom outline must be on screen.
    const auto png = fragments_screenshot(
        "--set layout=wgmma.m64n256k16.f16 --set zoom=0.25 --set colour=lane", 800);
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

// Pixels within 40 of `colour` in every channel: anti-aliased text of that colour.
int near_pixels(const test::PngFacts& png, viz::Rgba colour) {
    int count = 0;
    for (size_t i = 0; i + 3 < png.rgba.size(); i += 4) {
        count += std::abs(png.rgba[i] - colour.r) <= 40 &&
                 std::abs(png.rgba[i + 1] - colour.g) <= 40 &&
                 std::abs(png.rgba[i + 2] - colour.b) <= 40;
    }
    return count;
}

TEST(FragmentsPanel, ModelsShowTheirNoteAndOthersDoNot) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    // A tcgen05 model says "model (PTX ISA), not verified: needs sm_100" twice in yellow: above
    // the description and as the drawing's first line. Both views share the rest of the yellow
    // text (the Verify button's "no GPU" line on a machine without one).
    const viz::Rgba highlight = viz::dark_palette().highlight;
    const auto model = fragments_screenshot("--set layout=tcgen05.ld.16x256b.x1");
    const auto verified = fragments_screenshot("--set layout=mma.m16n8k8.tf32");
    ASSERT_TRUE(model.loaded && verified.loaded);
    EXPECT_GT(near_pixels(model, highlight), near_pixels(verified, highlight) + 1000);
}

TEST(FragmentsPanel, SharedMemoryViewColoursCoreMatrices) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto png = fragments_screenshot("--set layout=wgmma.smem.f16.k.sw128 --set zoom=0.5");
    ASSERT_TRUE(png.loaded);
    // A is 64 x 16: 16 core matrices coloured by category; the first 8 are on screen.
    const auto& categories = viz::dark_palette().categories;
    for (int core = 0; core < 8; ++core) {
        EXPECT_GT(test::count_pixels(png, categories[size_t(core)]), 300) << "core matrix " << core;
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
