// The welcome strip's memory (app/gui/shell/welcome_strip.h): shown until dismissed, then never
// again, from a file in the config folder; with no config folder it never shows (it could not
// be dismissed for good). The strip itself: tests/ui/welcome_strip_test.cpp.
#include "app/gui/shell/welcome_strip.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "tests/support/config_environment.h"
#include "tests/support/run_command.h"

namespace tclens::gui {
namespace {

namespace fs = std::filesystem;

TEST(WelcomeMemory, ShownUntilDismissedThenNeverAgain) {
    const fs::path root = test::temp_path("welcome_config");
    fs::remove_all(root);
    test::ConfigEnvironment environment(root.c_str(), nullptr);
    EXPECT_FALSE(WelcomeMemory().dismissed());
    WelcomeMemory memory;
    EXPECT_EQ(memory.dismiss(), "");
    EXPECT_TRUE(memory.dismissed());
    EXPECT_TRUE(fs::exists(root / "tclens" / WelcomeMemory::kFileName));
    EXPECT_TRUE(WelcomeMemory().dismissed());  // the next start
    fs::remove_all(root);
}

TEST(WelcomeMemory, WithoutAConfigFolderItNeverShows) {
    test::ConfigEnvironment environment(nullptr, nullptr);
    EXPECT_TRUE(WelcomeMemory().dismissed());
}

}  // namespace
}  // namespace tclens::gui
