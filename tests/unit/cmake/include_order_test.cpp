// Tests for cmake/IncludeOrder.cmake, the check that a folder includes only folders at or below
// its own (app/gui: jobs < views < panels < shell; the top level: common < viz < kernels <
// profiling < app). It runs as a script here, on planted trees and on the real ones.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/run_command.h"
#include "tests/unit/cmake/cmake_output.h"

namespace tclens {
namespace {

namespace fs = std::filesystem;

constexpr const char* kGuiOrder = "jobs;views;panels;shell";
constexpr const char* kTopOrder = "common;viz;kernels;profiling;app";

test::CommandResult check(const std::string& root, const std::string& prefix,
                          const std::string& order) {
    return test::run_command(std::string("'") + TCLENS_CMAKE_COMMAND + "' -DROOT='" + root +
                             "' -DPREFIX='" + prefix + "' '-DORDER=" + order + "' -P '" +
                             TCLENS_SOURCE_DIR + "/cmake/IncludeOrder.cmake' 2>&1");
}

void write(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

// A copy of app/gui's folder names with one file each; `jobs/job.h` includes `included`.
std::string planted_gui(const std::string& name, const std::string& included) {
    const fs::path root = test::temp_path(name);
    fs::remove_all(root);
    write(root / "jobs/job.h", "#pragma once\n#include \"" + included + "\"\n#include <vector>\n");
    write(root / "views/view.h", "#pragma once\n#include \"app/gui/jobs/job.h\"\n");
    write(root / "panels/panel.cpp", "#include \"app/gui/views/view.h\"\n");
    write(root / "shell/shell.cpp", "#include \"app/gui/panels/panel.h\"\n");
    return root.string();
}

TEST(IncludeOrder, AnUpwardIncludeFailsNamingTheFileAndTheLine) {
    const auto result =
        check(planted_gui("include_order_up", "app/gui/panels/panel.h"), "app/gui/", kGuiOrder);
    EXPECT_NE(result.exit_code, 0);
    EXPECT_NE(test::unwrapped(result.out)
                  .find("include order: app/gui/jobs/job.h has '#include "
                        "\"app/gui/panels/panel.h\"', a folder above its own"),
              std::string::npos)
        << result.out;
}

TEST(IncludeOrder, IncludesDownwardOrWithinAFolderPass) {
    const auto result =
        check(planted_gui("include_order_down", "app/gui/jobs/other.h"), "app/gui/", kGuiOrder);
    EXPECT_EQ(result.exit_code, 0) << result.out;
}

TEST(IncludeOrder, TheTreeKeepsItsOrder) {
    const auto gui = check(std::string(TCLENS_SOURCE_DIR) + "/app/gui", "app/gui/", kGuiOrder);
    EXPECT_EQ(gui.exit_code, 0) << gui.out;
    const auto top = check(TCLENS_SOURCE_DIR, "", kTopOrder);
    EXPECT_EQ(top.exit_code, 0) << top.out;
}

}  // namespace
}  // namespace tclens
