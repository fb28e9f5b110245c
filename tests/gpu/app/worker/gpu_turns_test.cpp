// GPU turns (app/worker/gpu_turns.h) between whole `tclens` clients on one GPU: two profiles
// (one of them a live timeline) at once both get their profiles, the second waiting its turn
// instead of failing with "counters busy"; two benches at once keep their medians within noise of
// an idle run; a worker killed while it holds the turn does not block the next one.

#include "app/worker/gpu_turns.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "tests/gpu/gpu_test_support.h"
#include "tests/support/run_command.h"
#include "tests/support/source_dir.h"
#include "tests/support/tclens_binary.h"
#include "tests/support/user_kernel_files.h"

namespace tclens {
namespace {

const std::string kTurnsTclens = "cd " + test::kSource + " && " + test::kTclens;

// A profile that could not run for want of permission is skipped; "counters busy" is a failure.
void expect_profiled(const test::CommandResult& result) {
    if (result.exit_code == 3 && result.err.find("busy") == std::string::npos)
        GTEST_SKIP() << "skipped: " << result.err;
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json profile = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(profile.is_discarded()) << result.out;
    EXPECT_EQ(profile["kernel"], "yours.directive_gemm");
}

// The median of the one row of yours.directive_gemm in a `bench --json` output.
double median_ms(const test::CommandResult& result) {
    EXPECT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json report = nlohmann::json::parse(result.out, nullptr, false);
    if (report.is_discarded()) return 0;
    for (const nlohmann::json& row : report["results"])
        if (row["kernel"] == "yours.directive_gemm") return row["median_ms"].get<double>();
    return 0;
}

// The live pid written in the lock file of this process's GPU (the first CUDA device, as the
// worker takes it: app/worker/gpu_turn_wait.cpp), its turn's holder; 0 when none. Only this GPU's:
// on a host whose other GPUs run other tests, another lock may hold another test's worker.
int turn_holder() {
    const profiling::SystemReport system = profiling::query_system();
    if (!system.has_gpu()) return 0;
    int pid = 0;
    std::ifstream(worker::gpu_turn_lock_file(system.devices.front().pci_bus_id)) >> pid;
    return pid > 0 && kill(pid, 0) == 0 ? pid : 0;
}

TEST(GpuTurnsOnGpu, TwoProfilesAndALiveTimelineOfOneGpuAtOnceAllGetTheirProfiles) {
    TCLENS_REQUIRE_GPU();
    const std::string profile =
        kTurnsTclens + " profile --kernel examples/directive_gemm.cu --mnk 2048x2048x2048 --json";
    test::BackgroundCommand first(profile);
    test::BackgroundCommand second(profile);
    test::BackgroundCommand live(profile + " --timeline");
    const test::CommandResult a = first.finish();
    const test::CommandResult b = second.finish();
    const test::CommandResult c = live.finish();
    std::printf("waited: %s | %s | %s\n", a.err.c_str(), b.err.c_str(), c.err.c_str());
    expect_profiled(a);
    expect_profiled(b);
    expect_profiled(c);
}

TEST(GpuTurnsOnGpu, TwoBenchesAtOnceKeepTheirMediansWithinNoiseOfAnIdleRun) {
    TCLENS_REQUIRE_GPU();
    const std::string bench = kTurnsTclens +
                              " bench --kernel examples/directive_gemm.cu --mnk 4096x4096x4096 "
                              "--runs 50 --no-peak --json";
    const double idle = median_ms(test::run_command(bench));
    test::BackgroundCommand first(bench);
    test::BackgroundCommand second(bench);
    const double a = median_ms(first.finish());
    const double b = median_ms(second.finish());
    std::printf("median: idle %.4f ms, at once %.4f and %.4f ms\n", idle, a, b);
    ASSERT_GT(idle, 0);
    // Sharing the GPU would double a median; the run-to-run noise of a 4096^3 GEMM is ~1 %.
    EXPECT_NEAR(a, idle, 0.05 * idle);
    EXPECT_NEAR(b, idle, 0.05 * idle);
}

TEST(GpuTurnsOnGpu, AWorkerKilledWhileHoldingTheTurnDoesNotBlockTheNextOne) {
    TCLENS_REQUIRE_GPU();
    const std::string spin = test::write_kernel_file(
        "turn_spin.cu",
        "// tclens: grid=(1, 1) block=32 type=f32\n"
        "__global__ void turn_spin(int M, int N, int K, const float* A, const float* B, float* "
        "C) {\n"
        "    if (threadIdx.x == 0) { long long t; do { t = clock64(); } while (t >= 0); }\n"
        "}\n");
    test::BackgroundCommand hang(kTurnsTclens + " bench --kernel " + spin +
                                 " --mnk 256x256x256 --no-peak --time-limit 120");
    int holder = 0;
    for (int i = 0; i < 600 && holder == 0; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        holder = turn_holder();
    }
    ASSERT_GT(holder, 0) << "the hanging bench never took the turn";
    ASSERT_EQ(kill(holder, SIGKILL), 0);
    const auto start = std::chrono::steady_clock::now();
    const test::CommandResult next = test::run_command(
        kTurnsTclens + " bench --kernel examples/directive_gemm.cu --mnk 256x256x256 --no-peak");
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(next.exit_code, 0) << next.err;
    EXPECT_LT(took, 60) << "the next bench waited for a dead worker's turn";
    hang.finish();
}

}  // namespace
}  // namespace tclens
