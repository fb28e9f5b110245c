// `tclens profile` without a GPU: the catalogue listing, one-line usage errors (exit 2, naming
// the bad value and suggesting close names), exit 3 with the reason where there is no GPU, and
// each injected CUPTI fault (kernels/fault_injection.h) as exit 3 with its fix. Real profiles and
// timelines are GPU tests (tests/gpu/app/cli/profile_command_test.cpp).

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "profiling/device_query.h"
#include "profiling/metric_catalogue.h"
#include "tests/support/cli_checks.h"
#include "tests/support/run_command.h"
#include "tests/support/scripted_gpu.h"
#include "tests/support/tclens_binary.h"
#include "tests/support/user_kernel_files.h"

namespace tclens {
namespace {

using test::run_command;

using test::kTclens;

void expect_profile_usage_error(const std::string& args, const std::string& named) {
    const auto result = run_command(kTclens + " profile " + args);
    EXPECT_EQ(result.exit_code, 2) << args << "\n" << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << args << "\n" << result.err;
    EXPECT_NE(result.err.find(named), std::string::npos) << args << "\n" << result.err;
    EXPECT_EQ(result.out, "") << args;
}

TEST(ProfileCommand, ListMetricsShowsTheCatalogue) {
    const auto result = run_command(kTclens + " profile --list-metrics");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    for (const profiling::MetricInfo& info : profiling::metric_catalogue()) {
        EXPECT_NE(result.out.find(info.name), std::string::npos) << info.name;
        EXPECT_NE(result.out.find(info.meaning), std::string::npos) << info.name;
    }
    EXPECT_NE(result.out.find("default, all, timeline"), std::string::npos);
}

TEST(ProfileCommand, ListMetricsJson) {
    const auto result = run_command(kTclens + " profile --list-metrics --json");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json j = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_TRUE(j.is_array()) << result.out;
    ASSERT_EQ(j.size(), profiling::metric_catalogue().size());
    EXPECT_EQ(j[0]["name"], "gpu__time_duration.sum");
    EXPECT_EQ(j[0]["unit"], "ns");
    EXPECT_EQ(j[0]["default"], true);
}

TEST(ProfileCommand, KernelIsRequiredAndUnknownOnesGetASuggestion) {
    expect_profile_usage_error("", "--kernel");
    expect_profile_usage_error("--kernel warp_speed", "'warp_speed'");
    expect_profile_usage_error("--kernel mma_cp_asyn.bf16", "did you mean mma_cp_async.bf16?");
    expect_profile_usage_error("--kernel nope", "register_tiled.f32");  // the valid ids
}

TEST(ProfileCommand, BadSizesAreUsageErrors) {
    expect_profile_usage_error("--kernel naive_fma.f32 --mnk 0x64x64", "'0x64x64'");
    expect_profile_usage_error("--kernel naive_fma.f32 --mnk abc", "'abc'");
    expect_profile_usage_error("--kernel mma_cp_async.bf16 --mnk 64x64x63",
                               "K must be a multiple of 8");
}

TEST(ProfileCommand, UnknownMetricsAreNamedWithCloseNames) {
    expect_profile_usage_error("--kernel naive_fma.f32 --metrics tensr",
                               "unknown metric 'tensr'; did you mean sm__pipe_tensor");
    expect_profile_usage_error("--kernel naive_fma.f32 --metrics gpu__time_duration.sum,occupancy",
                               "sm__warps_active.avg.pct_of_peak_sustained_active");
    expect_profile_usage_error("--kernel naive_fma.f32 --metrics 'dram bytes'", "'dram bytes'");
    expect_profile_usage_error("--kernel naive_fma.f32 --metrics xyz", "--list-metrics");
}

TEST(ProfileCommand, SetsAndOptionsThatDoNotGoTogether) {
    expect_profile_usage_error("--kernel naive_fma.f32 --set everything", "'everything'");
    expect_profile_usage_error("--kernel naive_fma.f32 --set everything", "default, all, timeline");
    expect_profile_usage_error(
        "--kernel naive_fma.f32 --set default --metrics gpu__time_duration.sum", "exclusive");
    expect_profile_usage_error("--kernel naive_fma.f32 --set timeline", "--timeline");
    expect_profile_usage_error("--kernel naive_fma.f32 --timeline --set default", "'default'");
    expect_profile_usage_error("--kernel naive_fma.f32 --interval-us 500", "--timeline");
    expect_profile_usage_error("--kernel naive_fma.f32 --duration-ms 500", "--timeline");
    expect_profile_usage_error("--kernel naive_fma.f32 --timeline --interval-us 50",
                               "--interval-us");
    expect_profile_usage_error("--kernel naive_fma.f32 --timeline --interval-us 20000",
                               "--interval-us");
    expect_profile_usage_error("--kernel naive_fma.f32 --live-updates 0", "--live-updates");
    expect_profile_usage_error("--kernel naive_fma.f32 --live-updates 5 --json",
                               "--live-updates prints the update rate");
}

// --live-updates N goes to the worker as the GUI's Live does (a live_profile request) and prints
// how fast its updates came: here the scripted worker's three.
TEST(ProfileCommand, LiveUpdatesThroughAWorkerPrintTheirRate) {
    const std::string update =
        test::write_canned("cli_live_update.json", test::scripted_live_update({64, 64, 64}));
    const auto result = run_command(
        kTclens + " profile --kernel naive_fma.f32 --mnk 64x64x64 --live-updates 3 --worker " +
        "'SCRIPTED_LIVE_UPDATE=" + update + " sh " + test::kSource +
        "/tests/data/scripted_worker.sh'");
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.out.rfind("3 updates in ", 0), 0u) << result.out;
    EXPECT_NE(result.out.find(" updates/s\n"), std::string::npos) << result.out;
    EXPECT_TRUE(test::is_one_line(result.out)) << result.out;
}

TEST(ProfileCommand, WithoutAGpuExits3WithTheReason) {
    if (profiling::query_system().has_gpu()) GTEST_SKIP() << "skipped: this machine has a GPU";
    for (const std::string args :
         {"--kernel naive_fma.f32 --mnk 64x64x64", "--kernel naive_fma.f32 --set all --json",
          "--kernel naive_fma.f32 --metrics dram__bytes_red.sum",
          "--kernel register_tiled.f32 --timeline --interval-us 200",
          "--kernel naive_fma.f32 --mnk 64x64x64 --live-updates 5",
          "--kernel register_tiled.f32 --mnk 64x64x64 --timeline --live-updates 5"}) {
        const auto result = run_command(kTclens + " profile " + args);
        EXPECT_EQ(result.exit_code, 3) << args << "\n" << result.err;
        EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
        EXPECT_NE(result.err.find("GPU"), std::string::npos) << result.err;
        EXPECT_EQ(result.out, "");
    }
}

// `tclens profile` in its three forms under `fault`: exit 3, one line on stderr holding `parts`,
// nothing on stdout.
void expect_profile_refused(const std::string& fault, const std::vector<std::string>& parts) {
    for (const std::string args :
         {"--kernel naive_fma.f32 --mnk 64x64x64", "--kernel wmma.f16 --set all --json",
          "--kernel register_tiled.f32 --timeline --interval-us 200"}) {
        const auto result = test::run_with_fault(kTclens, fault, "profile " + args);
        EXPECT_EQ(result.exit_code, 3) << args << "\n" << result.err;
        EXPECT_TRUE(test::is_one_line(result.err)) << args << "\n" << result.err;
        for (const std::string& part : parts) {
            EXPECT_TRUE(test::contains(result.err, part)) << part << " in: " << result.err;
        }
        EXPECT_EQ(result.out, "") << args;
    }
}

TEST(BadInput, ProfileSizesNegativeOverflowingOrTooLarge) {
    test::expect_usage_errors(
        kTclens,
        {
            {"profile --kernel naive_fma.f32 --mnk -4x64x64", {"'-4x64x64'", "1 to 65536"}},
            {"profile --kernel naive_fma.f32 --mnk 64x64x99999999999", {"'64x64x99999999999'"}},
            {"profile --kernel naive_fma.f32 --mnk 65537x64x64", {"'65537x64x64'", "65536"}},
            {"profile --kernel naive_fma.f32 --mnk 64x64", {"'64x64'", "MxNxK"}},
            {"profile --kernel naive_fma.f32 --timeline --interval-us abc",
             {"--interval-us", "abc"}},
        });
}

TEST(FaultInjectionCli, CuptiPermissionNamesTheFix) {
    expect_profile_refused("cupti-permission",
                           {"TCLENS_INJECT_FAULT=cupti-permission", "root", "CAP_SYS_ADMIN",
                            "NVreg_RestrictProfilingToAdminUsers=0"});
}

TEST(FaultInjectionCli, CuptiBusySaysAnotherProfilerHoldsTheCounters) {
    expect_profile_refused("cupti-busy", {"TCLENS_INJECT_FAULT=cupti-busy", "another profiler"});
}

TEST(FaultInjectionCli, CuptiUnavailableSaysProfilingIsNotSupported) {
    expect_profile_refused("cupti-unavailable",
                           {"TCLENS_INJECT_FAULT=cupti-unavailable", "not supported"});
}

TEST(FaultInjectionCli, UsageErrorsStillComeFirst) {
    const auto result =
        test::run_with_fault(kTclens, "cupti-permission", "profile --kernel warp_speed");
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_TRUE(test::contains(result.err, "'warp_speed'")) << result.err;
}

TEST(FaultInjectionCli, NoGpuMakesProfileExit3) {
    test::expect_no_gpu_refusal(kTclens, "profile --kernel naive_fma.f32");
    test::expect_no_gpu_refusal(kTclens, "profile --kernel naive_fma.f32 --timeline");
}

TEST(ProfileCommand, AUsersKernelThatDoesNotBuildIsOneLine) {
    expect_profile_usage_error("--kernel /nonexistent/k.cu", "/nonexistent/k.cu");
    const std::string broken = test::write_kernel_file("broken.cu", test::kCompileErrorKernel);
    expect_profile_usage_error("--kernel " + broken + " --mnk 64x64x64", "broken.cu:3: error:");
    expect_profile_usage_error("--kernel " + broken + " --mnk 64x64", "'64x64'");  // checked first
}

TEST(ProfileCommand, ARungIsProfiledInTheWorkerToo) {
    for (const std::string args : {"--kernel naive_fma.f32 --mnk 64x64x64",
                                   "--kernel register_tiled.f32 --mnk 64x64x64 --timeline"}) {
        const auto result =
            run_command(kTclens + " profile " + args + " " + test::scripted_worker("crash"));
        EXPECT_EQ(result.exit_code, 1) << args << "\n" << result.err;
        EXPECT_NE(test::last_line(result.err).find("died during the profile request"),
                  std::string::npos)
            << args << "\n"
            << result.err;
        EXPECT_EQ(result.out, "") << args;
    }
}

TEST(ProfileCommand, AWorkerThatCrashesWhileProfilingIsOneLineAndExit1) {
    const std::string good = test::write_kernel_file("good.cu", test::kDirectiveKernel);
    const auto result = run_command(kTclens + " profile --kernel " + good + " --mnk 64x64x64 " +
                                    test::scripted_worker("crash"));
    EXPECT_EQ(result.exit_code, 1) << result.err;
    EXPECT_NE(test::last_line(result.err).find("died during the profile request"),
              std::string::npos)
        << result.err;
    EXPECT_EQ(result.out, "");
}

}  // namespace
}  // namespace tclens
