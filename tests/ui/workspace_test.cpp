// The workspace in the real window under Xvfb (app/gui/shell/workspace.h, shell_frame.h), read
// from the layout report the app writes on exit (`--layout-json`, layout_report.h): at 1280x720,
// 1920x1080 and 3840x2160 the window fills the screen, no two windows overlap at start and the
// chosen view fills the main area; a split of each pair people use shows both views with nothing
// cut off; the arrangement is written to the settings file and read back at the next start;
// every view is reachable with Ctrl+number, the split keys work, and a tour's keys step through
// the same input path (`--press`: GLFW key events); `tclens screenshot --window` draws the whole
// app. The arrangement rules themselves are unit-tested in tests/unit/app/gui/shell/.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/support/png_inspect.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

using nlohmann::json;

using test::kTclens;
const std::vector<std::string> kScreens = {"1280x720", "1920x1080", "3840x2160"};
// The views in rail order: Ctrl+1 .. Ctrl+9.
const std::vector<std::string> kViews = {"device",  "fragments", "banks",    "tilemap", "kernels",
                                         "profile", "source",    "timeline", "compare"};
const std::vector<std::pair<std::string, std::string>> kPairs = {
    {"fragments", "banks"}, {"kernels", "profile"}, {"tilemap", "kernels"}, {"compare", "profile"}};

struct Rect {
    double x = 0, y = 0, width = 0, height = 0;
    double right() const { return x + width; }
    double bottom() const { return y + height; }
};

Rect rect_of(const json& value) {
    return {value.at(0).get<double>(), value.at(1).get<double>(), value.at(2).get<double>(),
            value.at(3).get<double>()};
}

double overlap_area(const Rect& a, const Rect& b) {
    const double w = std::min(a.right(), b.right()) - std::max(a.x, b.x);
    const double h = std::min(a.bottom(), b.bottom()) - std::max(a.y, b.y);
    return w > 0 && h > 0 ? w * h : 0;
}

std::string read_file(const std::string& path) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

// Runs the GUI on a screen of `screen` pixels for `frames` frames with `arguments` and returns its
// layout report; `prefix` goes before the binary (e.g. "env XDG_CONFIG_HOME=...").
json gui_layout(const std::string& screen, const std::string& arguments, int frames = 8,
                const std::string& prefix = "") {
    const std::string path = test::temp_path("layout.json");
    std::filesystem::remove(path);
    const auto result =
        test::run_under_xvfb(prefix + kTclens + " --frames " + std::to_string(frames) + " " +
                                 arguments + " --layout-json " + path,
                             screen);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err, "");
    const std::string text = read_file(path);
    std::filesystem::remove(path);
    if (text.empty()) return json::object();
    return json::parse(text);
}

// The window of `role` ("main", "second", ...), or an empty object.
json window_of(const json& layout, const std::string& role) {
    for (const json& window : layout.value("windows", json::array())) {
        if (window.at("role") == role) return window;
    }
    return json::object();
}

