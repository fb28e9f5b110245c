// Tests for app/gui/panels/size_field.*, the part that needs no window: the `mnk=` setting takes
// a size or refuses it in one line without changing anything.
#include "app/gui/panels/size_field.h"

#include <gtest/gtest.h>

#include <string>

namespace tclens::gui {
namespace {

TEST(SizeField, StartsAtTheDefaultSize) {
    const SizeField field;
    EXPECT_EQ(field.problem().m, 4096);
    EXPECT_EQ(field.problem().n, 4096);
    EXPECT_EQ(field.problem().k, 4096);
    EXPECT_EQ(field.error(), "");
    EXPECT_STREQ(field.text(), "4096x4096x4096");
}

TEST(SizeField, AGoodSettingReplacesTheSize) {
    SizeField field;
    EXPECT_EQ(field.apply_setting("64x3072x1024"), "");
    EXPECT_EQ(field.problem().m, 64);
    EXPECT_EQ(field.problem().n, 3072);
    EXPECT_EQ(field.problem().k, 1024);
    EXPECT_STREQ(field.text(), "64x3072x1024");
}

TEST(SizeField, ABadSettingIsOneLineAndChangesNothing) {
    SizeField field("256x256x512");
    const std::string error = field.apply_setting("12");
    EXPECT_EQ(error.rfind("mnk='12': ", 0), 0u) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    EXPECT_EQ(field.problem().m, 256);
    EXPECT_EQ(field.problem().k, 512);
    EXPECT_STREQ(field.text(), "256x256x512");
    EXPECT_EQ(field.error(), "");
}

TEST(SizeField, TextThatIsNoSizeKeepsTheLastGoodProblemAndSaysWhy) {
    const SizeField field("4096xbanana");
    EXPECT_NE(field.error(), "");
    EXPECT_EQ(field.problem().m, 4096) << "the default problem stays until a size parses";
    EXPECT_STREQ(field.text(), "4096xbanana");
}

}  // namespace
}  // namespace tclens::gui
