// Kernels of yours in the GUI on the real worker, where there is a GPU: the examples of examples/
// opened through the panels' settings, built, run and profiled by `tclens worker`, in the GUI
// without a window (`tclens headless`, so they run on a GPU server with no display), read from
// the text the panels show. The same paths without a GPU, on a scripted worker, and the pixels
// they draw (error map cells, outlined elements), are tests/ui/user_kernels_test.cpp.

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/gpu/gpu_test_support.h"
#include "tests/support/run_command.h"
#include "tests/support/source_dir.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

using test::kSource;
using test::kTclens;

// The panels' text of `tclens headless` (no display needed) once the jobs it started have ended
// and the layout settled, with `settings` ("PANEL.KEY=VALUE" each; workspace.view /
// workspace.split pick the panes).
std::string headless_text(const std::vector<std::string>& settings, test::CommandResult& result) {
    const std::string out = test::temp_path("yours_headless.txt");
    std::string command = "env -u DISPLAY " + kTclens + " headless";
    for (const std::string& setting : settings) command += " --set '" + setting + "'";
    command += " --frames 3 --text " + out;
    result = test::run_command(command);
    std::ifstream file(out);
    std::stringstream text;
    text << file.rdbuf();
    std::remove(out.c_str());
    return text.str();
}

// examples/wrong_block_offset.cu, built and verified by the worker, fails verification and its
// version comes with the error map of where C is wrong.
TEST(UserKernelsGui, WrongKernelShowsItsErrorMap) {
    TCLENS_REQUIRE_GPU();
    test::CommandResult result;
    const std::string text =
        headless_text({"kernels.open=" + kSource + "/examples/wrong_block_offset.cu",
                       "kernels.mnk=64x64x64", "workspace.view=kernels"},
                      result);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(text.find("v1  yours.wrong_block_offset 64x64x64: NOT VERIFIED"), std::string::npos)
        << text;
    EXPECT_NE(text.find("error map: where C is wrong"), std::string::npos) << text;
}

// The GUI's path on the real worker: each example built (NVRTC directive kernel, nvcc host
// launcher) and profiled at 1024^3 shows its PM timeline (samples > 0) and the instruction mix of
// its cubin (HMMA for matmul_tensor's mma.sync, FFMA for directive_gemm) in the Profile panel.
TEST(UserKernelsGui, ExamplesShowTheirTimelineAndInstructionMix) {
    TCLENS_REQUIRE_GPU();
    for (const std::string stem : {"directive_gemm", "matmul_tensor"}) {
        test::CommandResult result;
        const std::string version = "yours." + stem + ".v1";
        const std::string text = headless_text(
            {"kernels.open=" + kSource + "/examples/" + stem + ".cu", "kernels.mnk=1024x1024x1024",
             "profile.yours=" + version, "workspace.view=kernels", "workspace.split=profile,below"},
            result);
        ASSERT_EQ(result.exit_code, 0) << result.err;
        const std::size_t sampling = text.find("PM sampling: ");
        ASSERT_NE(sampling, std::string::npos) << stem << "\n" << text;
        EXPECT_NE(text.substr(sampling, 15), "PM sampling: 0 ") << text.substr(sampling, 80);
        const std::size_t mix = text.find("SASS of " + version + " (sm_");
        ASSERT_NE(mix, std::string::npos) << stem << "\n" << text;
        const std::string line = text.substr(mix, text.find('\n', mix) - mix);
        EXPECT_EQ(line.find("total 0"), std::string::npos) << line;
        // matmul_tensor issues mma.sync (HMMA); directive_gemm is an FMA kernel.
        const std::string none = stem == "matmul_tensor" ? ": HMMA 0," : " FFMA 0,";
        EXPECT_EQ(line.find(none), std::string::npos) << line;
    }
}

// examples/exercise_mma_planted_bug.cu run by the worker: the Fragments panel names its 64 wrong A
// elements (the planted bug swaps two of A's registers) and outlines them.
TEST(UserKernelsGui, PlantedExerciseIsOutlined) {
    TCLENS_REQUIRE_GPU();
    test::CommandResult result;
    const std::string text =
        headless_text({"fragments.exercise=" + kSource + "/examples/exercise_mma_planted_bug.cu",
                       "workspace.view=fragments"},
                      result);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(text.find("64 of 128 A elements, 0 of 64 B elements, 0 of 128 C elements wrong"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("wrong elements are outlined"), std::string::npos) << text;
}

}  // namespace
}  // namespace tclens
