#pragma once
// One value of a value-parameterized GPU test of a GEMM kernel: a kernel id and a problem, and
// how GoogleTest shows it (PrintTo: "wgmma_tma.bf16 128x3072x3072") and names it
// (gemm_case_name: "wgmma_tma_bf16_128x3072x3072", every character but letters, digits and '_'
// turned into '_'). The ladder's, stream-K's, FP8's and rung 14's tests share them; stream-K's
// and rung 14's share the verified-timed-verified series too.

#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <string>

#include "kernels/gemm.h"
#include "kernels/runner.h"
#include "tests/support/gpu_verdict.h"

namespace tclens::kernels {

struct GemmCase {
    std::string kernel_id;
    GemmProblem problem;
};

inline void PrintTo(const GemmCase& c, std::ostream* os) {
    *os << c.kernel_id << " " << c.problem.m << "x" << c.problem.n << "x" << c.problem.k;
}

inline std::string gemm_case_name(const testing::TestParamInfo<GemmCase>& info) {
    const GemmProblem& p = info.param.problem;
    std::string name = info.param.kernel_id + "_" + std::to_string(p.m) + "x" +
                       std::to_string(p.n) + "x" + std::to_string(p.k);
    for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    }
    return name;
}

// Inside a TEST body: `kernel` on `problem` verified, then timed (20 launches), then verified again
// with new inputs; each pass must count (test::judge_run: a documented refusal skips, anything else
// fails) with no element left unwritten, and prints its outcome with `plan` (how the kernel runs
// the problem). A workspace or scratch reused across the timed launches must leave the last ones
// as right as the first.
inline void expect_verified_around_a_timed_series(const KernelDescriptor& kernel,
                                                  const GemmProblem& problem,
                                                  const std::string& plan) {
    static GemmRunner runner;
    ASSERT_EQ(runner.init_error(), "");
    RunOptions options;
    options.timed_runs = 20;
    for (int pass = 0; pass < 2; ++pass) {
        options.time = pass == 0;
        options.seed = static_cast<std::uint64_t>(problem.m * 131 + problem.k + pass);
        const RunResult r = runner.run(kernel, problem, options);
        TCLENS_APPLY_VERDICT(test::judge_run(r, test::documented_refusal_here(kernel, problem)));
        EXPECT_EQ(r.check.nan_count, 0) << "elements left unwritten";
        std::printf("%s %lldx%lldx%lld pass %d: %s, rel. RMS %.3e (bound %.3e) vs %s; %s\n",
                    kernel.id.c_str(), static_cast<long long>(problem.m),
                    static_cast<long long>(problem.n), static_cast<long long>(problem.k), pass,
                    run_status(r).c_str(), r.check.rel_rms_error, r.check.bound,
                    r.check.reference.c_str(), plan.c_str());
    }
}

}  // namespace tclens::kernels
