#include "common/text.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tclens::common {
namespace {

TEST(Text, PrefixAndSuffix) {
    EXPECT_TRUE(starts_with("mma.sync", "mma"));
    EXPECT_FALSE(starts_with("mm", "mma"));
    EXPECT_TRUE(ends_with("rung.cu", ".cu"));
    EXPECT_FALSE(ends_with("cu", ".cu"));
}

TEST(Text, CountTextIsPluralButForOne) {
    EXPECT_EQ(count_text(1, "tile"), "1 tile");
    EXPECT_EQ(count_text(4, "tile"), "4 tiles");
    EXPECT_EQ(count_text(0, "SM"), "0 SMs");
}

TEST(Text, JoinPutsTheSeparatorBetweenItemsOnly) {
    EXPECT_EQ(join(std::vector<std::string>{}, ", "), "");
    EXPECT_EQ(join(std::vector<std::string>{"a"}, ", "), "a");
    EXPECT_EQ(join(std::vector<std::string>{"a", "", "c"}, ", "), "a, , c");
}

TEST(Text, JoinTurnsEachItemIntoText) {
    const std::vector<int> sizes{16, 32, 64};
    EXPECT_EQ(join(sizes, " x ", [](int n) { return std::to_string(n); }), "16 x 32 x 64");
}

TEST(SplitList, SplitsAtCommasAndTrimsBlanks) {
    EXPECT_EQ(split_list("a, b,\tc "), (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_EQ(split_list("wmma.f16"), std::vector<std::string>{"wmma.f16"});
}

TEST(SplitList, EmptyItemsStaySoTheCallerCanRefuseThem) {
    EXPECT_EQ(split_list(""), std::vector<std::string>{""});
    EXPECT_EQ(split_list("a,,b,"), (std::vector<std::string>{"a", "", "b", ""}));
}

}  // namespace
}  // namespace tclens::common
