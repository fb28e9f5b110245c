// The presentation layout (app/gui/views/presentation.h): every step of the shipped tour
// (assets/tour.json) in the real window at 1280x720 in lecture mode (`tclens --lecture`, stepped
// with --press right as a lecturer would), with the shipped recording open as the app opens it
// where there is no GPU (--open, so a machine with a GPU shows the same), read from the layout
// report (layout_report.h):
//   - the drawing's visible rectangle (where its window shows it) covers at least half of the
//     window, and the drawing fills it (at least 90 % of its width or height) without reaching
//     past it;
//   - no window or child window is cut (scrolls by more than 1 px) and no control's value is
//     wider than its frame;
//   - the smallest text the drawing paints (cell labels, axis labels, legends, its title lines)
//     is at least 14 px tall, in every step: where the whole drawing would be smaller, the step
//     shows a part (Fragments part=a, part=c, part=d warp=0; Tile map warp=0; Banks side=left,
//     side=right; Kernels precision=, one bar a rung).
// "The drawing" is the main view's largest painted drawing: the fragments, the tile map and the
// banks; for the Kernels step (a list of rungs and a table elsewhere) the throughput chart, alone
// and fitted to the pane; for the Timeline steps the warp timeline (its pane below the one line
// that names the window shown; the summary lines under the drawing are in that pane too); for the
// Profile step the PM sampling plot, fitted to the pane.
// The hover strip: the mouse on the strip at the top of the window brings the menu, the status
// bar and the controls back; moving it down onto the drawing folds them away again (`tclens
// --mouse`, the pointer moved as a mouse would).
// The last test shows that the check catches the old layout: with the presentation layout off
// (`--set lecture.presentation=off`: rail, menu, controls, the large caption banner) the first
// step's drawing gets less than half of the window.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"