// What every start must show: the windows cover the screen edge to edge without overlapping,
// the main pane's window is the main area, and nothing in the panes is cut off. With a caption
// banner, the panes end above it, `banner` pixels or more above the status bar.
void expect_arranged(const json& layout, const std::string& screen, double banner = 0) {
    ASSERT_TRUE(layout.contains("windows")) << layout.dump();
    const auto x = screen.find('x');
    const double width = std::stod(screen.substr(0, x)), height = std::stod(screen.substr(x + 1));
    EXPECT_EQ(layout["display"]["width"].get<double>(), width);
    EXPECT_EQ(layout["display"]["height"].get<double>(), height);
    const json& windows = layout["windows"];
    for (size_t i = 0; i < windows.size(); ++i) {
        for (size_t j = i + 1; j < windows.size(); ++j) {
            EXPECT_EQ(overlap_area(rect_of(windows[i]["rect"]), rect_of(windows[j]["rect"])), 0)
                << windows[i]["name"] << " overlaps " << windows[j]["name"];
        }
    }
    const Rect menu = rect_of(window_of(layout, "menu")["rect"]);
    const Rect rail = rect_of(window_of(layout, "rail")["rect"]);
    const Rect status = rect_of(window_of(layout, "status")["rect"]);
    const Rect main_area = rect_of(layout["areas"]["main"]);
    const Rect second_area = rect_of(layout["areas"]["second"]);
    const Rect divider = rect_of(layout["areas"]["divider"]);
    EXPECT_EQ(menu.y, 0);
    EXPECT_EQ(menu.width, width);
    EXPECT_EQ(rail.x, 0);
    EXPECT_EQ(rail.y, menu.bottom());
    EXPECT_EQ(status.bottom(), height);
    EXPECT_EQ(status.width, width);
    // The panes and the divider fill the rest: right of the rail, between menu and status bar.
    EXPECT_EQ(main_area.x, rail.right());
    EXPECT_EQ(main_area.y, menu.bottom());
    const double right = std::max({main_area.right(), second_area.right(), divider.right()});
    const double bottom = std::max({main_area.bottom(), second_area.bottom(), divider.bottom()});
    EXPECT_EQ(right, width);
    if (banner > 0) {
        EXPECT_GE(status.y - bottom, banner);
    } else {
        EXPECT_EQ(bottom, status.y);
    }
    EXPECT_EQ(rail.bottom(), bottom);
    EXPECT_EQ(main_area.width * main_area.height + divider.width * divider.height +
                  second_area.width * second_area.height,
              (width - rail.right()) * (bottom - menu.bottom()));
    for (const std::string role : {"main", "second"}) {
        const json window = window_of(layout, role);
        if (window.empty()) continue;
        SCOPED_TRACE(role + " " + window["name"].get<std::string>());
        const Rect area = rect_of(layout["areas"][role]);
        const Rect shown = rect_of(window["rect"]);
        EXPECT_EQ(shown.x, area.x);
        EXPECT_EQ(shown.y, area.y);
        EXPECT_EQ(shown.width, area.width);
        EXPECT_EQ(shown.height, area.height);
        EXPECT_EQ(window["cut"][0].get<double>(), 0) << "cut off at the right";
        EXPECT_EQ(window["cut"][1].get<double>(), 0) << "cut off at the bottom";
    }
}

class AtScreen : public testing::TestWithParam<std::string> {};

TEST_P(AtScreen, NoWindowsOverlapAtStartAndTheViewFillsTheMainArea) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const json layout = gui_layout(GetParam(), "");
    expect_arranged(layout, GetParam());
    EXPECT_EQ(layout["workspace"]["view"], "fragments");
    EXPECT_EQ(layout["workspace"]["split"], "off");
    EXPECT_EQ(window_of(layout, "main")["name"], "Fragments");
    EXPECT_TRUE(window_of(layout, "second").empty());
    EXPECT_TRUE(window_of(layout, "floating").empty());
}

