// The Kernels panel under Xvfb: the ladder and the descriptor of the selected kernel are drawn,
// choosing another kernel changes the picture, a machine without a GPU shows why Run is off,
// and a bad --set value is a usage error. (Bench results need a GPU; their table and chart are
// tested as data in tests/unit/app/gui/views/bench_view_test.cpp.)

#include <gtest/gtest.h>

#include <cstdlib>

#include "app/gui/views/theme.h"
#include "tests/support/png_inspect.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"
#include "viz/draw_list.h"

namespace tclens {
namespace {

using test::kTclens;
constexpr int kKernelsWidth = 1400;
constexpr int kKernelsHeight = 900;

test::PngFacts kernels_screenshot(const std::string& settings) {
    test::CommandResult result;
    test::PngFacts facts =
        test::view_screenshot(kTclens, "kernels", kKernelsWidth, kKernelsHeight, settings, result);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return facts;
}

TEST(KernelsPanel, DefaultShowsTheLadderAndTheFirstRungsDescriptor) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto png = kernels_screenshot("");
    ASSERT_TRUE(png.loaded);
    EXPECT_EQ(png.width, kKernelsWidth);
    EXPECT_EQ(png.height, kKernelsHeight);
    EXPECT_GT(png.distinct_colours, 20);
    // 15 kernel titles (their "adds" lines are dimmer than glyph cores), the descriptor table,
    // the size and run controls: 290 rows at this size.
    EXPECT_GT(png.text_rows, 200);
}

TEST(KernelsPanel, WithoutAGpuRunIsOffAndSaysWhy) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    if (test::tclens_sees_gpu(kTclens)) GTEST_SKIP() << "skipped: this machine has a GPU";
    const auto png = kernels_screenshot("");
    ASSERT_TRUE(png.loaded);
    // "no GPU: bench needs one", 23 characters of glyph cores in the note colour.
    EXPECT_GT(test::count_pixels(png, gui::dark_theme().note), 100);
}

TEST(KernelsPanel, SelectingAnotherKernelChangesTheView) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto first = kernels_screenshot("");
    const auto rung8 = kernels_screenshot("--set selected=mma_cp_async.f16");
    ASSERT_TRUE(first.loaded && rung8.loaded);
    // Another selected row in the ladder, another descriptor, and rung 8's link buttons.
    EXPECT_GT(test::differing_pixels(first, rung8), 2000);
    const auto again = kernels_screenshot("--set selected=naive_fma.f32");
    ASSERT_TRUE(again.loaded);
    EXPECT_EQ(test::differing_pixels(first, again), 0);  // the default is the first rung
}

TEST(KernelsPanel, BadSettingIsUsageErrorBeforeAnyWindow) {
    for (const char* setting :
         {"selected=fastest", "mnk=4096x4096", "preset=huge", "run=cublas.f16", "zoom=2"}) {
        SCOPED_TRACE(setting);
        const auto result = test::run_command(kTclens + " screenshot --view kernels --set " +
                                              setting + " --out " + test::temp_path("never.png"));
        EXPECT_EQ(result.exit_code, 2);
        EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
        const std::string text = setting;
        const std::string key = text.substr(0, text.find('='));
        const std::string value = text.substr(text.find('=') + 1);
        EXPECT_NE(result.err.find(key == "zoom" ? key : value), std::string::npos) << result.err;
    }
}

}  // namespace
}  // namespace tclens
