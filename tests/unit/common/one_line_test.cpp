// common/one_line.h: control characters become spaces, everything else stays; an excerpt is cut
// and ends in "..." when it was.
#include "common/one_line.h"

#include <gtest/gtest.h>

namespace tclens::common {
namespace {

TEST(OneLine, ControlCharactersBecomeSpaces) {
    EXPECT_EQ(one_line("a\nb\r\tc\x7f"
                       "d"),
              "a b  c d");
    EXPECT_EQ(one_line(std::string("x\0y", 3)), "x y");
}

TEST(OneLine, AnExcerptIsCutAndSaysSo) {
    EXPECT_EQ(one_line_excerpt("a\nbcdef", 3), "a b...");
    EXPECT_EQ(one_line_excerpt("abc", 3), "abc");
    EXPECT_EQ(one_line_excerpt("", 3), "");
}

TEST(OneLine, PrintableAndUtf8TextStays) {
    EXPECT_EQ(one_line("4096x4096x4096 \xc3\xa9 'ok'"), "4096x4096x4096 \xc3\xa9 'ok'");
    EXPECT_EQ(one_line(""), "");
}

}  // namespace
}  // namespace tclens::common