namespace tclens::presentation_test {  // a unity build joins the ui tests' files
namespace {

using nlohmann::json;
using test::kTclens;

constexpr int kSteps = 10;  // assets/tour.json
constexpr float kSlack = 1.0f;
constexpr double kLeastCoverage = 0.5;
constexpr float kLeastLabelPixels = 14.0f;

struct Box {
    double x = 0, y = 0, w = 0, h = 0;
};
Box box(const json& r) {
    return {r.at(0).get<double>(), r.at(1).get<double>(), r.at(2).get<double>(),
            r.at(3).get<double>()};
}

// The view of step `step` of the shipped tour ("fragments", "kernels" ...).
std::string step_view(int step) {
    std::ifstream file(std::string(TCLENS_ASSETS_DIR) + "/tour.json");
    const json tour = json::parse(file, nullptr, false);
    if (tour.is_discarded() || int(tour["steps"].size()) < step) return "";
    return tour["steps"][size_t(step - 1)]["view"];
}

// The layout report of the real window at 1280x720, in lecture mode at the tour's step `step`.
json lecture_step_layout(int step, const std::string& extra = "") {
    std::string keys;
    for (int i = 1; i < step; ++i) keys += std::string(keys.empty() ? "" : ",") + "right";
    const std::string path = test::temp_path("presentation_" + std::to_string(step) + ".json");
    std::filesystem::remove(path);
    // Presses begin at frame 3, one every 2 frames; then the caption and the fit settle.
    const int frames = 3 + 2 * step + 16;
    const auto result = test::run_under_xvfb(
        kTclens + " --lecture --frames " + std::to_string(frames) + " --open " +
            std::string(TCLENS_ASSETS_DIR) + "/recordings/h200.json.gz" +
            (keys.empty() ? "" : " --press " + keys) + " --layout-json " + path + " " + extra,
        "1280x720");
    EXPECT_EQ(result.exit_code, 0) << result.err;
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    std::filesystem::remove(path);
    return text.str().empty() ? json::object() : json::parse(text.str(), nullptr, false);
}

// The roles of the windows the shell drew in the last frame of the first step, the mouse moved
// to each of `moves` ("640:2,640:650") in turn.
std::set<std::string> window_roles_after(const std::string& moves) {
    const std::string path = test::temp_path("presentation_hover.json");
    std::filesystem::remove(path);
    const int count = int(std::count(moves.begin(), moves.end(), ',')) + 1;
    const auto result =
        test::run_under_xvfb(kTclens + " --lecture --frames " + std::to_string(3 + 2 * count + 12) +
                                 " --mouse " + moves + " --layout-json " + path,
                             "1280x720");
    EXPECT_EQ(result.exit_code, 0) << result.err;
    std::ifstream file(path);
    const json layout = json::parse(file, nullptr, false);
    std::filesystem::remove(path);
    std::set<std::string> roles;
    if (layout.is_discarded()) return roles;
    for (const json& window : layout.value("windows", json::array())) roles.insert(window["role"]);
    return roles;
}

// The main view's largest drawing, or null.
json main_drawing(const json& layout) {
    std::string main;
    for (const json& window : layout.value("windows", json::array())) {
        if (window.at("role") == "main") main = window.at("name");
    }
    json largest;
    double largest_area = 0;
    for (const json& view : layout.value("views", json::array())) {
        const std::string window = view.at("window");
        if (main.empty() || (window != main && window.rfind(main + "/", 0) != 0)) continue;
        const Box visible = box(view.at("visible"));
        if (visible.w * visible.h > largest_area) {
            largest_area = visible.w * visible.h;
            largest = view;
        }
    }
    return largest;
}

// The share of the display the drawing's visible rectangle covers.
double coverage(const json& layout, const json& drawing) {
    const double width = layout["display"]["width"], height = layout["display"]["height"];
    const Box v = box(drawing.at("visible"));
    const double w = std::min(v.x + v.w, width) - std::max(v.x, 0.0);
    const double h = std::min(v.y + v.h, height) - std::max(v.y, 0.0);
    return w > 0 && h > 0 ? w * h / (width * height) : 0.0;
}

// "" when no window, child window or value is cut; else what is.
std::string cut_controls(const json& layout) {
    std::string cut;
    for (const json& window : layout.value("windows", json::array())) {
        if (window["cut"][0].get<float>() > kSlack || window["cut"][1].get<float>() > kSlack) {
            cut += window["name"].get<std::string>() + " scrolls by " + window["cut"].dump() + "; ";
        }
        for (const json& child : window["children"]) {
            if (child["cut"][0].get<float>() > kSlack || child["cut"][1].get<float>() > kSlack) {
                cut +=
                    child["name"].get<std::string>() + " scrolls by " + child["cut"].dump() + "; ";
            }
        }
    }
    for (const json& value : layout.value("values", json::array())) {
        if (value["needed"].get<float>() > value["frame"][2].get<float>() + kSlack) {
            cut += "'" + value["text"].get<std::string>() + "' needs " + value["needed"].dump() +
                   " px in a frame of " + value["frame"][2].dump() + "; ";
        }
    }
    return cut;
}

class PresentationStep : public ::testing::TestWithParam<int> {};

TEST_P(PresentationStep, TheDrawingGetsHalfTheScreenAndNothingIsCut) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const int step = GetParam();
    const json layout = lecture_step_layout(step);
    ASSERT_TRUE(layout.contains("views")) << layout.dump();
    EXPECT_EQ(layout["workspace"]["view"], step_view(step));
    const json drawing = main_drawing(layout);
    ASSERT_FALSE(drawing.is_null()) << "no drawing in the main view:\n" << layout.dump(1);
    const double share = coverage(layout, drawing);
    const Box d = box(drawing["drawn"]), v = box(drawing["visible"]);
    const float label = drawing["text_pixels"];
    // The numbers the report quotes.
    std::printf(
        "step %d (%s): the drawing's visible rectangle covers %.1f %% of 1280x720; "
        "drawn %.0f x %.0f in %.0f x %.0f; smallest text %.2f px\n",
        step, step_view(step).c_str(), 100 * share, d.w, d.h, v.w, v.h, label);
    EXPECT_GE(share, kLeastCoverage) << layout.dump(1);
    EXPECT_TRUE(d.w > 0.9 * v.w || d.h > 0.9 * v.h)
        << "the drawing, " << d.w << " x " << d.h << ", does not fill its " << v.w << " x " << v.h;
    EXPECT_TRUE(d.x >= v.x - kSlack && d.y >= v.y - kSlack && d.x + d.w <= v.x + v.w + kSlack &&
                d.y + d.h <= v.y + v.h + kSlack)
        << "the drawing reaches past what its window shows: " << drawing.dump();
    EXPECT_EQ(cut_controls(layout), "") << layout.dump(1);
    EXPECT_GE(label, kLeastLabelPixels) << "the drawing's text is too small for a hall";
}

INSTANTIATE_TEST_SUITE_P(ShippedTourAt1280x720, PresentationStep, ::testing::Range(1, kSteps + 1),
                         [](const ::testing::TestParamInfo<int>& info) {
                             return "Step" + std::to_string(info.param);
                         });

TEST(Presentation, HoveringTheTopStripRevealsTheControlsAndLeavingFoldsThemAgain) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const std::set<std::string> on_strip = window_roles_after("640:2");
    EXPECT_TRUE(on_strip.count("menu") && on_strip.count("status"))
        << "on the strip: " << testing::PrintToString(on_strip);
    const std::set<std::string> left = window_roles_after("640:2,640:650");
    EXPECT_TRUE(left.count("main")) << testing::PrintToString(left);
    EXPECT_FALSE(left.count("menu") || left.count("status"))
        << "after leaving: " << testing::PrintToString(left);
}

TEST(Presentation, ABadMousePositionIsOneLineNamingIt) {
    const auto result = test::run_command(kTclens + " --mouse 640,2 --frames 1");
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_NE(result.err.find("--mouse: '640': allowed: X:Y"), std::string::npos) << result.err;
}

TEST(Presentation, WithoutItTheFirstStepsDrawingGetsLessThanHalfTheScreen) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const json layout = lecture_step_layout(1, "--set lecture.presentation=off");
    ASSERT_TRUE(layout.contains("views")) << layout.dump();
    const json drawing = main_drawing(layout);
    ASSERT_FALSE(drawing.is_null()) << layout.dump(1);
    const double share = coverage(layout, drawing);
    std::printf("step 1 without the presentation layout: %.1f %% of 1280x720, text %.2f px\n",
                100 * share, drawing["text_pixels"].get<float>());
    EXPECT_LT(share, kLeastCoverage) << layout.dump(1);
    EXPECT_LT(drawing["text_pixels"].get<float>(), kLeastLabelPixels);
}

}  // namespace
}  // namespace tclens::presentation_test
