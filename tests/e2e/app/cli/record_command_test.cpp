// `tclens record` before any GPU work: usage errors (exit 2, one line naming the value), an
// unwritable path (exit 1, nothing left behind), and exit 3 where there is no GPU. Real
// recordings are made on a GPU (the lead's run that writes assets/recordings/h100.json).

#include <gtest/gtest.h>

#include <filesystem>

#include "profiling/device_info.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"
#include "tests/support/user_kernel_files.h"

namespace tclens {
namespace {

namespace fs = std::filesystem;
using test::run_command;

using test::kTclens;

void expect_record_usage_error(const std::string& args, const std::string& named) {
    const std::string path = test::temp_path("usage.json");
    const auto result = run_command(kTclens + " record " + path + " " + args);
    EXPECT_EQ(result.exit_code, 2) << args << "\n" << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << args << "\n" << result.err;
    EXPECT_NE(result.err.find(named), std::string::npos) << args << "\n" << result.err;
    EXPECT_EQ(result.out, "") << args;
    EXPECT_FALSE(fs::exists(path)) << args;
}

TEST(RecordCommand, BadArgumentsAreUsageErrors) {
    expect_record_usage_error("--mnk 0x64x64", "'0x64x64'");
    expect_record_usage_error("--mnk abc", "'abc'");
    expect_record_usage_error("--preset huge", "'huge'");
    expect_record_usage_error("--kernels naive_fma.f32,warp_speed", "'warp_speed'");
    expect_record_usage_error("--timeline-ms 5", "--timeline-ms");
    expect_record_usage_error("--no-timelines --timeline-ms 500", "--no-timelines");
    expect_record_usage_error("--colour red", "--colour");
}

TEST(RecordCommand, FileIsRequired) {
    const auto result = run_command(kTclens + " record");
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("FILE"), std::string::npos) << result.err;
}

TEST(RecordCommand, UnwritablePathExits1AndLeavesNothing) {
    const std::string folder = test::temp_path("no_such_folder");
    const std::string path = folder + "/r.json";
    const auto result = run_command(kTclens + " record " + path + " --mnk 64x64x64");
    EXPECT_EQ(result.exit_code, 1) << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find(path), std::string::npos) << result.err;
    EXPECT_FALSE(fs::exists(folder));

    const std::string directory = test::temp_path("a_directory");
    fs::create_directory(directory);
    const auto onto_directory = run_command(kTclens + " record " + directory);
    EXPECT_EQ(onto_directory.exit_code, 1) << onto_directory.err;
    EXPECT_TRUE(test::is_one_line(onto_directory.err)) << onto_directory.err;
    EXPECT_NE(onto_directory.err.find("directory"), std::string::npos) << onto_directory.err;
    EXPECT_TRUE(fs::is_empty(directory));
    EXPECT_FALSE(fs::exists(directory + ".tmp"));
    fs::remove(directory);
}

TEST(RecordCommand, WithoutAGpuExits3AndWritesNothing) {
    if (profiling::query_system().has_gpu()) GTEST_SKIP() << "skipped: this machine has a GPU";
    const std::string path = test::temp_path("no_gpu.json");
    const auto result = run_command(kTclens + " record " + path);
    EXPECT_EQ(result.exit_code, 3);
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("GPU"), std::string::npos) << result.err;
    EXPECT_FALSE(fs::exists(path));
    EXPECT_FALSE(fs::exists(path + ".tmp"));
}

TEST(RecordCommand, HelpStatesTheDefaultsAndTheirCost) {
    const auto result = run_command(kTclens + " record --help");
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_NE(result.out.find("4096x4096x4096"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("s on an H100"), std::string::npos) << result.out;  // its cost
    EXPECT_NE(result.out.find("--no-timelines"), std::string::npos) << result.out;
}

TEST(RecordCommand, AUsersKernelIsCheckedBeforeAnyWork) {
    expect_record_usage_error("--kernel kernel.py", "not a CUDA file");
    expect_record_usage_error("--kernel k.cu:9bad", "'9bad'");
}

}  // namespace
}  // namespace tclens
