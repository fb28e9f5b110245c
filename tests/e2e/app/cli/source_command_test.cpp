// `tclens source` without a GPU: one-line usage errors (exit 2), exit 3 with the reason where
// there is no GPU, and PC sampling refused (permission, busy, unsupported; injected through
// TCLENS_INJECT_FAULT) as one line with the fix, exit 3; all of them answered by the worker
// every source profile is taken in. With --kernel path.cu (a kernel of yours): bad input is one
// line and exit 2, no GPU is the worker's one line and exit 3, a worker that breaks is one line
// and exit 1 (the scripted stand-in, tests/data/scripted_worker.sh), and the profile a worker
// answers is printed with the lines of the user's file. Real source profiles are GPU tests
// (tests/gpu/profiling/source/source_collector_test.cpp,
// tests/gpu/app/cli/source_command_test.cpp).

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/worker/results.h"
#include "profiling/device_query.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"
#include "tests/support/user_kernel_files.h"

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

const std::string kExamples = std::string(TCLENS_SOURCE_DIR) + "/examples/";

TEST(SourceCommand, AKernelOfYoursThatIsBadInputIsOneLineAndExit2) {
    expect_source_usage_error("--kernel /nonexistent/k.cu", "/nonexistent/k.cu");
    expect_source_usage_error("--kernel ./kernel.py", "not a CUDA file");
    const std::string broken = test::write_kernel_file("broken.cu", test::kCompileErrorKernel);
    expect_source_usage_error("--kernel " + broken + " --mnk 64x64x64", "broken.cu:3: error:");
    expect_source_usage_error("--kernel " + kExamples + "exercise_mma.cu --mnk 64x64x64",
                              "run it with tclens exercise");
}

// The worker compiles the file (so it names the kernel's id) and says it cannot load it.
TEST(SourceCommand, AKernelOfYoursWithoutAGpuReachesTheWorkerAndExits3) {
    if (profiling::query_system().has_gpu()) GTEST_SKIP() << "skipped: this machine has a GPU";
    const auto result =
        run_command(kTclens + " source --kernel " + kExamples + "directive_gemm.cu --mnk 64x64x64");
    EXPECT_EQ(result.exit_code, 3) << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("yours.directive_gemm compiled, but loading it needs an NVIDIA GPU"),
              std::string::npos)
        << result.err;
    EXPECT_EQ(result.out, "");
}

TEST(SourceCommand, AWorkerThatBreaksIsOneLineAndExit1) {
    const std::string good = test::write_kernel_file("good.cu", test::kDirectiveKernel);
    const std::vector<std::pair<std::string, std::string>> modes = {
        {"crash",
         "died during the source request, at run 'yours.scripted 64x64x64' (killed by "
         "signal 11 (SIGSEGV))"},
        {"hang", "gave no answer for 0.5 s during the source request"},
        {"garbage", "not protocol during the source request"},
        {"fault", "faulted: an illegal memory access was encountered"}};
    for (const auto& [mode, said] : modes) {
        for (const std::string& kernel : {good, std::string("naive_fma.f32")}) {
            const auto result =
                run_command(kTclens + " source --kernel " + kernel +
                            " --mnk 64x64x64 --time-limit 0.5 " + test::scripted_worker(mode));
            EXPECT_EQ(result.exit_code, 1) << mode << "\n" << result.err;
            EXPECT_TRUE(test::is_one_line(result.err)) << mode << "\n" << result.err;
            EXPECT_NE(result.err.find(said), std::string::npos) << mode << "\n" << result.err;
            EXPECT_EQ(result.out, "") << mode;
        }
    }
}

// What a worker answers (here a scripted one) is what the command prints: the hottest lines are
// lines of the user's file, with its text; --json is the profile as the worker sent it.
TEST(SourceCommand, TheWorkersProfileIsPrintedWithTheLinesOfTheUsersFile) {
    profiling::SourceProfile profile;
    profile.kernel_id = "yours.scripted";
    profile.problem = {64, 64, 64};
    profile.device = "scripted GPU";
    profile.check.passed = true;
    profile.sass_how = "nvdisasm -c -gi tclens_shim.cubin";
    profile.functions = {"_Z4gemmiiiPKfS0_Pf"};
    profiling::InstructionProfile hmma;
    hmma.function = profile.functions.front();
    hmma.pc = 0x90;
    hmma.sass = "HMMA.1684.F32.TF32 R8, R4, R2, R8";
    hmma.opcode = "HMMA.1684.F32.TF32";
    hmma.frames = {{"/work/mine/scripted.cu", 3}};
    hmma.stalls = {{"math_pipe_throttle", 7}};
    hmma.samples = 7;
    profile.instructions = {hmma};
    profile.files = {{"/work/mine/scripted.cu", "// one\n// two\n    mma_here(acc);\n", "", {}}};
    const std::string fixture = test::temp_path("scripted_source.json");
    std::ofstream(fixture) << worker::to_json(worker::SourceResult{profile}).dump() << "\n";
    const std::string good = test::write_kernel_file("good.cu", test::kDirectiveKernel);
    const std::string scripted = " --worker 'SCRIPTED_SOURCE=" + fixture + " exec sh " +
                                 TCLENS_SOURCE_DIR + "/tests/data/scripted_worker.sh'";

    const auto table = run_command(kTclens + " source --kernel " + good + scripted);
    EXPECT_EQ(table.exit_code, 0) << table.err;
    EXPECT_NE(table.out.find("Hottest lines of scripted.cu"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("mma_here(acc);"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("scripted.cu:3"), std::string::npos) << table.out;

    const auto json = run_command(kTclens + " source --kernel " + good + " --json" + scripted);
    ASSERT_EQ(json.exit_code, 0) << json.err;
    const nlohmann::json j = nlohmann::json::parse(json.out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << json.out;
    EXPECT_EQ(j["kernel"], "yours.scripted");
    EXPECT_EQ(j["total_samples"], 7);
    EXPECT_EQ(j["files"][0]["path"], "/work/mine/scripted.cu");
    EXPECT_EQ(j["instructions"][0]["frames"][0]["line"], 3);
    std::remove(fixture.c_str());
}

}  // namespace
}  // namespace tclens
