// Controls show their values whole at any zoom (app/gui/views/item_width.h): at lecture mode's
// largest zoom (300 %) on a 1280x720 projector, every value a view's fields, combos and number
// steppers show ("4096", "mma_cp_async.f16", "wgmma.m64n16k16.f16" ...) fits its frame, and the
// Kernels ladder's rung titles fit their column (cut with "...", never under the precision). The
// layout report lists each value with its frame and the width it needs (layout_report.h). The F1
// window wraps its lines there instead of cutting them.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

using test::kTclens;
constexpr float kValueSlack = 1.0f;  // pixels: rounding of the frame's width

struct ValueFitCase {
    const char* view;
    const char* settings;  // chosen so the longest values show
};

const ValueFitCase kCases[] = {
    {"fragments", "--set layout=wgmma.m64n16k16.f16"},
    {"banks", "--set pattern=ldmatrix.x4 --set rows=1024 --set row_bytes=1024"},
    {"tilemap", "--set kernel=mma_cp_async.f16 --set m=16384 --set n=4096 --set k=4096"},
    {"kernels", ""},
    {"profile", ""},
    {"source", ""},
    {"timeline", ""},
};

// The layout report of `view` alone at 1280x720 and zoom 300 %.
nlohmann::json value_report(const ValueFitCase& c, test::CommandResult& result) {
    const std::string png = test::temp_path(std::string("fit_") + c.view + ".png");
    const std::string json = test::temp_path(std::string("fit_") + c.view + ".json");
    result = test::run_under_xvfb(kTclens + " screenshot --view " + c.view +
                                  " --size 1280x720 --set lecture.zoom=300 " + c.settings +
                                  " --out " + png + " --layout-json " + json);
    std::ifstream in(json);
    nlohmann::json layout = in ? nlohmann::json::parse(in, nullptr, false) : nlohmann::json();
    std::filesystem::remove(png);
    std::filesystem::remove(json);
    return layout;
}

TEST(ValueFit, AtZoom300EveryValueFitsItsControl) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    for (const ValueFitCase& c : kCases) {
        test::CommandResult result;
        const nlohmann::json layout = value_report(c, result);
        ASSERT_EQ(result.exit_code, 0) << c.view << ": " << result.err;
        ASSERT_TRUE(layout.is_object() && layout.contains("values")) << c.view;
        EXPECT_FALSE(layout["values"].empty()) << c.view << " reports no values";
        for (const nlohmann::json& value : layout["values"]) {
            const float width = value["frame"][2], needed = value["needed"];
            EXPECT_GE(width + kValueSlack, needed)
                << c.view << ": '" << std::string(value["text"]) << "' needs " << needed
                << " px, its control is " << width << " px wide";
        }
    }
}

TEST(ValueFit, AtZoom300TheHelpWindowWrapsItsLines) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const std::string json = test::temp_path("help_layout.json");
    const test::CommandResult result = test::run_under_xvfb(
        kTclens + " --frames 10 --press f1 --set lecture.zoom=300 " + "--layout-json " + json,
        "1280x720");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    std::ifstream in(json);
    const nlohmann::json layout = in ? nlohmann::json::parse(in, nullptr, false) : nlohmann::json();
    std::filesystem::remove(json);
    ASSERT_TRUE(layout.is_object()) << "no layout report";
    int found = 0;
    for (const nlohmann::json& window : layout["windows"]) {
        if (window["role"] != "help") continue;
        ++found;
        const float cut_x = window["cut"][0];
        EXPECT_LE(cut_x, kValueSlack) << "the help window's lines run " << cut_x << " px past it";
        const float right = window["rect"][0].get<float>() + window["rect"][2].get<float>();
        EXPECT_LE(right, 1280.0f + kValueSlack) << "the help window runs past the screen";
    }
    EXPECT_EQ(found, 1) << "F1 opened no help window";
}

}  // namespace
}  // namespace tclens
