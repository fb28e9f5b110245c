// Lecture view that fits: every step of the shipped tour, in lecture mode's look (150 %,
// high contrast) at 1920x1080 and at 1280x720, shows all of its view above the caption banner:
// the view's window needs no scrolling, and in the steps that draw a picture (Fragments, Tile map,
// Banks: steps 1-6, which ask for "zoom=fit", view_zoom.h) the drawing lies inside what its window
// shows and fills it. (The Kernels and Profile steps are lists and cards that may scroll down
// inside their panes; for them the view's window must not be cut and no pane may run off to the
// side.) The last test shows that the check catches a cut: without fit the first step does not
// fit at 1280x720.
// `tclens screenshot --tour-step N --layout-json F` reports the rectangles (layout_report.h); it
// draws the step as the app shows it: the shipped recording open where there is no GPU, and with
// --lecture the controls folded away (the presentation layout, app/gui/views/presentation.h; the
// whole window in it: tests/ui/presentation_test.cpp).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <tuple>

#include "tests/support/png_inspect.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

namespace fs = std::filesystem;

using test::kTclens;
constexpr int kSteps = 10;        // assets/tour.json
constexpr int kPictureSteps = 6;  // steps 1-6 draw a picture (zoom=fit)
constexpr float kSlack = 1.0f;

struct Shot {
    test::CommandResult result;
    test::PngFacts png;
    nlohmann::json layout;
};

Shot tour_step(int step, const std::string& size, const std::string& extra = "") {
    const std::string name = "tour_step_" + std::to_string(step) + "_" + size;
    const std::string png = test::temp_path(name + ".png");
    const std::string json = test::temp_path(name + ".json");
    Shot shot;
    shot.result = test::run_under_xvfb(kTclens + " screenshot --lecture --tour-step " +
                                       std::to_string(step) + " --size " + size + " --out " + png +
                                       " --layout-json " + json + " " + extra);
    shot.png = test::inspect_png(png);
    std::ifstream in(json);
    if (in) shot.layout = nlohmann::json::parse(in, nullptr, false);
    fs::remove(png);
    fs::remove(json);
    return shot;
}

// "" when nothing of the view is cut, else what is: its window, and with `drawings` each drawing.
std::string cut_parts(const nlohmann::json& layout, bool drawings) {
    std::string cut;
    if (!layout.is_object() || layout["windows"].size() != 1) return "no layout report";
    const nlohmann::json& window = layout["windows"][0];
    const float cut_x = window["cut"][0], cut_y = window["cut"][1];
    if (cut_x > kSlack || cut_y > kSlack) {
        cut += "the view's window scrolls by " + std::to_string(cut_x) + " x " +
               std::to_string(cut_y) + "; ";
    }
    // Its panes: nothing runs off the side; in a picture step nothing runs off the bottom either.
    for (const nlohmann::json& child : window["children"]) {
        const float child_x = child["cut"][0], child_y = child["cut"][1];
        if (child_x > kSlack || (drawings && child_y > kSlack)) {
            cut += std::string(child["name"]) + " scrolls by " + std::to_string(child_x) + " x " +
                   std::to_string(child_y) + "; ";
        }
    }
    for (const nlohmann::json& view : drawings ? layout["views"] : nlohmann::json::array()) {
        const float x = view["drawn"][0], y = view["drawn"][1];
        const float w = view["drawn"][2], h = view["drawn"][3];
        const float vx = view["visible"][0], vy = view["visible"][1];
        const float vw = view["visible"][2], vh = view["visible"][3];
        if (x < vx - kSlack || y < vy - kSlack || x + w > vx + vw + kSlack ||
            y + h > vy + vh + kSlack) {
            cut += "a drawing in " + std::string(view["window"]) + " reaches " +
                   std::to_string(x + w - (vx + vw)) + " px past the right, " +
                   std::to_string(y + h - (vy + vh)) + " px past the bottom; ";
        }
    }
    return cut;
}

class TourStepFits : public ::testing::TestWithParam<std::tuple<int, std::string>> {};

TEST_P(TourStepFits, NothingOfTheViewIsCut) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto [step, size] = GetParam();
    const Shot shot = tour_step(step, size);
    ASSERT_EQ(shot.result.exit_code, 0) << shot.result.err;
    ASSERT_TRUE(shot.png.loaded);
    EXPECT_EQ(std::to_string(shot.png.width) + "x" + std::to_string(shot.png.height), size);
    const bool picture = step <= kPictureSteps;
    EXPECT_EQ(cut_parts(shot.layout, picture), "") << shot.layout.dump(1);
    if (picture) {  // the picture is there and fills its space
        ASSERT_FALSE(shot.layout["views"].empty()) << shot.layout.dump(1);
        const nlohmann::json& view = shot.layout["views"][0];
        const float w = view["drawn"][2], h = view["drawn"][3];
        const float vw = view["visible"][2], vh = view["visible"][3];
        EXPECT_TRUE(w > 0.9f * vw || h > 0.9f * vh)
            << "the drawing, " << w << " x " << h << ", does not fill its " << vw << " x " << vh;
    }
}

std::string step_name(const ::testing::TestParamInfo<TourStepFits::ParamType>& info) {
    return "Step" + std::to_string(std::get<0>(info.param)) + "At" + std::get<1>(info.param);
}

INSTANTIATE_TEST_SUITE_P(ShippedTour, TourStepFits,
                         ::testing::Combine(::testing::Range(1, kSteps + 1),
                                            ::testing::Values(std::string("1920x1080"),
                                                              std::string("1280x720"))),
                         step_name);

TEST(TourFit, WithoutFitTheFirstStepIsCutAt1280x720) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    // zoom=2 after the step's own zoom=fit: the m16n8k16 drawing at 2 x 150 % runs off the view.
    const Shot shot = tour_step(1, "1280x720", "--set zoom=2");
    ASSERT_EQ(shot.result.exit_code, 0) << shot.result.err;
    EXPECT_NE(cut_parts(shot.layout, true), "") << shot.layout.dump(1);
}

}  // namespace
}  // namespace tclens
