// `tclens trace` without a GPU: one-line usage errors (exit 2) for kernels without trace points,
// bad sizes and bad --blocks, decided before any GPU is asked for; exit 3 where there is none.
// A kernel of yours (--kernel path.cu) goes to the worker: it compiles there and needs the GPU to
// load (exit 3); with the scripted worker (tests/data/scripted_worker.sh) the trace it answers is
// printed and written, and a worker that breaks is one line and exit 1.
// Traces themselves are GPU tests (tests/gpu/app/cli/trace_command_test.cpp).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "profiling/device_query.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"
#include "tests/support/user_kernel_files.h"

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

// Blocks outside 1 to 1024 are refused here; more than the kernel's grid on the size is the
// worker's to say (the persistent rungs' grid is its GPU's), before it asks for a GPU: a usage
// error on any machine.
TEST(TraceCommand, BlocksZeroNegativeOrTooManyAreUsageErrors) {
    expect_trace_usage_error("--kernel wgmma_ws.bf16 --blocks 0", "--blocks 0 must be 1 to 1024");
    expect_trace_usage_error("--kernel wgmma_ws.bf16 --blocks -2", "--blocks -2 must be 1 to 1024");
    expect_trace_usage_error("--kernel wgmma_ws.bf16 --mnk 512x512x512 --blocks 9",
                             "more than the 8 blocks");
    expect_trace_usage_error("--kernel wgmma_persistent.f16 --mnk 128x256x64 --blocks 200",
                             "blocks wgmma_persistent.f16 launches on this size");
    expect_trace_usage_error("--kernel wgmma_tma.f16 --blocks 5000", "--blocks 5000 must be 1 to");
    expect_trace_usage_error("--kernel wgmma_tma.f16 --mnk 8192x8192x64 --blocks 2000",
                             "--blocks 2000 must be 1 to 1024");
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

// The probe runs in the worker: without a GPU there, one line naming the worker's host, exit 3.
TEST(TraceCommand, ClockSkewWithoutAGpuSaysSoAndExits3) {
    if (profiling::query_system().has_gpu()) GTEST_SKIP() << "skipped: this machine has a GPU";
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    const auto result = test::run_command(kTclens + " trace --clock-skew");
    EXPECT_EQ(result.exit_code, 3) << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("tclens: no GPU on " + std::string(host) +
                              ": measuring the clock skew needs an NVIDIA GPU"),
              std::string::npos)
        << result.err;
    EXPECT_EQ(result.out, "");
}

// The probe's summary is the worker's (a canned one no GPU measures), printed as the line for
// people; after a trace it goes to the same worker.
TEST(TraceCommand, TheWorkersClockSkewIsPrinted) {
    const std::string dir = testing::TempDir();
    const std::string answer = dir + "tclens_scripted_clock_skew.json";
    const std::string log = dir + "tclens_scripted_clock_skew.log";
    std::ofstream(answer) << R"({"device":"Scripted H999","rounds":7,"blocks":132,)"
                             R"("distinct_sms":132,"min_spread_ns":424,"median_spread_ns":4242,)"
                             R"("max_spread_ns":42424,"median_clock_spread":99,"tick_ns":32})";
    std::remove(log.c_str());
    const auto result = test::run_command(
        kTclens + " trace --clock-skew --rounds 7 " +
        test::scripted_worker("none SCRIPTED_CLOCK_SKEW=" + answer + " SCRIPTED_LOG=" + log));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(test::read_file(log), "hello\nclock_skew\nshutdown\n");
    EXPECT_NE(result.out.find("over 7 rounds of 132 blocks on 132 SMs: min 424 ns, median 4242 "
                              "ns, max 42424 ns (tick 32 ns"),
              std::string::npos)
        << result.out;
}

TEST(TraceCommand, WithoutAGpuItSaysSoAndExits3) {
    if (profiling::query_system().has_gpu()) GTEST_SKIP() << "skipped: this machine has a GPU";
    const auto result = test::run_command(kTclens + " trace --kernel wgmma_ws.bf16");
    EXPECT_EQ(result.exit_code, 3) << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("needs an NVIDIA GPU"), std::string::npos) << result.err;
}

const std::string kTracedExample = std::string(TCLENS_SOURCE_DIR) + "/examples/traced_wmma.cu";

