// Tests for common/expected.h: a value or one line of error, never both.
#include "common/expected.h"

#include <gtest/gtest.h>

#include <string>

namespace tclens::common {
namespace {

TEST(Expected, SuccessHoldsTheValueAndNoError) {
    const Expected<std::string> got = Expected<std::string>::success("xor");
    ASSERT_TRUE(got.ok());
    EXPECT_TRUE(static_cast<bool>(got));
    EXPECT_EQ(*got, "xor");
    EXPECT_EQ(got->size(), 3u);
    EXPECT_EQ(got.value(), "xor");
    EXPECT_EQ(got.error(), "");
}

TEST(Expected, FailureHoldsTheLineAndNoValue) {
    const Expected<int> got = Expected<int>::failure("x must be positive");
    EXPECT_FALSE(got.ok());
    EXPECT_FALSE(static_cast<bool>(got));
    EXPECT_EQ(got.error(), "x must be positive");
}

}  // namespace
}  // namespace tclens::common
