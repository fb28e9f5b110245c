// The Banks panel under Xvfb: both swizzles are drawn side by side and differ where the model
// says they do, the phase stepper changes the highlighted lanes, a kernel's own access is drawn
// on its tile against the kernel's swizzle, a tile the model rejects shows its reason instead of
// crashing, and a bad --set value is a usage error.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <vector>

#include "tests/support/png_inspect.h"
#include "tests/support/run_command.h"
#include "tests/support/scripted_gpu.h"
#include "tests/support/tclens_binary.h"
#include "viz/bank_model.h"
#include "viz/bank_view.h"
#include "viz/palette.h"
#include "viz/swizzle.h"

namespace tclens {
namespace {

using test::kTclens;
constexpr int kBanksWidth = 1280;

test::PngFacts banks_screenshot(const std::string& settings) {
    test::CommandResult result;
    test::PngFacts facts =
        test::view_screenshot(kTclens, "banks", kBanksWidth, 800, settings, result);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return facts;
}

// The colour of a word no highlighted lane touches (viz/bank_view.h).
viz::Rgba dim(viz::Rgba colour) {
    const viz::Rgba bg = viz::dark_palette().background;
    auto channel = [](int c, int b) {
        return std::uint8_t(std::lround(c + (b - c) * viz::kDimming));
    };
    return {channel(colour.r, bg.r), channel(colour.g, bg.g), channel(colour.b, bg.b), 255};
}

TEST(BanksPanel, DefaultShowsNoneAndXorSideBySideAndTheyDiffer) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto png = banks_screenshot("");
    ASSERT_TRUE(png.loaded);
    EXPECT_GT(png.distinct_colours, 60);  // 32 bank colours, dimmed twins, heat, text
    EXPECT_GT(png.text_rows, 150);
    const viz::BankPalette& banks = viz::dark_bank_palette();
    const int half = kBanksWidth / 2;
    // ldmatrix.x4 on 16 x 128 bytes. none (left): 16 heat cells of 8 distinct words (banks 0-3
    // in phases 0-1, 4-7 in phases 2-3); xor (right): all 128 cells conflict-free. Each side also
    // has one legend swatch (under 200 pixels) of every degree colour.
    EXPECT_GT(test::count_pixels(png, banks.heat[3], 0, half), 1500);
    EXPECT_LT(test::count_pixels(png, banks.heat[3], half, kBanksWidth), 200);
    EXPECT_GT(test::count_pixels(png, banks.heat[0], half, kBanksWidth), 15000);
    EXPECT_LT(test::count_pixels(png, banks.heat[0], 0, half), 200);
    // Both tiles are drawn. Left (none): bank 12 is bytes 48-51 of each row, which no lane
    // reads: 16 dimmed cells. Right (xor): bank 12 is word 0 of physical chunk 3, which holds
    // logical chunk 3 ^ (r mod 8): one word per row, read (bytes 0-31) in rows 2, 3, 10, 11,
    // dimmed in the others.
    const viz::Rgba dimmed = dim(banks.banks[12]);
    EXPECT_GT(test::count_pixels(png, dimmed, 0, half), 16 * 150);
    EXPECT_LT(test::count_pixels(png, banks.banks[12], 0, half), 400);  // the swatch only
    EXPECT_GT(test::count_pixels(png, dimmed, half, kBanksWidth) +
                  test::count_pixels(png, banks.banks[12], half, kBanksWidth),
              16 * 150);
}

TEST(BanksPanel, SteppingToOnePhaseHighlightsFewerWords) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto all = banks_screenshot("--set phase=-1");
    const auto one = banks_screenshot("--set phase=2");
    ASSERT_TRUE(all.loaded && one.loaded);
    // All phases: 32 lanes x 4 words outlined per side; phase 2: 8 lanes x 4 words, plus the
    // outline of the heatmap's phase row. The outline colour is the palette's text colour.
    const viz::Rgba outline = viz::dark_palette().text;
    const int lit_all = test::count_pixels(all, outline);
    const int lit_one = test::count_pixels(one, outline);
    EXPECT_GT(lit_all, lit_one + 10000) << lit_all << " vs " << lit_one;
    // Phase 2 of none reads banks 4-7 only: their full colours are on screen, bank 0's is not
    // (lane 0-15 words are dimmed now; the bank-0 swatch keeps the full colour, 15 x 15 px).
    const viz::BankPalette& banks = viz::dark_bank_palette();
    EXPECT_LT(test::count_pixels(one, banks.banks[0], 0, kBanksWidth / 2), 400);
    EXPECT_GT(test::count_pixels(all, banks.banks[0], 0, kBanksWidth / 2), 1500);
}

