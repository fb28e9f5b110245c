// Where the app keeps what it remembers (app/gui/shell/config_folder.h): $XDG_CONFIG_HOME/tclens,
// else ~/.config/tclens, created when missing; nowhere without either.
#include "app/gui/shell/config_folder.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "tests/support/config_environment.h"
#include "tests/support/run_command.h"

namespace tclens::gui {
namespace {

namespace fs = std::filesystem;

using test::ConfigEnvironment;

TEST(ConfigFolder, XdgConfigHomeFirstThenHomeDotConfig) {
    const fs::path root = test::temp_path("config_root");
    fs::remove_all(root);
    {
        ConfigEnvironment environment((root / "xdg").c_str(), (root / "home").c_str());
        EXPECT_EQ(config_file_path("imgui.ini"), (root / "xdg" / "tclens" / "imgui.ini").string());
        EXPECT_TRUE(fs::is_directory(root / "xdg" / "tclens"));
    }
    {
        ConfigEnvironment environment("", (root / "home").c_str());
        EXPECT_EQ(config_file_path("recent_recordings"),
                  (root / "home" / ".config" / "tclens" / "recent_recordings").string());
        EXPECT_TRUE(fs::is_directory(root / "home" / ".config" / "tclens"));
    }
    fs::remove_all(root);
}

TEST(ConfigFolder, NowhereWithoutAHomeOrWhereTheFolderCannotBeMade) {
    {
        ConfigEnvironment environment(nullptr, nullptr);
        EXPECT_EQ(config_file_path("imgui.ini"), "");
    }
    const fs::path file = test::temp_path("config_is_a_file");
    {
        std::FILE* f = std::fopen(file.c_str(), "w");
        std::fclose(f);
    }
    {
        ConfigEnvironment environment(file.c_str(), nullptr);
        EXPECT_EQ(config_file_path("imgui.ini"), "");
    }
    fs::remove(file);
}

}  // namespace
}  // namespace tclens::gui
