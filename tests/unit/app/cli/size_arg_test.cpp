#include "app/cli/size_arg.h"

#include <gtest/gtest.h>

namespace tclens::cli {
namespace {

TEST(ImageSizeArg, ParsesWidthByHeight) {
    const auto size = parse_image_size("1280x800");
    ASSERT_TRUE(size);
    EXPECT_EQ(size->width, 1280);
    EXPECT_EQ(size->height, 800);
    EXPECT_TRUE(parse_image_size("64x8192"));
}

TEST(ImageSizeArg, RejectsMalformedAndOutOfRange) {
    for (const char* bad :
         {"", "x", "1280", "1280x", "x800", "1280x800x2", "12 80x800", "-640x480", "640x-480",
          "63x480", "640x8193", "0x0", "abcxdef", "99999999999x480", "640X480", "640x480 "}) {
        EXPECT_FALSE(parse_image_size(bad)) << bad;
    }
}

}  // namespace
}  // namespace tclens::cli
