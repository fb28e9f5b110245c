// The GUI in its real window (under Xvfb) never creates a CUDA context: it asks its worker for the
// GPU at start and sends it the Banks panel's measurement; its own process, and Xvfb's, load no
// CUDA library (tests/support/cuda_libraries_loaded.h). The windowless twin, which also runs on
// the GPU machine, is tests/e2e/app/cli/no_cuda_in_gui_test.cpp.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "tests/support/cuda_libraries_loaded.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

using test::kTclens;

TEST(NoCudaInTheWindow, ItsDeviceQueryAndGpuJobsLoadNoCudaLibrary) {
    ASSERT_TRUE(test::on_path("xvfb-run")) << "xvfb-run is missing: apt-get install xvfb xauth";
    const std::string layout = test::temp_path("no_cuda_window_layout.json");
    const std::string text = test::temp_path("no_cuda_window.txt");
    // --layout-json: the frames go on until the jobs (the worker's hello among them) are done.
    test::expect_no_cuda_loaded(kTclens +
                                    " --set workspace.view=banks --set banks.pattern=ldmatrix.x4"
                                    " --set banks.measure=on --frames 8 --layout-json " +
                                    layout + " --text " + text,
                                "window", 0,
                                [](const std::string& line) { return test::run_under_xvfb(line); });
    const std::string words = test::read_file(text);
    std::remove(layout.c_str());
    std::remove(text.c_str());
    EXPECT_NE(words.find("== status =="), std::string::npos) << words;
    EXPECT_EQ(words.find("querying the GPU..."), std::string::npos) << words;
}

}  // namespace
}  // namespace tclens
