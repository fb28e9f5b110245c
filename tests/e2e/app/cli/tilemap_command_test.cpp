// `tclens tilemap`: the summary and launch-order grid, SVG/PNG exports of each view, and its
// errors. No GPU or display needed.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/png_inspect.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

using test::run_command;

using test::kTclens;

TEST(TilemapCommand, SummarySaysHowTheRungCutsTheGemm) {
    const auto result =
        run_command(kTclens + " tilemap --kernel mma_cp_async.f16 --mnk 2048x1024x512");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("C 2048 x 1024 in 16 x 4 block tiles of 128 x 256"),
              std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("bands of 16 tile rows"), std::string::npos);
    EXPECT_NE(result.out.find("= 128 per warp, 1024 per block"), std::string::npos);
    EXPECT_NE(result.out.find("256 threads copy 4 A + 8 B units of 16 bytes"), std::string::npos);
    // One band of 16 rows, walked down each column: row 1 reads 1 17 33 49.
    EXPECT_NE(result.out.find("\n  1 17 33 49\n"), std::string::npos) << result.out;
}

TEST(TilemapCommand, PersistentGridShowsTheScheduleOrder) {
    // One round either way, so rung 11 runs 128 x 192 tiles (kernels/wave_choice.h): 3 x 3
    // tiles, clusters of 2 tile rows: cluster tiles (0,0) (1,0) (0,1) (1,1) (0,2) (1,2); the
    // second cluster row's rank-1 CTA lies past M and is shown as ".".
    const auto result =
        run_command(kTclens + " tilemap --kernel wgmma_persistent.bf16 --mnk 384x512x64");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("block tiles of 128 x 192"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("\n  0  4  8\n  1  5  9\n  2  6 10\n  .  .  .\n"), std::string::npos)
        << result.out;
}

TEST(TilemapCommand, ExportsEachViewAsSvgAndPng) {
    for (const char* view : {"grid", "block", "load", "kloop"}) {
        SCOPED_TRACE(view);
        const std::string svg = test::temp_path(std::string("tilemap_") + view + ".svg");
        const std::string png = test::temp_path(std::string("tilemap_") + view + ".png");
        const auto result = run_command(kTclens + " tilemap --kernel wgmma_ws.f16 --mnk " +
                                        "1024x1024x1024 --view " + view +
                                        " --block 3 --step 5 --svg " + svg + " --png " + png);
        ASSERT_EQ(result.exit_code, 0) << result.err;
        std::ifstream file(svg);
        std::stringstream text;
        text << file.rdbuf();
        EXPECT_NE(text.str().find("<svg"), std::string::npos);
        EXPECT_NE(text.str().find("wgmma_ws.f16"), std::string::npos);
        const test::PngFacts facts = test::inspect_png(png);
        EXPECT_TRUE(facts.loaded);
        EXPECT_GT(facts.distinct_colours, 5);
        std::filesystem::remove(svg);
        std::filesystem::remove(png);
    }
}

// The exported grid is the panel's: coloured by wave with its key (rung 8 at 4096^2 on 132
// SMs: four waves), or by launch order with --colour order.
TEST(TilemapCommand, GridExportColoursByWaveWithTheKey) {
    for (const auto& [colour, key] : std::vector<std::pair<std::string, std::string>>{
             {"", "wave 4: tiles 396-511"}, {"--colour order", "colour = launch order"}}) {
        SCOPED_TRACE(colour);
        const std::string svg = test::temp_path("tilemap_waves.svg");
        const auto result =
            run_command(kTclens + " tilemap --kernel mma_cp_async.f16 " + colour + " --svg " + svg);
        ASSERT_EQ(result.exit_code, 0) << result.err;
        std::ifstream file(svg);
        std::stringstream text;
        text << file.rdbuf();
        EXPECT_NE(text.str().find(key), std::string::npos);
        std::filesystem::remove(svg);
    }
}

TEST(TilemapCommand, BadValuesAreOneLineUsageErrors) {
    for (const auto& [args, named] : std::vector<std::pair<std::string, std::string>>{
             {"", "--kernel"},
             {"--kernel cublas.f16", "cublas.f16"},
             {"--kernel mma_cp_async.f16 --mnk 12x12", "12x12"},
             {"--kernel mma_cp_async.f16 --view tiles", "tiles"},
             {"--kernel mma_cp_async.f16 --colour purple --svg x.svg", "purple"},
             {"--kernel mma_cp_async.f16 --mnk 512x512x512 --block 8", "--block 8"},
             {"--kernel mma_cp_async.f16 --mnk 512x512x512 --step 8", "--step 8"},
             {"--kernel naive_fma.f32 --mnk 65536x65536x1", "16777216 block tiles"}}) {
        SCOPED_TRACE(args);
        const auto result = run_command(kTclens + " tilemap " + args);
        EXPECT_EQ(result.exit_code, 2);
        EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
        EXPECT_NE(result.err.find(named), std::string::npos) << result.err;
    }
}

TEST(TilemapCommand, UnwritableFileIsAFailure) {
    const auto result =
        run_command(kTclens + " tilemap --kernel smem_tiled.f32 --png " + "/nonexistent-dir/x.png");
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
}

}  // namespace
}  // namespace tclens
