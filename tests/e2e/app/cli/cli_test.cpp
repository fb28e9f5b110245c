// End-to-end checks of the `tclens` binary's command line: exit codes and one-line errors, and
// TCLENS_INJECT_FAULT checked before any command runs (an unknown name is exit 2; an empty one
// changes nothing). None of these needs a GPU or a display.

#include <gtest/gtest.h>

#include <regex>

#include "tests/support/cli_checks.h"
#include "tests/support/run_command.h"
#include "tests/support/scripted_gpu.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

using test::run_command;

using test::kTclens;

TEST(Cli, HelpListsWorkingSubcommands) {
    const auto result = run_command(kTclens + " --help");
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_NE(result.out.find("device"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("--version"), std::string::npos);
}

TEST(Cli, VersionNamesRuntimeAndGpuState) {
    const auto result = run_command(kTclens + " --version");
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_EQ(result.out.rfind("tclens ", 0), 0u) << result.out;
    EXPECT_NE(result.out.find("CUDA runtime"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("GPU"), std::string::npos) << result.out;
}

// --version names the GPUs its worker's hello names ($TCLENS_WORKER: here a scripted one with a
// GPU no machine has), not what this process would find; a worker that cannot start is a line of
// the output, never a failure.
TEST(Cli, VersionNamesTheWorkersGpus) {
    const auto result =
        run_command("env TCLENS_WORKER='" + test::scripted_gpu_worker("SCRIPTED_WORKER=none") +
                    "' " + kTclens + " --version");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("\nGPU 0: Scripted H999 (sm_90, 999 SMs)\n"), std::string::npos)
        << result.out;
    const auto lost = run_command("env TCLENS_WORKER='exit 7' " + kTclens + " --version");
    EXPECT_EQ(lost.exit_code, 0) << lost.err;
    EXPECT_NE(lost.out.find("\nCUDA runtime, driver and GPUs: unknown ("), std::string::npos)
        << lost.out;
    EXPECT_NE(lost.out.find("\nassets: "), std::string::npos) << lost.out;
}

// The commit the binary was built from (cmake/SourceCommit.cmake): HEAD's, and "+dirty." with the
// tree's hash when the tree differed from it.
TEST(Cli, VersionNamesTheCommitItWasBuiltFrom) {
    const auto result = run_command(kTclens + " --version");
    std::smatch commit;
    ASSERT_TRUE(std::regex_search(
        result.out, commit, std::regex("\ncommit: ([0-9a-f]{12})(\\+dirty\\.[0-9a-f]{8})?\n")))
        << result.out;
    const auto head =
        run_command(std::string("git -C ") + TCLENS_SOURCE_DIR + " rev-parse --short=12 HEAD");
    if (head.exit_code == 0) {
        EXPECT_EQ(commit[1].str() + "\n", head.out) << "built before the last commit?";
    }
}

TEST(Cli, UnknownSubcommandIsUsageError) {
    const auto result = run_command(kTclens + " frobnicate");
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("frobnicate"), std::string::npos) << result.err;
}

TEST(Cli, BadFrameCountIsUsageError) {
    for (const char* bad : {"0", "-3", "abc", "99999999999"}) {
        const auto result = run_command(kTclens + " --frames " + bad);
        EXPECT_EQ(result.exit_code, 2) << bad;
        EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    }
}

TEST(Cli, DeviceJsonIsValidWithOrWithoutGpu) {
    const auto result = run_command(kTclens + " device --json");
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_NE(result.out.find("\"gpu_found\""), std::string::npos) << result.out;
}

TEST(FaultInjectionCli, UnknownFaultIsAUsageErrorListingTheValidOnes) {
    for (const std::string args : {"kernels", "device --json", "bench --mnk 64x64x64"}) {
        const auto result = test::run_with_fault(kTclens, "gpu-on-fire", args);
        EXPECT_EQ(result.exit_code, 2) << args;
        EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
        EXPECT_TRUE(test::contains(result.err, "'gpu-on-fire'")) << result.err;
        EXPECT_TRUE(test::contains(result.err,
                                   "no-gpu, launch-failure, cupti-unavailable, "
                                   "cupti-permission, cupti-busy"))
            << result.err;
        EXPECT_EQ(result.out, "");
    }
}

TEST(FaultInjectionCli, AnEmptyVariableChangesNothing) {
    const auto result = test::run_with_fault(kTclens, "", "kernels --json");
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err, "");
}

}  // namespace
}  // namespace tclens