TEST_P(AtScreen, ASplitShowsBothViewsOfEachPairWhole) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    for (const auto& [first, second] : kPairs) {
        for (const std::string where : {"beside", "below"}) {
            SCOPED_TRACE(first + " + " + second + " " + where);
            const json layout =
                gui_layout(GetParam(), "--set workspace.view=" + first +
                                           " --set workspace.split=" + second + "," + where);
            expect_arranged(layout, GetParam());
            const Rect main = rect_of(window_of(layout, "main")["rect"]);
            const Rect other = rect_of(window_of(layout, "second")["rect"]);
            EXPECT_GT(main.width * main.height, 0);
            EXPECT_GT(other.width * other.height, 0);
            EXPECT_FALSE(window_of(layout, "divider").empty());
            // Asked beside, they are beside each other from 1920 on; at 1280 pairs too wide
            // for that go below each other (TooNarrowForTwoBesideTheyGoBelowEachOther).
            if (where == "below") {
                EXPECT_GT(other.y, main.y);
            } else if (GetParam() != "1280x720") {
                EXPECT_GT(other.x, main.x);
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Workspace, AtScreen, testing::ValuesIn(kScreens),
                         [](const testing::TestParamInfo<std::string>& info) {
                             return "Screen" + info.param;
                         });

TEST(Workspace, TooNarrowForTwoBesideTheyGoBelowEachOther) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    // Fragments and Banks each need about 750 pixels: at 1280 not both beside, at 1920 they fit.
    const json narrow = gui_layout("1280x720", "--set workspace.split=banks,beside");
    EXPECT_EQ(narrow["workspace"]["split"], "banks,beside");  // what was asked stays remembered
    EXPECT_GT(rect_of(window_of(narrow, "second")["rect"]).y,
              rect_of(window_of(narrow, "main")["rect"]).y);
    const json wide = gui_layout("1920x1080", "--set workspace.split=banks,beside");
    EXPECT_GT(rect_of(window_of(wide, "second")["rect"]).x,
              rect_of(window_of(wide, "main")["rect"]).x);
}

TEST(Workspace, LayoutSurvivesARestartThroughTheSettingsFile) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const std::filesystem::path config = test::temp_path("restart_config");
    std::filesystem::remove_all(config);
    const std::string env = "env XDG_CONFIG_HOME=" + config.string() + " ";
    const json first =
        gui_layout("1920x1080",
                   "--set workspace.view=kernels --set workspace.split=profile,below "
                   "--set workspace.ratio=0.35 --set workspace.floating=device",
                   8, env);
    const std::string ini = read_file((config / "tclens" / "imgui.ini").string());
    EXPECT_NE(ini.find("[tclens][workspace]\nview=kernels\nsplit=profile,below\nratio=0.350\n"
                       "floating=device\nwindow=none\n"),
              std::string::npos)
        << ini;
    // Started again with no settings: the same arrangement, the same rectangles.
    const json second = gui_layout("1920x1080", "", 8, env);
    EXPECT_EQ(second["workspace"], first["workspace"]);
    EXPECT_EQ(second["areas"], first["areas"]);
    EXPECT_EQ(window_of(second, "main")["name"], "Kernels");
    EXPECT_EQ(window_of(second, "second")["name"], "Profile");
    EXPECT_EQ(window_of(second, "floating")["name"], "Device");
    const Rect main = rect_of(second["areas"]["main"]), below = rect_of(second["areas"]["second"]);
    EXPECT_NEAR(main.height / (main.height + below.height), 0.35, 0.01);
    // A window size remembered in the file is the size the next start opens at (centred).
    std::string resized = ini;
    resized.replace(resized.find("window=none"), 11, "window=1000x700");
    std::ofstream(config / "tclens" / "imgui.ini") << resized;
    const json smaller = gui_layout("1920x1080", "", 8, env);
    EXPECT_EQ(smaller["display"]["width"], 1000);
    EXPECT_EQ(smaller["display"]["height"], 700);
    std::filesystem::remove_all(config);
}

TEST(Workspace, CtrlNumberReachesEveryViewWithoutTheMouse) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    for (size_t i = 0; i < kViews.size(); ++i) {
        SCOPED_TRACE(kViews[i]);
        // From another view, so the key has something to change.
        const json layout = gui_layout("1280x720",
                                       "--set workspace.view=" + kViews[(i + 1) % kViews.size()] +
                                           " --press ctrl+" + std::to_string(i + 1),
                                       10);
        EXPECT_EQ(layout["workspace"]["view"], kViews[i]);
        expect_arranged(layout, "1280x720");
    }
}

TEST(Workspace, SplitKeysSplitFlipAndPickTheSecondView) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    // Ctrl+5 Kernels, Ctrl+\ its partner Profile beside it.
    json layout = gui_layout("1920x1080", "--press ctrl+5,ctrl+backslash", 12);
    EXPECT_EQ(layout["workspace"]["view"], "kernels");
    EXPECT_EQ(layout["workspace"]["split"], "profile,beside");
    expect_arranged(layout, "1920x1080");
    // Ctrl+Shift+\ below; Ctrl+Shift+4 Tile map as the second view; Ctrl+\ off again.
    layout = gui_layout("1920x1080", "--press ctrl+5,ctrl+backslash,ctrl+shift+backslash", 14);
    EXPECT_EQ(layout["workspace"]["split"], "profile,below");
    layout = gui_layout("1920x1080", "--press ctrl+5,ctrl+shift+4", 12);
    EXPECT_EQ(layout["workspace"]["split"], "tilemap,beside");
    layout = gui_layout("1920x1080", "--press ctrl+5,ctrl+shift+4,ctrl+backslash", 14);
    EXPECT_EQ(layout["workspace"]["split"], "off");
    EXPECT_TRUE(window_of(layout, "second").empty());
}

