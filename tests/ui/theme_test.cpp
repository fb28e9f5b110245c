// Every view follows the lecture theme (app/gui/panels/panel.h: the panel base hands each panel
// the current theme): `tclens screenshot` renders each view under lecture.theme=dark and
// lecture.theme=high-contrast. Under dark the view paints the dark theme's canvas colours (its
// palette's background, fills, highlight; its bank hues; its error / ok / note text); under
// high contrast not one pixel of those colours may remain. A panel that builds a view with
// viz::dark_palette(), leaves a view's palette unset or hard-codes a status colour fails here.

#include "app/gui/views/theme.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <ostream>
#include <string>
#include <unordered_set>
#include <vector>

#include "tests/support/png_inspect.h"
#include "tests/support/run_command.h"
#include "tests/support/sample_recording.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

using test::kTclens;
constexpr int kThemeWidth = 1000;
constexpr int kThemeHeight = 640;
// Pixels of the dark theme's own colours a dark screenshot must hold, so that their absence
// under high contrast says something: a canvas, not a stray pixel.
constexpr int kMinThemePixels = 500;

// The views this test renders, with settings that bring out their canvases: the shipped
// recording for the views that show results (a bench, profiles, runs to compare), a pinned lane
// in Fragments (outlined in the palette's highlight), both of Compare's charts.
struct ThemedView {
    std::string name;  // the test's name
    std::string id;    // the view
    std::string settings;
    int height = kThemeHeight;  // the Kernels panel's chart sits below its results table
};
void PrintTo(const ThemedView& view, std::ostream* out) { *out << view.name; }

// The sample recording (with a source profile; the shipped one predates them), written once for
// the Source panel's heat cells and removed when the tests end.
struct SourceRecording {
    std::string path = test::temp_path("theme_source_recording.json");
    SourceRecording() { profiling::save_recording(path, test::sample_recording()); }
    ~SourceRecording() { std::remove(path.c_str()); }
};

const std::vector<ThemedView>& themed_views() {
    static const SourceRecording source_recording;
    static const std::string recording =
        "--open " + std::string(TCLENS_ASSETS_DIR) + "/recordings/h200.json.gz";
    static const std::string runs = " --set runs=wmma.f16@4096x4096x4096,cublas.f16@4096x4096x4096";
    static const std::vector<ThemedView> views = {
        {"device", "device", recording},
        {"fragments", "fragments", "--set lane=5"},
        {"banks", "banks", ""},
        {"tilemap", "tilemap", ""},
        {"kernels", "kernels", recording, 1100},
        {"profile", "profile", recording},
        {"source", "source", "--open " + source_recording.path + " --set kernel=mma_cp_async.f16"},
        {"timeline", "timeline",
         "--set open=" + std::string(TCLENS_TEST_DATA_DIR) + "/synthetic_trace_rung9.json"},
        {"compare_table", "compare", recording + runs + " --set view=table"},
        {"compare_roofline", "compare", recording + runs + " --set view=roofline"},
    };
    return views;
}

std::uint32_t key(viz::Rgba c) { return std::uint32_t(c.r) << 16 | std::uint32_t(c.g) << 8 | c.b; }

void add(std::unordered_set<std::uint32_t>& set, viz::Rgba c) { set.insert(key(c)); }

// Every colour a theme hands to panels.
std::unordered_set<std::uint32_t> theme_colours(const gui::Theme& theme) {
    std::unordered_set<std::uint32_t> colours;
    const viz::Palette& p = theme.palette;
    for (const viz::Rgba c : {p.background, p.text, p.grid, p.highlight}) add(colours, c);
    for (const viz::Rgba c : p.categories) add(colours, c);
    for (const viz::Rgba c : theme.banks.banks) add(colours, c);
    for (const viz::Rgba c : theme.banks.heat) add(colours, c);
    add(colours, theme.banks.idle);
    for (const viz::Rgba c : {theme.error, theme.ok, theme.note}) add(colours, c);
    return colours;
}

// The dark theme's colours that the high-contrast theme does not have and that no white-on-black
// blend makes (greys are left out: anti-aliased white text on black is every grey).
const std::unordered_set<std::uint32_t>& dark_only_colours() {
    static const std::unordered_set<std::uint32_t> colours = [] {
        const auto high_contrast = theme_colours(gui::high_contrast_theme());
        std::unordered_set<std::uint32_t> only;
        for (const std::uint32_t c : theme_colours(gui::dark_theme())) {
            const bool grey = (c >> 16 & 0xff) == (c >> 8 & 0xff) && (c >> 8 & 0xff) == (c & 0xff);
            if (!grey && high_contrast.count(c) == 0) only.insert(c);
        }
        return only;
    }();
    return colours;
}

int count_dark_only(const test::PngFacts& png) {
    int count = 0;
    for (std::size_t i = 0; i + 3 < png.rgba.size(); i += 4) {
        const std::uint32_t c = std::uint32_t(png.rgba[i]) << 16 |
                                std::uint32_t(png.rgba[i + 1]) << 8 | png.rgba[i + 2];
        count += dark_only_colours().count(c) > 0;
    }
    return count;
}

test::PngFacts shot(const ThemedView& view, const std::string& theme) {
    test::CommandResult result;
    test::PngFacts png =
        test::view_screenshot(kTclens, view.id, kThemeWidth, view.height,
                              view.settings + " --set lecture.theme=" + theme, result);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return png;
}

class ViewTheme : public testing::TestWithParam<ThemedView> {};

TEST_P(ViewTheme, HighContrastLeavesNoDarkCanvasColour) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto dark = shot(GetParam(), "dark");
    const auto high_contrast = shot(GetParam(), "high-contrast");
    ASSERT_TRUE(dark.loaded && high_contrast.loaded);
    EXPECT_GT(count_dark_only(dark), kMinThemePixels);
    EXPECT_EQ(count_dark_only(high_contrast), 0);
}

INSTANTIATE_TEST_SUITE_P(EveryView, ViewTheme, testing::ValuesIn(themed_views()),
                         [](const testing::TestParamInfo<ThemedView>& info) {
                             return info.param.name;
                         });

// The list above is every view the binary has: a new panel fails here until it is added.
TEST(ViewTheme, CoversEveryView) {
    const auto result = test::run_command(kTclens + " screenshot --view none --out " +
                                          test::temp_path("never.png"));
    const std::string marker = "views: ";
    const auto at = result.err.find(marker);
    ASSERT_NE(at, std::string::npos) << result.err;
    std::string listed;
    for (const ThemedView& view : themed_views()) {
        if (listed.find(view.id) == std::string::npos)
            listed += (listed.empty() ? "" : ", ") + view.id;
    }
    EXPECT_EQ(result.err.substr(at + marker.size()), listed + "\n");
}

}  // namespace
}  // namespace tclens
