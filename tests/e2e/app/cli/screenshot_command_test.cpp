// `tclens screenshot` usage errors (GUI builds): caught before any window is opened.

#include <gtest/gtest.h>

#include "tests/support/cli_checks.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

using test::run_command;

using test::kTclens;

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

TEST(BadInput, ScreenshotSizesNonNumericNegativeZeroOverflowing) {
    if (run_command(kTclens + " --help").out.find("screenshot") == std::string::npos) {
        GTEST_SKIP() << "skipped: this build has no GUI (TCLENS_GUI=OFF)";
    }
    const std::string out = " --out " + test::temp_path("bad_input.png");
    test::expect_usage_errors(
        kTclens,
        {
            {"screenshot --view device --size abcxdef" + out, {"'abcxdef'", "64..8192"}},
            {"screenshot --view device --size -640x480" + out, {"'-640x480'"}},
            {"screenshot --view device --size 0x0" + out, {"'0x0'"}},
            {"screenshot --view device --size 99999999999x480" + out, {"'99999999999x480'"}},
            {"screenshot --view device --size 640" + out, {"'640'", "WxH"}},
        });
}

}  // namespace
}  // namespace tclens