TEST(Workspace, TourKeysPickEachStepsViewAndSplitAndEscPutsTheWorkspaceBack) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const std::string tour = test::temp_path("workspace_tour.json");
    std::ofstream(tour) << R"({"schema_version": 1, "steps": [
        {"view": "device", "caption": "The GPU."},
        {"view": "kernels", "split": "profile,below", "caption": "The ladder and its metrics."}]})";
    // Right: step 2, its view with Profile below, above the caption banner.
    json layout = gui_layout("1920x1080", "--tour " + tour + " --press right", 12);
    EXPECT_EQ(layout["workspace"]["view"], "kernels");
    EXPECT_EQ(layout["workspace"]["split"], "profile,below");
    expect_arranged(layout, "1920x1080", 20);  // room for the banner
    // Esc leaves: the workspace as it was before (Fragments alone), the whole height again.
    layout = gui_layout("1920x1080", "--tour " + tour + " --press right,escape", 14);
    EXPECT_EQ(layout["workspace"]["view"], "fragments");
    EXPECT_EQ(layout["workspace"]["split"], "off");
    expect_arranged(layout, "1920x1080");
    std::filesystem::remove(tour);
}

// Lecture mode's presentation layout (app/gui/views/presentation.h): no rail, menu bar or status
// bar; the panes, zoomed, fill the window from its top-left corner, less the caption's band
// below or column at the right. With the presentation layout off, lecture mode keeps the
// arrangement, zoomed, with the caption banner below the panes.
TEST(Workspace, LectureModeKeepsItFullScreenZoomedWithTheBannerBelow) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const std::string tour = test::temp_path("lecture_tour.json");
    std::ofstream(tour) << R"({"schema_version": 1, "steps": [
        {"view": "compare", "split": "profile,beside", "caption": "Two runs side by side."}]})";
    const json plain = gui_layout("1920x1080", "--set workspace.view=compare");
    const json presented = gui_layout("1920x1080", "--lecture --tour " + tour, 12);
    const json lecture =
        gui_layout("1920x1080", "--lecture --set lecture.presentation=off --tour " + tour, 12);
    std::filesystem::remove(tour);

    ASSERT_TRUE(presented.contains("windows")) << presented.dump();
    EXPECT_EQ(presented["workspace"]["split"], "profile,beside");
    for (const std::string role : {"rail", "menu", "status"}) {
        EXPECT_TRUE(window_of(presented, role).empty()) << role << " shown:\n" << presented.dump(1);
    }
    const Rect main_area = rect_of(presented["areas"]["main"]);
    const Rect second_area = rect_of(presented["areas"]["second"]);
    EXPECT_EQ(rect_of(presented["areas"]["rail"]).width, 0);
    EXPECT_EQ(main_area.x, 0);
    EXPECT_EQ(main_area.y, 0);
    // The caption takes a band below the panes or a column right of them, not both.
    const double right = std::max(main_area.right(), second_area.right());
    const double bottom = std::max(main_area.bottom(), second_area.bottom());
    const bool band = bottom < 1080, column = right < 1920;
    EXPECT_NE(band, column) << presented.dump(1);
    for (const std::string role : {"main", "second"}) {
        const json window = window_of(presented, role);
        ASSERT_FALSE(window.empty()) << role;
        const Rect shown = rect_of(window["rect"]), area = rect_of(presented["areas"][role]);
        EXPECT_EQ(shown.x, area.x);
        EXPECT_EQ(shown.width, area.width);
        EXPECT_EQ(shown.height, area.height);
    }
    EXPECT_GT(presented["display"]["font_pixels"].get<double>(),
              plain["display"]["font_pixels"].get<double>() * 1.3);

    expect_arranged(lecture, "1920x1080", 30);
    EXPECT_EQ(lecture["workspace"]["split"], "profile,beside");
    // Zoomed: the rail and the menu bar grow with the text.
    EXPECT_GT(rect_of(window_of(lecture, "rail")["rect"]).width,
              rect_of(window_of(plain, "rail")["rect"]).width * 1.3);
    EXPECT_GT(rect_of(window_of(lecture, "menu")["rect"]).height,
              rect_of(window_of(plain, "menu")["rect"]).height * 1.3);
}

