// `tclens screenshot` usage errors (GUI builds): caught before any window is opened.

#include <gtest/gtest.h>

#include "tests/support/run_command.h"

namespace tclens {
namespace {

using test::run_command;

const std::string kTclens = TCLENS_BINARY;

TEST(ScreenshotCommand, RejectsUnknownViewListingValidOnes) {
    const auto result =
        run_command(kTclens + " screenshot --view nonsense --out " + test::temp_path("x.png"));
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("nonsense"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("device"), std::string::npos) << result.err;
}

TEST(ScreenshotCommand, RejectsBadSize) {
    const auto result = run_command(kTclens + " screenshot --view device --size 10x10 --out " +
                                    test::temp_path("x.png"));
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("10x10"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace tclens
