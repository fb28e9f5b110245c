// The real window under TCLENS_INJECT_FAULT (kernels/fault_injection.h): with each failure
// injected and the job it strikes in started (the device query; a bench for launch-failure; a
// live profile and a source profile for the CUPTI faults), the app keeps drawing until the job
// has ended and exits 0, and the view of that job shows the injected error (its text, read with
// `tclens headless --text`); the injected reason for a missing GPU is drawn; an unknown fault name
// and a missing display are one line and their exit code before any window opens.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "app/gui/views/theme.h"
#include "tests/support/png_inspect.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"
#include "viz/draw_list.h"

namespace tclens {
namespace {

using test::kTclens;

std::string with_fault(const std::string& fault) {
    return "env TCLENS_INJECT_FAULT=" + fault + " " + kTclens;
}

test::PngFacts screenshot_with_fault(const std::string& fault, const std::string& view) {
    test::CommandResult result;
    test::PngFacts png = test::view_screenshot(with_fault(fault), view, 1000, 700, "", result);
    EXPECT_EQ(result.exit_code, 0) << fault << " " << view << "\n" << result.err;
    return png;
}

// A fault, and the view and settings that start the job it strikes in.
struct FaultCase {
    std::string fault;
    std::string view;
    std::vector<std::string> settings;  // PANEL.KEY=VALUE
};

std::vector<FaultCase> fault_cases() {
    const std::vector<std::string> bench = {"kernels.bench=on", "kernels.run=naive_fma.f32",
                                            "kernels.mnk=256x256x256"};
    std::vector<FaultCase> cases = {{"no-gpu", "device", {}}, {"launch-failure", "kernels", bench}};
    for (const char* fault : {"cupti-unavailable", "cupti-permission", "cupti-busy"}) {
        cases.push_back({fault, "profile", {"profile.live=on"}});
        cases.push_back({fault, "source", {"source.run=on"}});
    }
    return cases;
}

std::string settings_of(const FaultCase& c) {
    std::string text = " --set workspace.view=" + c.view;
    for (const std::string& setting : c.settings) text += " --set " + setting;
    return text;
}

TEST(FailureInjection, TheAppKeepsDrawingWhileTheJobEachFaultStrikesInFails) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const std::string layout = test::temp_path("fault_layout.json");
    for (const FaultCase& c : fault_cases()) {
        // With --layout-json the frames go on until the jobs the app started have ended.
        const auto result = test::run_under_xvfb(with_fault(c.fault) + settings_of(c) +
                                                 " --frames 30 --layout-json " + layout);
        EXPECT_EQ(result.exit_code, 0) << c.fault << " " << c.view << "\n" << result.err;
        EXPECT_EQ(result.err, "") << c.fault << " " << c.view;
    }
    std::remove(layout.c_str());
}

// (The device view draws its table as a drawing, not text: NoGpuDrawsTheInjectedReason below
// looks at its pixels.)
TEST(FailureInjection, TheViewOfTheJobShowsTheInjectedError) {
    const std::string out = test::temp_path("fault_text.txt");
    for (const FaultCase& c : fault_cases()) {
        if (c.fault == "no-gpu") continue;
        const auto result = test::run_command(with_fault(c.fault) + " headless --view " + c.view +
                                              settings_of(c) + " --frames 3 --text " + out);
        EXPECT_EQ(result.exit_code, 0) << c.fault << "\n" << result.err;
        std::ifstream file(out);
        std::stringstream text;
        text << file.rdbuf();
        EXPECT_NE(text.str().find("TCLENS_INJECT_FAULT=" + c.fault), std::string::npos)
            << c.fault << " in the " << c.view << " view:\n"
            << text.str();
    }
    std::remove(out.c_str());
}

TEST(FailureInjection, NoGpuDrawsTheInjectedReason) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto plain = screenshot_with_fault("", "device");
    const auto injected = screenshot_with_fault("no-gpu", "device");
    ASSERT_TRUE(plain.loaded && injected.loaded);
    // Without a GPU only the reason's words differ; with one, the whole table goes.
    EXPECT_GT(test::differing_pixels(plain, injected), 200);
    EXPECT_GT(injected.text_rows, 20);
    // The Kernels panel turns Run off and says why.
    const auto kernels = screenshot_with_fault("no-gpu", "kernels");
    ASSERT_TRUE(kernels.loaded);
    EXPECT_GT(test::count_pixels(kernels, gui::dark_theme().note), 100);
}

TEST(FailureInjection, UnknownFaultIsAUsageErrorBeforeAnyWindow) {
    const auto result = test::run_command(with_fault("gpu-on-fire") + " --frames 1");
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("cupti-permission"), std::string::npos) << result.err;
}

TEST(FailureInjection, ScreenshotWithoutDisplayExplainsInOneLineAndExits3) {
    const std::string out = test::temp_path("no_display.png");
    const auto result = test::run_command("env -u DISPLAY -u WAYLAND_DISPLAY " + kTclens +
                                          " screenshot --view device --out " + out);
    EXPECT_EQ(result.exit_code, 3) << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("xvfb-run"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace tclens
