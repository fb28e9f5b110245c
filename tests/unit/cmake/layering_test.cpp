// Tests for cmake/Layering.cmake's isolation rule: only tclens_worker_server links
// tclens_user_runtime (what builds, loads and runs a user's kernel), so no client can run one.
// The planted project tests/data/planted_layering/ is configured with and without a GUI library
// that links it.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/support/run_command.h"
#include "tests/unit/cmake/cmake_output.h"

namespace tclens {
namespace {

test::CommandResult configure_planted(const std::string& name, bool gui_links_runtime) {
    const std::string build = test::temp_path(name);
    std::filesystem::remove_all(build);
    return test::run_command(std::string("'") + TCLENS_CMAKE_COMMAND + "' -S '" +
                             TCLENS_SOURCE_DIR + "/tests/data/planted_layering' -B '" + build +
                             "' -DTCLENS_SOURCE_DIR='" + TCLENS_SOURCE_DIR +
                             "' -DPLANT_GUI_LINK=" + (gui_links_runtime ? "ON" : "OFF") + " 2>&1");
}

TEST(Layering, OnlyTheWorkerServerLinksTheUserRuntime) {
    const auto result = configure_planted("planted_layering_ok", false);
    EXPECT_EQ(result.exit_code, 0) << result.out;
}

TEST(Layering, AClientLinkingTheUserRuntimeFailsTheConfigure) {
    const auto result = configure_planted("planted_layering_gui", true);
    EXPECT_NE(result.exit_code, 0);
    EXPECT_NE(test::unwrapped(result.out)
                  .find("layering: tclens_gui_core links tclens_user_runtime, which only "
                        "tclens_worker_server may"),
              std::string::npos)
        << result.out;
}

}  // namespace
}  // namespace tclens
