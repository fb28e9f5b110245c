// The Tile map panel under Xvfb: each of its four views renders at the requested size with the
// colours the model gives it (blocks, warps, copying warps, pipeline states), the K step moves
// the pipeline, and a bad --set value is a usage error.

#include <gtest/gtest.h>

#include "tests/support/png_inspect.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"
#include "viz/palette.h"
#include "viz/tile_map_view.h"

namespace tclens {
namespace {

using test::kTclens;
constexpr int kTileMapWidth = 1280;
constexpr int kTileMapHeight = 800;

test::PngFacts tilemap_screenshot(const std::string& settings) {
    test::CommandResult result;
    test::PngFacts facts =
        test::view_screenshot(kTclens, "tilemap", kTileMapWidth, kTileMapHeight, settings, result);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(facts.width, kTileMapWidth);
    EXPECT_EQ(facts.height, kTileMapHeight);
    return facts;
}

const viz::Palette& palette() { return viz::dark_palette(); }

// By default the grid's colours are its waves: rung 8's 512 tiles run 132 at a time on 132
// SMs, four waves in categories 0-3 (the key beside the grid has their swatches), no fifth.
TEST(TileMapPanel, GridColoursTheWaves) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto png = tilemap_screenshot("--set kernel=mma_cp_async.f16 --set view=grid");
    ASSERT_TRUE(png.loaded);
    for (int c = 0; c < 4; ++c) {
        EXPECT_GT(test::count_pixels(png, palette().categories[size_t(c)]), 20000) << c;
    }
    EXPECT_LT(test::count_pixels(png, palette().categories[4]), 100);
}

TEST(TileMapPanel, GridShowsEveryBlockColourAndTheSelectedBlock) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    // Rung 8 at 4096^2 coloured by block: 512 tiles of 17 x 35 pixels, block b in category
    // b mod 12.
    const auto png = tilemap_screenshot(
        "--set kernel=mma_cp_async.f16 --set view=grid --set colour=block "
        "--set block=37");
    ASSERT_TRUE(png.loaded);
    EXPECT_GT(png.distinct_colours, 20);
    EXPECT_GT(png.text_rows, 100);  // captions and tile numbers
    for (int c = 0; c < 12; ++c) {
        EXPECT_GT(test::count_pixels(png, palette().categories[size_t(c)]), 2000) << "colour " << c;
    }
    // The selected tile's outline: a 3-pixel frame around 35 x 17.5 pixels.
    EXPECT_GT(test::count_pixels(png, palette().highlight), 150);
}

TEST(TileMapPanel, BlockViewShowsEachWarpAndItsAlternateShade) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto png = tilemap_screenshot("--set kernel=mma_cp_async.f16 --set view=block");
    ASSERT_TRUE(png.loaded);
    // 8 warps of 64 x 64 at 2.19 px per element: each warp tile is 140 x 140 pixels, half of
    // it in the warp's colour and half a shade lighter (odd issue indices).
    for (int warp = 0; warp < 8; ++warp) {
        const viz::Rgba base = palette().categories[size_t(warp)];
        EXPECT_GT(test::count_pixels(png, base), 5000) << "warp " << warp;
        EXPECT_GT(test::count_pixels(png, viz::mix(base, palette().text, 0.18f)), 5000)
            << "warp " << warp;
    }
    EXPECT_LT(test::count_pixels(png, palette().categories[8]), 400);  // no warp 8
}

TEST(TileMapPanel, LoadMapOfThePuzzleRungIsAllWarpZero) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    // Rung 5: only warp 0 copies (05_mma_tf32_puzzle.cu), so every chunk is warp 0's colour.
    const auto five = tilemap_screenshot("--set kernel=mma_tf32_puzzle --set view=load");
    // Rung 8: all 8 warps copy.
    const auto eight = tilemap_screenshot("--set kernel=mma_cp_async.f16 --set view=load");
    ASSERT_TRUE(five.loaded && eight.loaded);
    EXPECT_GT(test::count_pixels(five, palette().categories[0]), 20000);
    EXPECT_LT(test::count_pixels(five, palette().categories[3]), 300);
    EXPECT_GT(test::count_pixels(eight, palette().categories[3]), 5000);
}

TEST(TileMapPanel, TmaLoadMapColoursTheBoxes) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    // Rung 11: one A box (colour 0) and four B boxes (colours 1-4) of 64 x 64.
    const auto png = tilemap_screenshot(
        "--set kernel=wgmma_persistent.f16 --set view=load "
        "--set block=1");
    ASSERT_TRUE(png.loaded);
    for (int box = 0; box < 5; ++box) {
        EXPECT_GT(test::count_pixels(png, palette().categories[size_t(box)]), 5000) << box;
    }
    EXPECT_LT(test::count_pixels(png, palette().categories[6]), 300);
}

TEST(TileMapPanel, KLoopStepMovesThePipeline) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto first = tilemap_screenshot(
        "--set kernel=mma_cp_async.f16 --set view=kloop "
        "--set step=0");
    const auto later = tilemap_screenshot(
        "--set kernel=mma_cp_async.f16 --set view=kloop "
        "--set step=40");
    ASSERT_TRUE(first.loaded && later.loaded);
    const viz::Rgba done = viz::done_colour(palette());
    // Step 40 of 64: 40 K tiles of both panels are done; at step 0 only the legend swatch.
    EXPECT_LT(test::count_pixels(first, done), 300);
    EXPECT_GT(test::count_pixels(later, done), 10000);
    // Both show a computing, an in-flight and an issuing stage box (128 x 40 px).
    for (viz::StageState state :
         {viz::StageState::kComputing, viz::StageState::kInFlight, viz::StageState::kIssuing}) {
        const viz::Rgba colour = viz::stage_state_colour(palette(), state);
        EXPECT_GT(test::count_pixels(later, colour), 3000) << viz::stage_state_name(state);
    }
    EXPECT_GT(test::differing_pixels(first, later), 10000);
}

TEST(TileMapPanel, BadSettingIsUsageErrorBeforeAnyWindow) {
    for (const char* setting : {"kernel=cublas.f16", "view=zoomed", "block=99999", "step=64", "m=0",
                                "sms=0", "speed=fast", "colour=purple"}) {
        SCOPED_TRACE(setting);
        const auto result = test::run_command(kTclens + " screenshot --view tilemap --set " +
                                              setting + " --out " + test::temp_path("never.png"));
        EXPECT_EQ(result.exit_code, 2);
        EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
        const std::string text = setting;
        const std::string key = text.substr(0, text.find('='));
        const std::string value = text.substr(text.find('=') + 1);
        EXPECT_NE(result.err.find(key == "speed" ? key : value), std::string::npos) << result.err;
    }
}

}  // namespace
}  // namespace tclens
