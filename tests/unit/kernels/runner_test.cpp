// The runner's pure parts: guard-zone sizes and texts, and how a result reads.
#include "kernels/runner.h"

#include <gtest/gtest.h>

#include <cmath>

#include "kernels/registry.h"
#include "kernels/run_result.h"

namespace tclens::kernels {
namespace {

// The e4m3 bound is runner.h's model, eps sqrt(K / 2) with eps = 2^-13, doubled: 5.5e-3 at
// K = 4096, and it grows as sqrt(K) beyond, as the model does.
TEST(Runner, E4m3BoundIsTwiceTheAccumulationModel) {
    const double eps = std::ldexp(1.0, -13);
    auto model = [&](double k) { return eps * std::sqrt(k / 2); };
    EXPECT_NEAR(model(4096), 5.5e-3, 0.05e-3);
    EXPECT_NEAR(verification_bound(Precision::kE4M3, 4096) / model(4096), 2.0, 0.01);
    EXPECT_NEAR(verification_bound(Precision::kE4M3, 16384) / model(16384), 2.0, 0.01);
    EXPECT_DOUBLE_EQ(verification_bound(Precision::kE4M3, 1024),
                     verification_bound(Precision::kE4M3, 4096));
    // Order 1 errors (a transposed B, a lost K step) are far above it at every K the ladder runs.
    EXPECT_LT(verification_bound(Precision::kE4M3, 65536), 0.05);
}

TEST(Runner, GuardZoneSizes) {
    EXPECT_EQ(guard_zone_bytes(16384), 4 << 20);     // a 4096-column f32 C: 256 rows
    EXPECT_EQ(guard_zone_bytes(4), 64 << 10);        // at least 64 KiB
    EXPECT_EQ(guard_zone_bytes(1 << 20), 16 << 20);  // at most 16 MiB
    EXPECT_EQ(guard_zone_bytes(258) % 256, 0);       // whole 256-byte pieces keep alignment
    EXPECT_GE(guard_zone_bytes(258), 256 * 258);
}

TEST(Runner, GuardViolationsAreOneLine) {
    EXPECT_EQ(guard_violation_text("C", true, 3072, 0, 65536),
              "wrote outside C: 3072 bytes in the 65536-byte guard zone after its end (nearest: "
              "0 bytes past the end)");
    EXPECT_EQ(guard_violation_text("A", false, 4, 12, 65536),
              "wrote outside A: 4 bytes in the 65536-byte guard zone before its start (nearest: "
              "12 bytes before the start)");
}

TEST(Runner, OutOfBoundsComesBeforeTheComparison) {
    RunResult r;
    r.check.passed = false;
    r.check.nan_count = 3;
    r.check.out_of_bounds = "wrote outside C: 1 bytes";
    EXPECT_EQ(run_status(r), "NOT VERIFIED: wrote outside C: 1 bytes");
    r.check.out_of_bounds.clear();
    EXPECT_EQ(run_status(r), "NOT VERIFIED: 3 elements not written (NaN)");
}

// A C whose relative RMS error is within the bound but with elements far off fails, and says
// both: how many are wrong and that the RMS alone would have passed it.
TEST(Runner, WrongElementsFailWithinTheRmsBound) {
    RunResult r;
    r.problem = {9136, 3680, 80};
    r.check.passed = false;
    r.check.rel_rms_error = 3.1e-3;
    r.check.bound = 1e-2;
    r.check.reference = "cublas.sgemm";
    r.check.wrong_elements = 1904;
    EXPECT_EQ(run_status(r),
              "NOT VERIFIED: 1904 of 33620480 elements wrong (beyond the element tolerance; rel. "
              "RMS error 3.1e-03 within bound 1e-02 vs cublas.sgemm)");
    r.check.rel_rms_error = 2e-2;  // beyond the bound: the RMS says it
    EXPECT_EQ(run_status(r), "NOT VERIFIED: rel. RMS error 2.00e-02 > bound 1e-02 vs cublas.sgemm");
}

// What the checks of a kernel of yours' timed launches catch (runner.h, step 4), on made-up
// counts: 4 timed launches of a 64-element C, bound 1e-2.
TEST(TimedLaunchesCaught, AnHonestSeriesIsNothing) {
    EXPECT_EQ(timed_launches_caught({0, 0, 0, 0}, 0, 64, 1e-6, 1e-2), "");
}

TEST(TimedLaunchesCaught, CUnwrittenEvenWhenIdleIsSkippedWork) {
    // Work on its first call only (the verification): every timed launch leaves C as poisoned.
    EXPECT_EQ(timed_launches_caught({64, 64, 64, 64}, 64, 64, NAN, 1e-2),
              "timed launch 1 of 4 left 64 of 64 elements of C unwritten: the launcher skipped "
              "work (done on an earlier call, or for a C it had filled before)");
    // Every other launch skipped: the first that did is named; the last one's C was written.
    EXPECT_NE(timed_launches_caught({0, 64, 0, 64}, 64, 64, NAN, 1e-2).find("timed launch 2 of 4"),
              std::string::npos);
}

TEST(TimedLaunchesCaught, CWrittenOnlyOnceIdleIsWorkLeftOnAnotherStream) {
    EXPECT_EQ(timed_launches_caught({64, 64, 60, 64}, 0, 64, 1e-6, 1e-2),
              "the launcher returned before its work ran: work left on another stream (C was not "
              "written when timed launch 1 of 4 returned; it was once the GPU was idle)");
}

TEST(TimedLaunchesCaught, AWrongLastCIsCaughtEvenWhenWritten) {
    EXPECT_EQ(timed_launches_caught({0, 0, 0, 0}, 0, 64, 0.5, 1e-2),
              "the last timed launch's C is wrong: rel. RMS error 5.0e-01 > bound 1e-02 against "
              "the reference of its inputs");
    EXPECT_NE(timed_launches_caught({0, 0, 0, 0}, 0, 64, NAN, 1e-2), "") << "NaN is never within";
}

TEST(RunResult, ARefusedResultKeepsItsLineAndNoNumber) {
    RunResult r;
    r.check.passed = true;
    r.timed_runs = 30;
    r.median_ms = r.min_ms = r.max_ms = 0.001;
    r.tflops = 74051.0;
    ASSERT_TRUE(r.counts());
    r.refuse("the launcher returned before its work ran: work left on another stream");
    EXPECT_FALSE(r.counts());
    EXPECT_EQ(r.tflops, 0);
    EXPECT_EQ(r.median_ms, 0);
    EXPECT_EQ(r.min_ms, 0);
    EXPECT_EQ(r.max_ms, 0);
    EXPECT_EQ(run_status(r),
              "REFUSED: the launcher returned before its work ran: work left on another stream");
}

// The model registry's descriptors describe only; given to the runner, one says so instead of
// calling an empty std::function (which throws), with or without a GPU.
TEST(Runner, RefusesADescriptorWithoutALaunch) {
    KernelDescriptor described = *find_kernel("naive_fma.f32");
    described.launch = nullptr;
    GemmRunner runner;
    const RunResult result = runner.run(described, {64, 64, 64}, RunOptions{});
    EXPECT_EQ(result.error, missing_launch_text("naive_fma.f32"));
    EXPECT_NE(result.error.find("naive_fma.f32 has no launch"), std::string::npos);
    EXPECT_TRUE(result.failed());
}

}  // namespace
}  // namespace tclens::kernels
