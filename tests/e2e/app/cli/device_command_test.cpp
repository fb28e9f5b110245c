// End-to-end checks of `tclens device`: its report is a worker's hello; it takes --json and the
// worker options only, and with no GPU (injected, which the worker inherits) it still answers,
// exit 0, saying why there is none.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/cli_checks.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"
#include "tests/support/user_kernel_files.h"

namespace tclens {
namespace {

using test::kTclens;

TEST(BadInput, DeviceTakesOnlyJson) {
    test::expect_usage_errors(kTclens,
                              {{"device --bogus", {"--bogus"}}, {"device extra", {"extra"}}});
}

TEST(FaultInjectionCli, NoGpuDeviceJsonStillExits0WithGpuFoundFalse) {
    const auto result = test::run_with_fault(kTclens, "no-gpu", "device --json");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json report = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(report.is_discarded()) << result.out;
    EXPECT_EQ(report["gpu_found"], false);
    EXPECT_TRUE(report["devices"].empty());
    EXPECT_EQ(report["no_gpu_reason"], "TCLENS_INJECT_FAULT=no-gpu hides every GPU");

    const auto table = test::run_with_fault(kTclens, "no-gpu", "device");
    EXPECT_EQ(table.exit_code, 0) << table.err;
    EXPECT_TRUE(test::contains(table.out, "reason: TCLENS_INJECT_FAULT=no-gpu")) << table.out;
    const auto version = test::run_with_fault(kTclens, "no-gpu", "--version");
    EXPECT_EQ(version.exit_code, 0) << version.err;
    EXPECT_TRUE(test::contains(version.out, "GPU: none found (TCLENS_INJECT_FAULT=no-gpu"))
        << version.out;
}

TEST(DeviceCommand, TheReportIsTheWorkersHello) {
    const auto result =
        test::run_command(kTclens + " device --json " + test::scripted_worker("none"));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json report = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(report.is_discarded()) << result.out;
    EXPECT_EQ(report["no_gpu_reason"], "scripted");  // the scripted worker's, not this machine's
    EXPECT_FALSE(report.contains("host")) << "named with --remote only";
}

TEST(DeviceCommand, AWorkerThatCannotStartIsOneLineAndExit3) {
    const auto result = test::run_command(kTclens + " device --worker 'exit 7'");
    EXPECT_EQ(result.exit_code, 3) << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_TRUE(test::contains(result.err, "cannot start the worker `exit 7`")) << result.err;
    EXPECT_EQ(result.out, "");
}

}  // namespace
}  // namespace tclens
