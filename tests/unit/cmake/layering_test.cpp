// Tests for two rules of cmake/Layering.cmake. Isolation: only tclens_worker_server links
// tclens_user_runtime (what builds, loads and runs a user's kernel), so no client can run one.
// The client without CUDA: its libraries link no CUDA (nor tclens_profiling, the GPU half of the
// profiling layer), not even through another library. The
// planted project tests/data/planted_layering/ is configured with and without a breach of each.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/support/run_command.h"
#include "tests/unit/cmake/cmake_output.h"

namespace tclens {
namespace {

// `plant`: "" or the planted project's option for one breach, e.g. "-DPLANT_GUI_LINK=ON".
test::CommandResult configure_planted(const std::string& name, const std::string& plant) {
    const std::string build = test::temp_path(name);
    std::filesystem::remove_all(build);
    return test::run_command(std::string("'") + TCLENS_CMAKE_COMMAND + "' -S '" +
                             TCLENS_SOURCE_DIR + "/tests/data/planted_layering' -B '" + build +
                             "' -DTCLENS_SOURCE_DIR='" + TCLENS_SOURCE_DIR + "' " + plant +
                             " 2>&1");
}

TEST(Layering, OnlyTheWorkerServerLinksTheUserRuntime) {
    const auto result = configure_planted("planted_layering_ok", "");
    EXPECT_EQ(result.exit_code, 0) << result.out;
}

TEST(Layering, AClientLinkingTheUserRuntimeFailsTheConfigure) {
    const auto result = configure_planted("planted_layering_gui", "-DPLANT_GUI_LINK=ON");
    EXPECT_NE(result.exit_code, 0);
    EXPECT_NE(test::unwrapped(result.out)
                  .find("layering: tclens_gui_core links tclens_user_runtime, which only "
                        "tclens_worker_server may"),
              std::string::npos)
        << result.out;
}

TEST(Layering, AClientLibraryLinkingCudaThroughAnotherFailsTheConfigure) {
    const auto result = configure_planted("planted_layering_client", "-DPLANT_CLIENT_CUDA=ON");
    EXPECT_NE(result.exit_code, 0);
    EXPECT_NE(test::unwrapped(result.out)
                  .find("layering: tclens_viz links CUDA::cudart (tclens_viz -> "
                        "planted_gpu_helper -> CUDA::cudart), which a client without CUDA may "
                        "not"),
              std::string::npos)
        << result.out;
}

// The model's own name starts as the GPU library's does; only the GPU library is refused.
TEST(Layering, TheProfilingModelLinkingTheProfilingLibraryFailsTheConfigure) {
    const auto result = configure_planted("planted_layering_model", "-DPLANT_MODEL_GPU_LINK=ON");
    EXPECT_NE(result.exit_code, 0);
    EXPECT_NE(test::unwrapped(result.out)
                  .find("layering: tclens_profiling_model links tclens_profiling "
                        "(tclens_profiling_model -> tclens_profiling), which a client without "
                        "CUDA may not"),
              std::string::npos)
        << result.out;
}

}  // namespace
}  // namespace tclens
