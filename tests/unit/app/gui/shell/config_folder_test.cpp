// Where the app keeps what it remembers (app/gui/shell/config_folder.h): $XDG_CONFIG_HOME/tclens,
// else ~/.config/tclens, created when missing; nowhere without either.
#include "app/gui/shell/config_folder.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "tests/support/run_command.h"

namespace tclens::gui {
namespace {

namespace fs = std::filesystem;

// Sets (or with nullptr unsets) the two variables for one test, and puts them back.
class Environment {
  public:
    Environment(const char* xdg, const char* home) {
        for (auto& [name, value, had] : saved_) {
            const char* now = std::getenv(name);
            had = now != nullptr;
            value = had ? now : "";
        }
        set("XDG_CONFIG_HOME", xdg);
        set("HOME", home);
    }
    ~Environment() {
        for (const auto& [name, value, had] : saved_) set(name, had ? value.c_str() : nullptr);
    }

  private:
    static void set(const char* name, const char* value) {
        if (value) {
            setenv(name, value, 1);
        } else {
            unsetenv(name);
        }
    }
    struct Saved {
        const char* name;
        std::string value;
        bool had;
    };
    Saved saved_[2] = {{"XDG_CONFIG_HOME", "", false}, {"HOME", "", false}};
};

TEST(ConfigFolder, XdgConfigHomeFirstThenHomeDotConfig) {
    const fs::path root = test::temp_path("config_root");
    fs::remove_all(root);
    {
        Environment environment((root / "xdg").c_str(), (root / "home").c_str());
        EXPECT_EQ(config_file_path("imgui.ini"), (root / "xdg" / "tclens" / "imgui.ini").string());
        EXPECT_TRUE(fs::is_directory(root / "xdg" / "tclens"));
    }
    {
        Environment environment("", (root / "home").c_str());
        EXPECT_EQ(config_file_path("recent_recordings"),
                  (root / "home" / ".config" / "tclens" / "recent_recordings").string());
        EXPECT_TRUE(fs::is_directory(root / "home" / ".config" / "tclens"));
    }
    fs::remove_all(root);
}

TEST(ConfigFolder, NowhereWithoutAHomeOrWhereTheFolderCannotBeMade) {
    {
        Environment environment(nullptr, nullptr);
        EXPECT_EQ(config_file_path("imgui.ini"), "");
    }
    const fs::path file = test::temp_path("config_is_a_file");
    {
        std::FILE* f = std::fopen(file.c_str(), "w");
        std::fclose(f);
    }
    {
        Environment environment(file.c_str(), nullptr);
        EXPECT_EQ(config_file_path("imgui.ini"), "");
    }
    fs::remove(file);
}

}  // namespace
}  // namespace tclens::gui
