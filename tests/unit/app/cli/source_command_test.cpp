// `tclens source` without a GPU: one-line usage errors (exit 2), exit 3 with the reason where
// there is no GPU, and PC sampling refused (permission, busy, unsupported; injected through
// TCLENS_INJECT_FAULT) as one line with the fix, exit 3. Real source profiles are GPU tests
// (tests/gpu/profiling/source_profile_test.cpp).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "profiling/device_info.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

using test::run_command;

using test::kTclens;

void expect_source_usage_error(const std::string& args, const std::string& named) {
    const auto result = run_command(kTclens + " source " + args);
    EXPECT_EQ(result.exit_code, 2) << args << "\n" << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << args << "\n" << result.err;
    EXPECT_NE(result.err.find(named), std::string::npos) << args << "\n" << result.err;
    EXPECT_EQ(result.out, "") << args;
}

TEST(SourceCommand, KernelIsRequiredAndUnknownOnesGetASuggestion) {
    expect_source_usage_error("", "--kernel");
    expect_source_usage_error("--kernel mma_cp_asyn.f16", "did you mean mma_cp_async.f16?");
}

TEST(SourceCommand, BadSizesAndTopsAreUsageErrors) {
    expect_source_usage_error("--kernel naive_fma.f32 --mnk 0x64x64", "'0x64x64'");
    expect_source_usage_error("--kernel mma_cp_async.f16 --mnk 64x64x63",
                              "K must be a multiple of 8");
    expect_source_usage_error("--kernel naive_fma.f32 --top 0", "--top");
    expect_source_usage_error("--kernel naive_fma.f32 --top many", "--top");
}

TEST(SourceCommand, WithoutAGpuExits3WithTheReason) {
    if (profiling::query_system().has_gpu()) GTEST_SKIP() << "skipped: this machine has a GPU";
    const auto result = run_command(kTclens + " source --kernel naive_fma.f32 --mnk 64x64x64");
    EXPECT_EQ(result.exit_code, 3) << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("source needs an NVIDIA GPU"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("Source panel"), std::string::npos) << result.err;
    EXPECT_EQ(result.out, "");
}

// PC sampling refused: one line with the fix, exit 3, nothing on stdout, GPU or not.
TEST(SourceCommand, RefusedSamplingIsOneLineWithTheFix) {
    const std::vector<std::pair<std::string, std::vector<std::string>>> faults = {
        {"cupti-permission", {"root", "CAP_SYS_ADMIN", "NVreg_RestrictProfilingToAdminUsers=0"}},
        {"cupti-busy", {"another profiler"}},
        {"cupti-unavailable", {"not supported"}}};
    for (const auto& [fault, parts] : faults) {
        const auto result = run_command("env TCLENS_INJECT_FAULT=" + fault + " " + kTclens +
                                        " source --kernel mma_cp_async.f16 --mnk 256x256x256");
        EXPECT_EQ(result.exit_code, 3) << fault << "\n" << result.err;
        EXPECT_TRUE(test::is_one_line(result.err)) << fault << "\n" << result.err;
        EXPECT_NE(result.err.find("TCLENS_INJECT_FAULT=" + fault), std::string::npos) << result.err;
        for (const std::string& part : parts) {
            EXPECT_NE(result.err.find(part), std::string::npos) << part << " in " << result.err;
        }
        EXPECT_EQ(result.out, "") << fault;
    }
}

}  // namespace
}  // namespace tclens
