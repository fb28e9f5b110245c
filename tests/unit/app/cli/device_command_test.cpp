// End-to-end checks of `tclens device`: it takes only --json, and with no GPU (injected) it still
// answers, exit 0, saying why there is none.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/cli_checks.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"

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

}  // namespace
}  // namespace tclens