TEST(BanksPanel, KernelAccessIsDrawnOnTheKernelsTileAgainstItsSwizzle) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    // Both sides start unswizzled; the XOR rung's A ldmatrix then puts the kernel's xor on the
    // right, on the 128 x 128-byte A tile. Its heatmap is the default's (ldmatrix.x4 on 128-byte
    // rows): 8-way on the left, conflict-free on the right.
    const auto plain = banks_screenshot("--set right=none");
    const auto png =
        banks_screenshot("--set right=none --set pattern=mma_ldmatrix_xor.f16/A.ldmatrix");
    ASSERT_TRUE(png.loaded && plain.loaded);
    const viz::BankPalette& banks = viz::dark_bank_palette();
    const int half = kBanksWidth / 2;
    EXPECT_GT(test::count_pixels(plain, banks.heat[3], half, kBanksWidth), 1500);
    EXPECT_GT(test::count_pixels(png, banks.heat[3], 0, half), 1500);
    EXPECT_LT(test::count_pixels(png, banks.heat[3], half, kBanksWidth), 200);
    EXPECT_GT(test::count_pixels(png, banks.heat[0], half, kBanksWidth), 15000);
}

TEST(BanksPanel, ATileTheModelRejectsShowsTheReasonInRed) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto ok = banks_screenshot("");
    const auto bad = banks_screenshot("--set rows=3 --set right=pad:4");
    ASSERT_TRUE(ok.loaded && bad.loaded);
    // ImGui glyph cores take the exact text colour: (1.0, 0.35, 0.3) -> (255, 89, 77).
    const viz::Rgba red{255, 89, 77, 255};
    EXPECT_LT(test::count_pixels(ok, red), 20);
    EXPECT_GT(test::count_pixels(bad, red), 300);
    // No tile, no heatmap.
    EXPECT_LT(test::count_pixels(bad, viz::dark_bank_palette().heat[3]), 50);
}

