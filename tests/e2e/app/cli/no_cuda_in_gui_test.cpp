// The GUI never creates a CUDA context (issue 30, "Must show"): the windowless GUI (`tclens
// headless`, the same shell, panels and jobs as the window) asks its worker for the GPU at start
// and, with the Banks panel's Measure on, sends it a GPU job; its own process loads no CUDA library
// (tests/support/cuda_libraries_loaded.h). Label e2e, not ui: it runs in CI and in
// scripts/gpu_check.sh's GPU run (which leaves ui out), where the worker has a GPU to open.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "tests/support/cuda_libraries_loaded.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

using test::kTclens;

TEST(NoCudaInTheGui, ItsDeviceQueryAndGpuJobsLoadNoCudaLibrary) {
    const std::string text = test::temp_path("no_cuda_gui.txt");
    test::expect_no_cuda_loaded("env -u DISPLAY " + kTclens +
                                    " headless --view banks --set banks.pattern=ldmatrix.x4"
                                    " --set banks.left=none --set banks.right=xor"
                                    " --set banks.measure=on --frames 3 --text " +
                                    text,
                                "gui");
    const std::string words = test::read_file(text);
    std::remove(text.c_str());
    // The worker answered: the status bar names what it found.
    EXPECT_NE(words.find("== status =="), std::string::npos) << words;
    EXPECT_EQ(words.find("querying the GPU..."), std::string::npos) << words;
}

}  // namespace
}  // namespace tclens
