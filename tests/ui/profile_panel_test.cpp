// The Profile panel under Xvfb: the controls are drawn at the requested size, a machine without
// a GPU shows why Live is off, settings change the picture, and a bad --set value is a usage
// error. (Live metric cards, strip charts and the checklist need a GPU; their data is tested in
// tests/unit/app/gui/views/profile_view_test.cpp and tests/unit/viz/strip_chart_test.cpp.)

#include <gtest/gtest.h>

#include "app/gui/views/theme.h"
#include "tests/support/png_inspect.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"
#include "viz/draw_list.h"

namespace tclens {
namespace {

using test::kTclens;
constexpr int kProfileWidth = 1200;
constexpr int kProfileHeight = 700;

test::PngFacts profile_screenshot(const std::string& settings) {
    test::CommandResult result;
    test::PngFacts facts =
        test::view_screenshot(kTclens, "profile", kProfileWidth, kProfileHeight, settings, result);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return facts;
}

TEST(ProfilePanel, DefaultDrawsTheControlsAtTheRequestedSize) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto png = profile_screenshot("");
    ASSERT_TRUE(png.loaded);
    EXPECT_EQ(png.width, kProfileWidth);
    EXPECT_EQ(png.height, kProfileHeight);
    EXPECT_GT(png.distinct_colours, 10);
    EXPECT_GT(png.text_rows, 20);  // controls, buttons and the "nothing profiled yet" text
}

TEST(ProfilePanel, WithoutAGpuLiveIsOffAndSaysWhy) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    if (test::tclens_sees_gpu(kTclens)) GTEST_SKIP() << "skipped: this machine has a GPU";
    const auto png = profile_screenshot("");
    ASSERT_TRUE(png.loaded);
    // "no GPU: profiling needs one", 27 characters of glyph cores in the note colour.
    EXPECT_GT(test::count_pixels(png, gui::dark_theme().note), 100);
}

TEST(ProfilePanel, SettingsChangeTheView) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto first = profile_screenshot("");
    const auto other = profile_screenshot(
        "--set kernel=mma_cp_async.bf16 --set mnk=1024x1024x1024 "
        "--set set=timeline");
    ASSERT_TRUE(first.loaded && other.loaded);
    EXPECT_GT(test::differing_pixels(first, other), 500);
}

// "choose kernel(s)", from the shipped H200 recording: three chosen kernels add the side-by-side
// table (a row per metric) and the "cards of" choice above the focused kernel's cards.
TEST(ProfilePanel, SeveralKernelsFromARecordingAreComparedSideBySide) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const std::string open =
        "--open " + std::string(TCLENS_ASSETS_DIR) + "/recordings/h200.json.gz ";
    const auto one = profile_screenshot(open + "--set kernel=wgmma_tma.bf16");
    const auto three = profile_screenshot(
        open + "--set kernel=naive_fma.f32,wgmma_tma.bf16,cublas.bf16 --set focus=wgmma_tma.bf16");
    const auto focus_other = profile_screenshot(
        open + "--set kernel=naive_fma.f32,wgmma_tma.bf16,cublas.bf16 --set focus=cublas.bf16");
    ASSERT_TRUE(one.loaded && three.loaded && focus_other.loaded);
    EXPECT_GT(three.text_rows, one.text_rows + 15) << "no comparison table";
    EXPECT_GT(test::differing_pixels(three, focus_other), 500) << "the cards did not follow focus";
}

TEST(ProfilePanel, BadSettingIsUsageErrorBeforeAnyWindow) {
    for (const char* setting : {"kernel=fastest", "kernel=wmma.f16,fastest", "focus=fastest",
                                "mnk=4096x4096", "set=everything", "zoom=2"}) {
        SCOPED_TRACE(setting);
        const auto result = test::run_command(kTclens + " screenshot --view profile --set " +
                                              setting + " --out " + test::temp_path("never.png"));
        EXPECT_EQ(result.exit_code, 2);
        EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
        const std::string text = setting;
        const std::string key = text.substr(0, text.find('='));
        std::string value = text.substr(text.find('=') + 1);
        value = value.substr(value.find(',') + 1);  // the bad id of a list
        EXPECT_NE(result.err.find(key == "zoom" ? key : value), std::string::npos) << result.err;
    }
}

}  // namespace
}  // namespace tclens
