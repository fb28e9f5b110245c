// The CLI under TCLENS_INJECT_FAULT (kernels/fault_injection.h): each injected failure gives its
// one line and exit code, the same on machines with and without a GPU, and never a crash.
//   cupti-*         tclens profile exits 3 with the fix
//   no-gpu          bench and profile exit 3; device --json still exits 0, gpu_found false
//   launch-failure  bench reports every row failed with the CUDA error and exits 1
//   unknown name    exit 2 before anything runs, listing the valid names

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/run_command.h"

namespace tclens {
namespace {

using test::run_command;

const std::string kTclens = TCLENS_BINARY;

test::CommandResult run_with_fault(const std::string& fault, const std::string& args) {
    return run_command("env TCLENS_INJECT_FAULT=" + fault + " " + kTclens + " " + args);
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// `tclens profile` in its three forms under `fault`: exit 3, one line on stderr holding `parts`,
// nothing on stdout.
void expect_profile_refused(const std::string& fault, const std::vector<std::string>& parts) {
    for (const std::string args :
         {"--kernel naive_fma.f32 --mnk 64x64x64", "--kernel wmma.f16 --set all --json",
          "--kernel register_tiled.f32 --timeline --interval-us 200"}) {
        const auto result = run_with_fault(fault, "profile " + args);
        EXPECT_EQ(result.exit_code, 3) << args << "\n" << result.err;
        EXPECT_TRUE(test::is_one_line(result.err)) << args << "\n" << result.err;
        for (const std::string& part : parts) {
            EXPECT_TRUE(contains(result.err, part)) << part << " in: " << result.err;
        }
        EXPECT_EQ(result.out, "") << args;
    }
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
    const auto result = run_with_fault("cupti-permission", "profile --kernel warp_speed");
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_TRUE(contains(result.err, "'warp_speed'")) << result.err;
}

TEST(FaultInjectionCli, NoGpuMakesBenchAndProfileExit3) {
    for (const std::string args :
         {"bench --mnk 64x64x64", "profile --kernel naive_fma.f32",
          "profile --kernel naive_fma.f32 --timeline", "layout ldmatrix.x4 --verify"}) {
        const auto result = run_with_fault("no-gpu", args);
        EXPECT_EQ(result.exit_code, 3) << args << "\n" << result.err;
        EXPECT_TRUE(test::is_one_line(result.err)) << args << "\n" << result.err;
        EXPECT_TRUE(contains(result.err, "TCLENS_INJECT_FAULT=no-gpu hides every GPU"))
            << args << "\n"
            << result.err;
    }
}

TEST(FaultInjectionCli, NoGpuDeviceJsonStillExits0WithGpuFoundFalse) {
    const auto result = run_with_fault("no-gpu", "device --json");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json report = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(report.is_discarded()) << result.out;
    EXPECT_EQ(report["gpu_found"], false);
    EXPECT_TRUE(report["devices"].empty());
    EXPECT_EQ(report["no_gpu_reason"], "TCLENS_INJECT_FAULT=no-gpu hides every GPU");

    const auto table = run_with_fault("no-gpu", "device");
    EXPECT_EQ(table.exit_code, 0) << table.err;
    EXPECT_TRUE(contains(table.out, "reason: TCLENS_INJECT_FAULT=no-gpu")) << table.out;
    const auto version = run_with_fault("no-gpu", "--version");
    EXPECT_EQ(version.exit_code, 0) << version.err;
    EXPECT_TRUE(contains(version.out, "GPU: none found (TCLENS_INJECT_FAULT=no-gpu"))
        << version.out;
}

TEST(FaultInjectionCli, LaunchFailureBenchReportsEachFailedRowAndExits1) {
    const auto result = run_with_fault(
        "launch-failure", "bench --kernels naive_fma.f32 --mnk 64x64x64 --no-peak --json");
    EXPECT_EQ(result.exit_code, 1) << result.err;
    const nlohmann::json report = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(report.is_discarded()) << result.out << result.err;
    ASSERT_EQ(report.at("results").size(), 2u) << result.out;  // the rung and its cuBLAS reference
    EXPECT_EQ(report.at("results")[0]["kernel"], "naive_fma.f32");
    EXPECT_EQ(report.at("results")[1]["kernel"], "cublas.sgemm");
    for (const nlohmann::json& row : report.at("results")) {
        EXPECT_TRUE(contains(row["error"].get<std::string>(), "cudaErrorLaunchFailure")) << row;
        EXPECT_EQ(row["verified"], false) << row;
        EXPECT_TRUE(row["tflops"].is_null()) << row;
    }
}

TEST(FaultInjectionCli, LaunchFailureBenchTableShowsTheCudaErrorWithPeaksAsked) {
    const auto result = run_with_fault("launch-failure", "bench --kernels wmma.f16 --mnk 64x64x64");
    EXPECT_EQ(result.exit_code, 1) << result.err;
    EXPECT_TRUE(contains(result.out,
                         "error: cudaErrorLaunchFailure: unspecified launch failure "
                         "(injected: TCLENS_INJECT_FAULT=launch-failure)"))
        << result.out;
    EXPECT_TRUE(contains(result.out, "wmma.f16")) << result.out;
    EXPECT_TRUE(contains(result.out, "cublas.f16")) << result.out;
}

TEST(FaultInjectionCli, UnknownFaultIsAUsageErrorListingTheValidOnes) {
    for (const std::string args : {"kernels", "device --json", "bench --mnk 64x64x64"}) {
        const auto result = run_with_fault("gpu-on-fire", args);
        EXPECT_EQ(result.exit_code, 2) << args;
        EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
        EXPECT_TRUE(contains(result.err, "'gpu-on-fire'")) << result.err;
        EXPECT_TRUE(contains(result.err,
                             "no-gpu, launch-failure, cupti-unavailable, "
                             "cupti-permission, cupti-busy"))
            << result.err;
        EXPECT_EQ(result.out, "");
    }
}

TEST(FaultInjectionCli, AnEmptyVariableChangesNothing) {
    const auto result = run_with_fault("", "kernels --json");
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err, "");
}

}  // namespace
}  // namespace tclens
