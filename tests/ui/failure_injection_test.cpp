// The real window under TCLENS_INJECT_FAULT (kernels/fault_injection.h): with any failure
// injected the app starts, keeps drawing and exits 0; the injected reason for a missing GPU is
// drawn; an unknown fault name and a missing display are one line and their exit code before any
// window opens. (What the jobs publish under each fault: the Injected* tests of
// tests/unit/app/gui/jobs/bench_job_test.cpp and profile_job_test.cpp; the panels draw that
// error line.)

#include <gtest/gtest.h>

#include <string>

#include "tests/support/png_inspect.h"
#include "tests/support/run_command.h"
#include "viz/draw_list.h"

namespace tclens {
namespace {

const std::string kTclens = TCLENS_BINARY;

std::string with_fault(const std::string& fault) {
    return "env TCLENS_INJECT_FAULT=" + fault + " " + kTclens;
}

test::PngFacts screenshot(const std::string& fault, const std::string& view) {
    test::CommandResult result;
    test::PngFacts png = test::view_screenshot(with_fault(fault), view, 1000, 700, "", result);
    EXPECT_EQ(result.exit_code, 0) << fault << " " << view << "\n" << result.err;
    return png;
}

// The Kernels panel's note colour of "no GPU: bench needs one" (tests/ui/kernels_panel_test.cpp).
constexpr viz::Rgba kNote{242, 204, 89, 255};

TEST(FailureInjection, TheAppKeepsDrawingWithEveryFault) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    for (const char* fault :
         {"no-gpu", "launch-failure", "cupti-unavailable", "cupti-permission", "cupti-busy"}) {
        const auto result = test::run_under_xvfb(with_fault(fault) + " --frames 30");
        EXPECT_EQ(result.exit_code, 0) << fault << "\n" << result.err;
        EXPECT_EQ(result.err, "") << fault;
    }
}

TEST(FailureInjection, NoGpuDrawsTheInjectedReason) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const auto plain = screenshot("", "device");
    const auto injected = screenshot("no-gpu", "device");
    ASSERT_TRUE(plain.loaded && injected.loaded);
    // Without a GPU only the reason's words differ; with one, the whole table goes.
    EXPECT_GT(test::differing_pixels(plain, injected), 200);
    EXPECT_GT(injected.text_rows, 20);
    // The Kernels panel turns Run off and says why.
    const auto kernels = screenshot("no-gpu", "kernels");
    ASSERT_TRUE(kernels.loaded);
    EXPECT_GT(test::count_pixels(kernels, kNote), 100);
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
