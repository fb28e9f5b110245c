#pragma once
// How a test that needs a GPU turns what happened into check, skip or fail. It skips
// only for what the machine lacks (no GPU, no counter permission, counters busy, ...:
// ProfilerError::needs_resource) or for a refusal the kernel's descriptor documents
// (kernels::outside_documented_sizes); an error, a failed verification or a refusal of a size
// the descriptor promises fails. Pure functions of their arguments, so
// tests/unit/support/gpu_verdict_test.cpp shows them rejecting the bad cases without a GPU.

#include <string>

#include "kernels/registry.h"
#include "kernels/run_result.h"
#include "profiling/device_query.h"
#include "profiling/profiler_error.h"

namespace tclens::test {

enum class Verdict {
    kCheck,  // it ran: the test goes on to check the numbers
    kSkip,   // GTEST_SKIP with `reason`
    kFail,   // FAIL with `reason`
};

struct Outcome {
    Verdict verdict = Verdict::kCheck;
    std::string reason;  // one line; "" for kCheck
};

// What the descriptor documents for a GPU: its compute capability and opt-in shared memory (the
// free memory is not part of the contract and is not looked at).
kernels::DeviceLimits documented_limits(const profiling::DeviceFacts& device);

// A run of the GemmRunner (runner.h). `documented_refusal` is outside_documented_sizes() of the
// kernel and size on this GPU.
//   refused (run.skipped):  kSkip "refused: <why>" when documented_refusal is not "", else kFail
//                           "<kernel> refused <size>, which its descriptor documents as
//                           supported: <why>" (a broken can_run, or too little free memory);
//   an error:               kFail "<kernel> <size>: error: <text>";
//   not verified:           kFail with run_status();
//   else                    kCheck.
Outcome judge_run(const kernels::RunResult& run, const std::string& documented_refusal);

// The refusal part of judge_run alone, for a run that is meant to fail verification: kSkip or
// kFail for a refused run as above, kCheck for any run that was not refused.
Outcome judge_refusal(const kernels::RunResult& run, const std::string& documented_refusal);

// The documented refusal of `kernel` on `problem` on the first GPU of this machine
// (outside_documented_sizes with documented_limits); "" where the descriptor promises the size.
std::string documented_refusal_here(const kernels::KernelDescriptor& kernel,
                                    const kernels::GemmProblem& problem);

// A profiler's error. ok(): kCheck; needs_resource(): kSkip "<message>"; kInvalidRequest with a
// documented refusal: kSkip "refused: <message>"; anything else (kFailed, kBadMetric, an
// undocumented kInvalidRequest such as out of memory): kFail "<message>".
Outcome judge_profiler_error(const profiling::ProfilerError& error,
                             const std::string& documented_refusal = "");

}  // namespace tclens::test

// Inside a TEST body: skips on kSkip (GTEST_SKIP with "skipped: " + reason),
// fails and returns on kFail, does nothing on kCheck.
#define TCLENS_APPLY_VERDICT(outcome_expression)                             \
    do {                                                                     \
        const ::tclens::test::Outcome tclens_outcome = (outcome_expression); \
        if (tclens_outcome.verdict == ::tclens::test::Verdict::kSkip)        \
            GTEST_SKIP() << "skipped: " << tclens_outcome.reason;            \
        if (tclens_outcome.verdict == ::tclens::test::Verdict::kFail)        \
            FAIL() << tclens_outcome.reason;                                 \
    } while (0)
