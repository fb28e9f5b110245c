#include "tests/support/gpu_verdict.h"

#include "kernels/problem_text.h"

namespace tclens::test {

kernels::DeviceLimits documented_limits(const profiling::DeviceFacts& device) {
    kernels::DeviceLimits limits;
    limits.sm = device.cc_major * 10 + device.cc_minor;
    limits.smem_per_block_optin = static_cast<int>(device.smem_per_block_optin);
    return limits;
}

Outcome judge_refusal(const kernels::RunResult& run, const std::string& documented_refusal) {
    if (run.skipped.empty()) return {Verdict::kCheck, ""};
    if (!documented_refusal.empty()) return {Verdict::kSkip, "refused: " + run.skipped};
    return {Verdict::kFail, run.kernel_id + " refused " + kernels::problem_text(run.problem) +
                                ", which its descriptor documents as supported: " + run.skipped};
}

std::string documented_refusal_here(const kernels::KernelDescriptor& kernel,
                                    const kernels::GemmProblem& problem) {
    static const profiling::SystemReport system = profiling::query_system();
    if (!system.has_gpu()) return "no GPU";
    return kernels::outside_documented_sizes(kernel, problem,
                                             documented_limits(system.devices.front()));
}

Outcome judge_run(const kernels::RunResult& run, const std::string& documented_refusal) {
    const std::string what = run.kernel_id + " " + kernels::problem_text(run.problem);
    if (!run.skipped.empty()) return judge_refusal(run, documented_refusal);
    if (!run.error.empty()) return {Verdict::kFail, what + ": error: " + run.error};
    if (!run.check.passed) return {Verdict::kFail, what + ": " + kernels::run_status(run)};
    return {Verdict::kCheck, ""};
}

Outcome judge_profiler_error(const profiling::ProfilerError& error,
                             const std::string& documented_refusal) {
    if (error.ok()) return {Verdict::kCheck, ""};
    if (error.needs_resource()) return {Verdict::kSkip, error.message};
    if (error.problem == profiling::ProfilerProblem::kInvalidRequest &&
        !documented_refusal.empty()) {
        return {Verdict::kSkip, "refused: " + error.message};
    }
    return {Verdict::kFail, error.message};
}

}  // namespace tclens::test