TEST(Workspace, BadPressOrWorkspaceSettingIsAOneLineUsageError) {
    for (const std::string arguments :
         {"--press ctrl+f13", "--press ctrl+", "--set workspace.view=tiles",
          "--set workspace.split=banks,left", "--set workspace.ratio=0.9",
          "--set workspace.size=2"}) {
        SCOPED_TRACE(arguments);
        const auto result = test::run_command(kTclens + " --frames 1 " + arguments);
        EXPECT_EQ(result.exit_code, 2);
        EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    }
    const auto result = test::run_command(kTclens + " --frames 1 --set workspace.ratio=0.9");
    EXPECT_NE(result.err.find("ratio='0.9': allowed: 0.2..0.8"), std::string::npos) << result.err;
    // (`screenshot --view V --layout-json F` is no longer an error: the tour-fit tests
    // read the rectangles of one view's screenshot.)
}

TEST(Workspace, ScreenshotWindowDrawsTheWholeApp) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const std::string png_path = test::temp_path("window.png");
    const std::string json_path = test::temp_path("window.json");
    const auto result =
        test::run_under_xvfb(kTclens +
                             " screenshot --window --size 1600x900 --set workspace.view=kernels "
                             "--set workspace.split=profile,beside --out " +
                             png_path + " --layout-json " + json_path);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    const test::PngFacts png = test::inspect_png(png_path);
    const std::string text = read_file(json_path);
    std::filesystem::remove(png_path);
    std::filesystem::remove(json_path);
    ASSERT_TRUE(png.loaded);
    EXPECT_EQ(png.width, 1600);
    EXPECT_EQ(png.height, 900);
    ASSERT_FALSE(text.empty());
    const json layout = json::parse(text);
    expect_arranged(layout, "1600x900");
    EXPECT_EQ(window_of(layout, "main")["name"], "Kernels");
    EXPECT_EQ(window_of(layout, "second")["name"], "Profile");
    // Text in the rail (the view names), in the menu bar and in both panes.
    const auto text_rows_in = [&](const Rect& r) {
        int rows = 0;
        for (int y = int(r.y); y < int(r.bottom()); ++y) {
            bool any = false;
            for (int x = int(r.x); x < int(r.right()) && !any; ++x) {
                const std::uint8_t* p = &png.rgba[(size_t(y) * png.width + x) * 4];
                any = p[0] > 200 && p[1] > 200 && p[2] > 200;
            }
            rows += any;
        }
        return rows;
    };
    EXPECT_GE(text_rows_in(rect_of(window_of(layout, "rail")["rect"])), 7 * 6);  // 7 names
    EXPECT_GE(text_rows_in(rect_of(window_of(layout, "menu")["rect"])), 6);
    EXPECT_GE(text_rows_in(rect_of(window_of(layout, "main")["rect"])), 30);
    EXPECT_GE(text_rows_in(rect_of(window_of(layout, "second")["rect"])), 30);
}

TEST(Workspace, ScreenshotWindowWaitsForThePanesToSettle) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    // Tile map (of a persistent rung: its row holds the SMs too) and Kernels do not fit beside
    // each other at 1280: the image shows them below each other with nothing cut off, although
    // --frames asks for the fewest frames.
    const std::string png_path = test::temp_path("settle.png");
    const std::string json_path = test::temp_path("settle.json");
    const auto result = test::run_under_xvfb(
        kTclens +
        " screenshot --window --size 1280x720 --frames 2 --set workspace.view=tilemap "
        "--set workspace.split=kernels,beside --set tilemap.kernel=wgmma_persistent.f16 --out " +
        png_path + " --layout-json " + json_path);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    const std::string text = read_file(json_path);
    std::filesystem::remove(png_path);
    std::filesystem::remove(json_path);
    ASSERT_FALSE(text.empty());
    const json layout = json::parse(text);
    expect_arranged(layout, "1280x720");
    EXPECT_GT(rect_of(window_of(layout, "second")["rect"]).y,
              rect_of(window_of(layout, "main")["rect"]).y);
}

}  // namespace
}  // namespace tclens
