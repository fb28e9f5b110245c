// `tclens trace` without a GPU: one-line usage errors (exit 2) for kernels without trace points,
// bad sizes and bad --blocks, decided before any GPU is asked for; exit 3 where there is none.
// Traces themselves are GPU tests (tests/gpu/app/cli/trace_command_test.cpp).
#include <gtest/gtest.h>

#include <string>

#include "profiling/device_info.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

using test::kTclens;

void expect_trace_usage_error(const std::string& args, const std::string& named) {
    const auto result = test::run_command(kTclens + " trace " + args);
    EXPECT_EQ(result.exit_code, 2) << args << "\n" << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << args << "\n" << result.err;
    EXPECT_NE(result.err.find(named), std::string::npos) << args << "\n" << result.err;
    EXPECT_EQ(result.out, "") << args;
}

TEST(TraceCommand, KernelIsRequiredAndMustHaveTracePoints) {
    expect_trace_usage_error("", "--kernel");
    expect_trace_usage_error("--kernel wgmma_w.bf16", "wgmma_ws.bf16");
    expect_trace_usage_error("--kernel mma_ldmatrix_xor.f16",
                             "'mma_ldmatrix_xor.f16' has no trace points");
}

TEST(TraceCommand, BlocksZeroNegativeOrTooManyAreUsageErrors) {
    expect_trace_usage_error("--kernel wgmma_ws.bf16 --blocks 0", "--blocks 0 must be at least 1");
    expect_trace_usage_error("--kernel wgmma_ws.bf16 --blocks -2",
                             "--blocks -2 must be at least 1");
    expect_trace_usage_error("--kernel wgmma_ws.bf16 --mnk 512x512x512 --blocks 9",
                             "more than the 8 blocks");
    expect_trace_usage_error("--kernel wgmma_tma.f16 --blocks 5000", "more than the 1024 blocks");
    expect_trace_usage_error("--kernel wgmma_tma.f16 --mnk 8192x8192x64 --blocks 2000",
                             "the 1024 blocks tclens traces at most");
    expect_trace_usage_error("--kernel wgmma_tma.f16 --blocks many", "--blocks");
}

TEST(TraceCommand, BadSizes) {
    expect_trace_usage_error("--kernel wgmma_ws.f16 --mnk 0x64x64", "'0x64x64'");
    expect_trace_usage_error("--kernel wgmma_ws.f16 --mnk 64x64x63", "K must be a multiple of 8");
}

TEST(TraceCommand, ClockSkewRoundsOutsideOneToTenThousandAreUsageErrors) {
    expect_trace_usage_error("--clock-skew --rounds 0", "--rounds 0 must be 1 to 10000");
    expect_trace_usage_error("--clock-skew --rounds -5", "--rounds -5 must be 1 to 10000");
    expect_trace_usage_error("--clock-skew --rounds 10001", "--rounds 10001 must be 1 to 10000");
    expect_trace_usage_error("--kernel wgmma_ws.bf16 --clock-skew --rounds 0", "--rounds 0");
}

TEST(TraceCommand, ClockSkewWithoutAGpuSaysSoAndExits3) {
    if (profiling::query_system().has_gpu()) GTEST_SKIP() << "skipped: this machine has a GPU";
    const auto result = test::run_command(kTclens + " trace --clock-skew");
    EXPECT_EQ(result.exit_code, 3) << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("needs an NVIDIA GPU"), std::string::npos) << result.err;
    EXPECT_EQ(result.out, "");
}

TEST(TraceCommand, WithoutAGpuItSaysSoAndExits3) {
    if (profiling::query_system().has_gpu()) GTEST_SKIP() << "skipped: this machine has a GPU";
    const auto result = test::run_command(kTclens + " trace --kernel wgmma_ws.bf16");
    EXPECT_EQ(result.exit_code, 3) << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("needs an NVIDIA GPU"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace tclens
