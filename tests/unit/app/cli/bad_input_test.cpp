// Bad input the per-command tests (tests/unit/app/cli/<command>_test.cpp) leave out, per
// command: sizes that are negative, not numbers, overflow or are zero; unknown names whose line
// must list the valid ones; options without their value. Each is one line on stderr naming the
// value, exit 2, nothing on stdout.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/run_command.h"

namespace tclens {
namespace {

using test::run_command;

const std::string kTclens = TCLENS_BINARY;

struct Case {
    std::string args;
    std::vector<std::string> names;  // what the line must hold: the bad value, the valid ones
};

void expect_usage_errors(const std::vector<Case>& cases) {
    for (const Case& c : cases) {
        const auto result = run_command(kTclens + " " + c.args);
        EXPECT_EQ(result.exit_code, 2) << c.args << "\n" << result.err;
        EXPECT_TRUE(test::is_one_line(result.err)) << c.args << "\n" << result.err;
        for (const std::string& name : c.names) {
            EXPECT_NE(result.err.find(name), std::string::npos)
                << c.args << ": '" << name << "' in " << result.err;
        }
        EXPECT_EQ(result.out, "") << c.args;
    }
}

TEST(BadInput, ProfileSizesNegativeOverflowingOrTooLarge) {
    expect_usage_errors({
        {"profile --kernel naive_fma.f32 --mnk -4x64x64", {"'-4x64x64'", "1 to 65536"}},
        {"profile --kernel naive_fma.f32 --mnk 64x64x99999999999", {"'64x64x99999999999'"}},
        {"profile --kernel naive_fma.f32 --mnk 65537x64x64", {"'65537x64x64'", "65536"}},
        {"profile --kernel naive_fma.f32 --mnk 64x64", {"'64x64'", "MxNxK"}},
        {"profile --kernel naive_fma.f32 --timeline --interval-us abc", {"--interval-us", "abc"}},
    });
}

TEST(BadInput, KernelsSizesZeroNegativeNonNumericOverflowing) {
    expect_usage_errors({
        {"kernels --mnk 0x0x0", {"'0x0x0'"}},
        {"kernels --mnk -4x4x4", {"'-4x4x4'"}},
        {"kernels --mnk abc", {"'abc'", "1 to 65536"}},
        {"kernels --mnk 99999999999x1x1", {"'99999999999x1x1'"}},
        {"kernels --mnk", {"--mnk"}},
    });
}

TEST(BadInput, BenchPresetAndKernelListTheValidOnesAndRunsMustBeANumberInRange) {
    expect_usage_errors({
        {"bench --preset huge", {"'huge'", "lab6, square"}},
        {"bench --kernels ''", {"''", "naive_fma.f32", "cublas.bf16"}},
        {"bench --runs abc", {"--runs", "abc", "20"}},
        {"bench --runs 99999999999", {"--runs", "99999999999"}},
        {"bench --warmup -1", {"--warmup", "-1"}},
    });
}

TEST(BadInput, BanksNamesListTheValidOnesAndTileSizesAreChecked) {
    expect_usage_errors({
        {"banks --swizzle bogus --pattern ldmatrix.x4", {"bogus", "none, pad:N, xor", "tma128"}},
        {"banks --swizzle none --pattern lds.999", {"lds.999", "ldmatrix.x4", "sts.32.col"}},
        {"banks --swizzle pad:-4 --pattern ldmatrix.x4", {"pad:-4", "multiple of 4"}},
        {"banks --swizzle none --pattern ldmatrix.x4 --rows -8", {"-8", "at least 1"}},
        {"banks --swizzle none --pattern ldmatrix.x4 --row-bytes -4", {"-4", "at least 1"}},
        {"banks --swizzle none --pattern ldmatrix.x4 --rows 99999999999",
         {"--rows", "99999999999"}},
        {"banks --swizzle none --pattern ldmatrix.x4 --row-bytes abc", {"--row-bytes", "abc"}},
    });
}

TEST(BadInput, LayoutWithoutAnIdOrAnOperandValue) {
    expect_usage_errors({
        {"layout --operand A", {"valid IDs", "mma.m16n8k8.tf32", "ldmatrix.x4.trans"}},
        {"layout mma.m16n8k8.f16 --operand", {"--operand"}},
    });
}

TEST(BadInput, DeviceTakesOnlyJson) {
    expect_usage_errors({{"device --bogus", {"--bogus"}}, {"device extra", {"extra"}}});
}

TEST(BadInput, ScreenshotSizesNonNumericNegativeZeroOverflowing) {
    if (run_command(kTclens + " --help").out.find("screenshot") == std::string::npos) {
        GTEST_SKIP() << "skipped: this build has no GUI (TCLENS_GUI=OFF)";
    }
    const std::string out = " --out " + test::temp_path("bad_input.png");
    expect_usage_errors({
        {"screenshot --view device --size abcxdef" + out, {"'abcxdef'", "64..8192"}},
        {"screenshot --view device --size -640x480" + out, {"'-640x480'"}},
        {"screenshot --view device --size 0x0" + out, {"'0x0'"}},
        {"screenshot --view device --size 99999999999x480" + out, {"'99999999999x480'"}},
        {"screenshot --view device --size 640" + out, {"'640'", "WxH"}},
    });
}

}  // namespace
}  // namespace tclens
