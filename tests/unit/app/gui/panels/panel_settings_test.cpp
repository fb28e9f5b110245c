// Tests for app/gui/panel_settings.*: split_list, the list values of settings such as
// profile.kernel=A,B and kernels.run=A,B.
#include "app/gui/panels/panel_settings.h"

#include <gtest/gtest.h>

namespace tclens::gui {
namespace {

TEST(SplitList, SplitsAtCommasAndTrimsBlanks) {
    EXPECT_EQ(split_list("a, b,\tc "), (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_EQ(split_list("wmma.f16"), std::vector<std::string>{"wmma.f16"});
}

TEST(SplitList, EmptyItemsStaySoTheCallerCanRefuseThem) {
    EXPECT_EQ(split_list(""), std::vector<std::string>{""});
    EXPECT_EQ(split_list("a,,b,"), (std::vector<std::string>{"a", "", "b", ""}));
}

}  // namespace
}  // namespace tclens::gui
