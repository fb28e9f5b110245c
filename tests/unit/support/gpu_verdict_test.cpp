// Tests of tests/support/gpu_verdict.*: what the GPU tests skip and what they fail, shown on
// made-up results without a GPU. The bad cases (an error, a failed check, a refusal the
// descriptor does not document, too little free memory, out of memory) must fail, not pass or
// skip.
#include "tests/support/gpu_verdict.h"

#include <gtest/gtest.h>

namespace tclens::test {
namespace {

using profiling::profiler_error;
using profiling::ProfilerProblem;

kernels::RunResult verified_run() {
    kernels::RunResult run;
    run.kernel_id = "wmma.f16";
    run.problem = {256, 256, 256};
    run.check.passed = true;
    run.check.reference = "cpu.fp64";
    return run;
}

TEST(JudgeRun, AVerifiedRunIsChecked) {
    const Outcome outcome = judge_run(verified_run(), "");
    EXPECT_EQ(outcome.verdict, Verdict::kCheck);
    EXPECT_EQ(outcome.reason, "");
}

TEST(JudgeRun, ADocumentedRefusalIsSkippedWithItsReason) {
    kernels::RunResult run = verified_run();
    run.problem = {4097, 129, 77};
    run.check.passed = false;
    run.skipped = "K must be a multiple of 8: rows of A are copied in 16-byte pieces";
    const Outcome outcome = judge_run(run, "K = 77 is not a multiple of 8");
    EXPECT_EQ(outcome.verdict, Verdict::kSkip);
    EXPECT_EQ(outcome.reason, "refused: " + run.skipped);
}

TEST(JudgeRun, ARefusalOfADocumentedSizeFails) {
    kernels::RunResult run = verified_run();
    run.check.passed = false;
    run.skipped = "K must be a multiple of 16";  // a can_run stricter than its descriptor
    const Outcome outcome = judge_run(run, "");
    EXPECT_EQ(outcome.verdict, Verdict::kFail);
    EXPECT_EQ(outcome.reason,
              "wmma.f16 refused 256x256x256, which its descriptor documents as supported: K must "
              "be a multiple of 16");
    // Too little free memory is no documented refusal either.
    run.skipped = "256x256x256 needs 0.00 GiB (393216 bytes) of GPU memory; 0.00 GiB are free";
    EXPECT_EQ(judge_run(run, "").verdict, Verdict::kFail);
}

TEST(JudgeRun, AnErrorOrAFailedCheckFails) {
    kernels::RunResult run = verified_run();
    run.error = "cudaErrorLaunchFailure: unspecified launch failure";
    Outcome outcome = judge_run(run, "");
    EXPECT_EQ(outcome.verdict, Verdict::kFail);
    EXPECT_EQ(outcome.reason,
              "wmma.f16 256x256x256: error: cudaErrorLaunchFailure: unspecified launch failure");

    run = verified_run();
    run.check.passed = false;
    run.check.nan_count = 7;
    outcome = judge_run(run, "");
    EXPECT_EQ(outcome.verdict, Verdict::kFail);
    EXPECT_NE(outcome.reason.find("NOT VERIFIED"), std::string::npos) << outcome.reason;
    // A documented refusal does not excuse a run that ran and failed.
    EXPECT_EQ(judge_run(run, "K = 77 is not a multiple of 8").verdict, Verdict::kFail);
}

// For a run meant to fail verification (a planted bug): only the refusal is judged, by the
// descriptor's contract, whatever words the refusal uses.
TEST(JudgeRefusal, SkipsOnlyADocumentedRefusalAndLeavesAnyRunToTheTest) {
    kernels::RunResult run = verified_run();
    run.check.passed = false;  // ran, and failed verification as planted
    EXPECT_EQ(judge_refusal(run, "").verdict, Verdict::kCheck);
    run.skipped = "needs sm_90a (this GPU is sm_80)";
    EXPECT_EQ(judge_refusal(run, "wgmma_fp8.e4m3 needs sm_90 or newer; this GPU is sm_80").verdict,
              Verdict::kSkip);
    // The same words without the contract's refusal: a broken can_run, not a skip.
    EXPECT_EQ(judge_refusal(run, "").verdict, Verdict::kFail);
}

TEST(JudgeProfilerError, ResourcesSkipEverythingElseFails) {
    EXPECT_EQ(judge_profiler_error({}).verdict, Verdict::kCheck);
    for (ProfilerProblem problem :
         {ProfilerProblem::kNoGpu, ProfilerProblem::kPermission, ProfilerProblem::kBusy,
          ProfilerProblem::kOtherTool, ProfilerProblem::kUnsupported}) {
        const Outcome outcome = judge_profiler_error(profiler_error(problem, "counters busy"));
        EXPECT_EQ(outcome.verdict, Verdict::kSkip);
        EXPECT_EQ(outcome.reason, "counters busy");
    }
    for (ProfilerProblem problem : {ProfilerProblem::kFailed, ProfilerProblem::kBadMetric,
                                    ProfilerProblem::kInvalidRequest}) {
        const Outcome outcome = judge_profiler_error(profiler_error(problem, "it broke"));
        EXPECT_EQ(outcome.verdict, Verdict::kFail);
        EXPECT_EQ(outcome.reason, "it broke");
    }
}

// The kernel profile test's case: out of memory and a refusal both come back as
// kInvalidRequest; only the one the descriptor documents (no wgmma before Hopper) is skipped.
TEST(JudgeProfilerError, OutOfMemoryFailsADocumentedRefusalSkips) {
    const profiling::ProfilerError out_of_memory = profiler_error(
        ProfilerProblem::kInvalidRequest,
        "preparing inputs for wgmma_tma.bf16: cudaErrorMemoryAllocation: out of memory");
    EXPECT_EQ(judge_profiler_error(out_of_memory, "").verdict, Verdict::kFail);
    const profiling::ProfilerError refused =
        profiler_error(ProfilerProblem::kInvalidRequest,
                       "wgmma_tma.bf16 cannot run 128x32768x8192 here: wgmma_tma.bf16 needs sm_90 "
                       "or newer; this GPU is sm_80");
    const Outcome outcome =
        judge_profiler_error(refused, "wgmma_tma.bf16 needs sm_90 or newer; this GPU is sm_80");
    EXPECT_EQ(outcome.verdict, Verdict::kSkip);
    EXPECT_EQ(outcome.reason, "refused: " + refused.message);
    // A kFailed error stays a failure whatever the descriptor says.
    EXPECT_EQ(
        judge_profiler_error(profiler_error(ProfilerProblem::kFailed, "x"), "documented").verdict,
        Verdict::kFail);
}

TEST(DocumentedLimits, TakesTheArchitectureAndSharedMemoryOnly) {
    profiling::DeviceFacts h100;
    h100.cc_major = 9;
    h100.cc_minor = 0;
    h100.smem_per_block_optin = 232448;
    const kernels::DeviceLimits limits = documented_limits(h100);
    EXPECT_EQ(limits.sm, 90);
    EXPECT_EQ(limits.smem_per_block_optin, 232448);
    EXPECT_LT(limits.free_memory_bytes, 0) << "free memory is no part of the contract";
}

}  // namespace
}  // namespace tclens::test