// The largest tile (512 rows of 512 bytes: 65,536 words a side, far past 65,536 vertices of
// draw data) on both sides, wide enough to show every word of a row: every tile row on screen,
// left (none) and right (xor, drawn after the left one), shows its 128 words in the colours of
// the banks the model puts them in, in order. Row 0 is lds.128.row's one request (full colours);
// the rows below are dimmed.
TEST(BanksPanel, LargestTileRendersEveryWordInItsBanksColourOnBothSides) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    constexpr int kWide = 2400;
    test::CommandResult result;
    const test::PngFacts png = test::view_screenshot(
        kTclens, "banks", kWide, 800,
        "--set pattern=lds.128.row --set rows=512 --set row_bytes=512 --set zoom=0.5 --set "
        "left=none --set right=xor",
        result);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    ASSERT_TRUE(png.loaded);
    const viz::BankPalette& banks = viz::dark_bank_palette();
    std::map<std::uint32_t, int> bank_of_dimmed;
    for (int bank = 0; bank < 32; ++bank) {
        const viz::Rgba c = dim(banks.banks[bank]);
        bank_of_dimmed[std::uint32_t(c.r) << 16 | std::uint32_t(c.g) << 8 | c.b] = bank;
    }
    // The model's bank of every word of tile row r, per side.
    const viz::Tile tile{512, 512};
    auto model_row = [&](const char* spec, int row) {
        const viz::Swizzle swizzle = viz::parse_swizzle(spec).value();
        std::vector<int> row_banks;
        for (int word = 0; word < 128; ++word) {
            row_banks.push_back(viz::bank_of(viz::physical_address(swizzle, tile, row, 4 * word)));
        }
        return row_banks;
    };
    std::set<std::vector<int>> left_rows, right_rows;  // rows 1..15: one period of xor and more
    for (int row = 1; row < 16; ++row) {
        left_rows.insert(model_row("none", row));
        right_rows.insert(model_row("xor", row));
    }
    int tile_rows = 0;  // image rows through tile rows
    std::set<std::vector<int>> right_seen;
    for (int y = 0; y < png.height; ++y) {
        // The dimmed bank colours along this image row, as stretches of cells with nothing else
        // in between: on a tile row, the left tile's words, then the right tile's.
        std::vector<std::vector<int>> stretches(1);
        for (const viz::Rgba& c : test::colour_runs(png, y, 0, kWide, 3)) {
            const auto bank =
                bank_of_dimmed.find(std::uint32_t(c.r) << 16 | std::uint32_t(c.g) << 8 | c.b);
            if (bank != bank_of_dimmed.end()) {
                stretches.back().push_back(bank->second);
            } else if (!stretches.back().empty()) {
                stretches.emplace_back();
            }
        }
        stretches.erase(std::remove_if(stretches.begin(), stretches.end(),
                                       [](const auto& words) { return words.size() < 32; }),
                        stretches.end());
        if (stretches.empty()) continue;  // not a tile row
        ASSERT_EQ(stretches.size(), 2u) << "image row " << y << ": one stretch per side";
        ASSERT_TRUE(left_rows.count(stretches[0]))
            << "left side, image row " << y << ": " << stretches[0].size()
            << " words not in the model's bank order";
        ASSERT_TRUE(right_rows.count(stretches[1]))
            << "right side, image row " << y << ": " << stretches[1].size()
            << " words not in the model's bank order";
        ++tile_rows;
        right_seen.insert(stretches[1]);
    }
    EXPECT_GT(tile_rows, 400) << "~70 tile rows of 8 pixels are on screen";
    EXPECT_EQ(right_seen, right_rows) << "every row pattern of the xor side is on screen";
}

TEST(BanksPanel, BadSettingIsUsageErrorBeforeAnyWindow) {
    for (const char* setting : {"left=zigzag", "phase=4", "rows=0", "pattern=lds",
                                "pattern=bogus.kernel/A.ldmatrix", "colour=red"}) {
        SCOPED_TRACE(setting);
        const auto result = test::run_command(kTclens + " screenshot --view banks --set " +
                                              setting + " --out " + test::temp_path("never.png"));
        EXPECT_EQ(result.exit_code, 2);
        EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
        // The message names the bad value, or the unknown key.
        const std::string text = setting;
        const std::string value = text.substr(text.find('=') + 1);
        const std::string key = text.substr(0, text.find('='));
        EXPECT_NE(result.err.find(key == "colour" ? key : value), std::string::npos) << result.err;
    }
}

// Measure on GPU goes to the worker: with a scripted one whose GPU is kScriptedGpu and whose
// canned answer is 12345.5 wavefronts per instruction (the model says 32 and 4), both sides show
// that answer, which this process could not have measured.
TEST(BanksPanel, MeasureShowsTheWorkersAnswerNotOneTakenHere) {
    const std::string answer = test::write_canned(
        "banks_panel_measure.json",
        R"({"device":"Scripted H999","wavefronts_per_request":12345.5,"iterations":256,)"
        R"("requests":1,"wavefront_metric":"w","instruction_metric":"i","baseline_wavefronts":3,)"
        R"("run_wavefronts":8195,"instructions_per_iteration":1,"passes":1})");
    test::CommandResult result;
    const std::string text =
        test::panel_text_with_worker(test::scripted_gpu_worker("SCRIPTED_BANK_MEASURE=" + answer),
                                     "banks", "--set banks.measure=on", result);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(text.find("left (none): model 32 / measured 12345.50 on Scripted H999"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("right (xor): model 4 / measured 12345.50 on Scripted H999"),
              std::string::npos)
        << text;
}

}  // namespace
}  // namespace tclens