// A trace result as the worker answers one: two blocks of four warps of yours.traced_wmma.
const char* const kScriptedTrace =
    R"({"trace":{"kernel":"yours.traced_wmma","m":128,"n":128,"k":64,"blocks_launched":4,)"
    R"("blocks_traced":2,"warps_per_block":4,"wgmma_per_phase":1,"dropped":0,)"
    R"("kernel_ms":0.012,"untraced_ms":0.01,"phases":[[0,0,5,"load_issue",0,0,100,180],)"
    R"([0,0,5,"full_wait",0,100,150,60],[0,0,5,"mma_sync",0,150,400,450],)"
    R"([1,3,7,"store",-1,20,90,120]]}})";

TEST(TraceCommand, AKernelFileIsCheckedBeforeAWorkerStarts) {
    expect_trace_usage_error("--kernel /nonexistent/k.cu", "/nonexistent/k.cu");
    expect_trace_usage_error("--kernel ./kernel.py", "not a CUDA file");
    expect_trace_usage_error("--kernel " + kTracedExample + " --blocks 0",
                             "--blocks 0 must be 1 to 1024");
    expect_trace_usage_error("--kernel " + kTracedExample + " --mnk 0x64x64", "'0x64x64'");
    const std::string broken = test::write_kernel_file("broken.cu", test::kCompileErrorKernel);
    expect_trace_usage_error("--kernel " + broken + " --mnk 64x64x64", "broken.cu:");
}

TEST(TraceCommand, AKernelOfYoursReachesTheWorkerAndWithoutAGpuExits3) {
    if (profiling::query_system().has_gpu()) GTEST_SKIP() << "skipped: this machine has a GPU";
    const auto result =
        test::run_command(kTclens + " trace --kernel " + kTracedExample + " --mnk 128x128x64");
    EXPECT_EQ(result.exit_code, 3) << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    // The worker compiled it (NVRTC, with the trace header) and could not load it.
    EXPECT_NE(result.err.find("yours.traced_wmma compiled, but loading it needs an NVIDIA GPU"),
              std::string::npos)
        << result.err;
    EXPECT_EQ(result.out, "");
}

TEST(TraceCommand, TheWorkersTraceOfAKernelOfYoursIsPrintedAndWritten) {
    const std::string dir = testing::TempDir();
    const std::string answer = dir + "tclens_scripted_trace.json";
    const std::string log = dir + "tclens_scripted_trace.log";
    const std::string out = dir + "tclens_trace_out.json";
    std::ofstream(answer) << kScriptedTrace;
    std::remove(log.c_str());
    std::remove(out.c_str());
    const std::string good = test::write_kernel_file("good.cu", test::kDirectiveKernel);
    const auto result = test::run_command(
        kTclens + " trace --kernel " + good + " --mnk 128x128x64 --blocks 2 --json " + out + " " +
        test::scripted_worker("none SCRIPTED_TRACE=" + answer + " SCRIPTED_LOG=" + log));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(test::read_file(log), "hello\nload\ntrace\nshutdown\n");
    EXPECT_NE(result.out.find("yours.traced_wmma 128x128x64: 2 of 4 blocks traced, 4 warps each"),
              std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("traced 0.0120 ms, untraced 0.0100 ms, overhead +20.0 %"),
              std::string::npos)
        << result.out;
    // Each phase in words, its id last.
    EXPECT_NE(result.out.find("\nissues loads "), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("%  load_issue\n"), std::string::npos) << result.out;
    const nlohmann::json written = nlohmann::json::parse(test::read_file(out), nullptr, false);
    ASSERT_FALSE(written.is_discarded());
    EXPECT_EQ(written, nlohmann::json::parse(kScriptedTrace)["trace"]);
}

TEST(TraceCommand, AWorkerThatBreaksDuringATraceIsOneLineAndExit1) {
    const std::string good = test::write_kernel_file("good.cu", test::kDirectiveKernel);
    const auto result =
        test::run_command(kTclens + " trace --kernel " + good +
                          " --mnk 64x64x64 --time-limit 0.5 " + test::scripted_worker("crash"));
    EXPECT_EQ(result.exit_code, 1) << result.err;
    EXPECT_NE(test::last_line(result.err).find("died during the trace request"), std::string::npos)
        << result.err;
    EXPECT_EQ(result.out, "");
}

}  // namespace
}  // namespace tclens
