// `tclens bench` usage errors (exit 2, one line naming the value), and exit 3 where there is no
// GPU. Real runs are GPU tests (tests/gpu/kernels/bench_command_test.cpp).

#include <gtest/gtest.h>

#include "profiling/device_info.h"
#include "tests/support/run_command.h"

namespace tclens {
namespace {

using test::run_command;

const std::string kTclens = TCLENS_BINARY;

void expect_usage_error(const std::string& args, const std::string& named) {
    const auto result = run_command(kTclens + " bench " + args);
    EXPECT_EQ(result.exit_code, 2) << args << "\n" << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << args << "\n" << result.err;
    EXPECT_NE(result.err.find(named), std::string::npos) << args << "\n" << result.err;
    EXPECT_EQ(result.out, "") << args;
}

TEST(BenchCommand, BadSizesAreUsageErrors) {
    expect_usage_error("--mnk 0x64x64", "'0x64x64'");
    expect_usage_error("--mnk -5x64x64", "'-5x64x64'");
    expect_usage_error("--mnk abc", "'abc'");
    expect_usage_error("--mnk 99999999999x1x1", "'99999999999x1x1'");
}

TEST(BenchCommand, UnknownKernelListsTheValidOnes) {
    expect_usage_error("--kernels naive_fma.f32,warp_speed --mnk 64x64x64", "'warp_speed'");
    expect_usage_error("--kernels warp_speed", "mma_cp_async.f16");
}

TEST(BenchCommand, UnknownPresetAndExclusiveFormats) {
    expect_usage_error("--preset huge", "'huge'");
    expect_usage_error("--json --csv", "--csv");
    expect_usage_error("--runs 3", "--runs");
}

TEST(BenchCommand, WithoutAGpuExits3WithTheReason) {
    if (profiling::query_system().has_gpu()) GTEST_SKIP() << "skipped: this machine has a GPU";
    const auto result = run_command(kTclens + " bench --mnk 64x64x64");
    EXPECT_EQ(result.exit_code, 3);
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("GPU"), std::string::npos);
}

}  // namespace
}  // namespace tclens
