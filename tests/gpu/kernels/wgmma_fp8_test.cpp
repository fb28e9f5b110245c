// Rung 13 (kernels/13_wgmma_fp8.cu: rung 11's persistent kernel with e4m3 inputs) and its
// cuBLASLt FP8 reference on the GPU: each verifies against the fp64 reference of the
// e4m3-rounded inputs (runner.h; cuBLAS SGEMM spot-checked in fp64 above kCpuReferenceMaxWork)
// within the e4m3 bound, at tile-filling sizes, ragged edges with K tails, a decode shape whose
// clusters' second CTAs fall past M, and sizes where every CTA loops over several tiles (the
// ring and its barrier phases running on across tiles); and the runner catches a result
// computed with B read the wrong way round.
// The whole ladder's sizes run in ladder_test.cpp as well.

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "kernels/gpu_registry.h"
#include "kernels/runner.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/gpu/kernels/gemm_case.h"
#include "tests/support/gpu_verdict.h"

namespace tclens::kernels {
namespace {

std::vector<GemmCase> fp8_cases() {
    std::vector<GemmCase> all;
    for (const char* id : {"wgmma_fp8.e4m3", "cublaslt.e4m3"}) {
        // Whole tiles; ragged M and N with K tails of 16: 200 x 520 x 400 (one cluster tile
        // row, N 8 past two tiles), 129 x 260 x 144 (one row and 4 columns past a tile: the
        // second CTA's and the second tile column's C stores clipped to 1 and 4) and 4000 x 3000
        // x 1040 (32 x 12 tiles, the last row and column partial, several per CTA); a decode
        // shape (M = 16: each cluster's second CTA computes a zero tile); 4096^3 and 8192^3 (512
        // and 2048 tiles: several per CTA). The reference is fp64 on the CPU up to
        // kCpuReferenceMaxWork multiply-adds, cuBLAS SGEMM spot-checked in fp64 above.
        for (GemmProblem p :
             {GemmProblem{256, 512, 1024}, GemmProblem{200, 520, 400}, GemmProblem{129, 260, 144},
              GemmProblem{4000, 3000, 1040}, GemmProblem{16, 8192, 8192},
              GemmProblem{4096, 4096, 4096}, GemmProblem{8192, 8192, 8192}}) {
            all.push_back({id, p});
        }
    }
    return all;
}

class Fp8Verification : public testing::TestWithParam<GemmCase> {};

TEST_P(Fp8Verification, VerifiesWithinTheE4m3Bound) {
    TCLENS_REQUIRE_GPU();
    const GemmCase& c = GetParam();
    const KernelDescriptor* kernel = find_gpu_kernel(c.kernel_id);
    ASSERT_NE(kernel, nullptr);
    GemmRunner runner;
    RunOptions options;
    options.time = false;
    const RunResult r = runner.run(*kernel, c.problem, options);
    EXPECT_EQ(r.check.bound, verification_bound(Precision::kE4M3, c.problem.k));
    TCLENS_APPLY_VERDICT(test::judge_run(r, test::documented_refusal_here(*kernel, c.problem)));
    std::printf("%s %lldx%lldx%lld: %s, rel. RMS %.3e (bound %.3e) vs %s\n", c.kernel_id.c_str(),
                static_cast<long long>(c.problem.m), static_cast<long long>(c.problem.n),
                static_cast<long long>(c.problem.k), run_status(r).c_str(), r.check.rel_rms_error,
                r.check.bound, r.check.reference.c_str());
}

INSTANTIATE_TEST_SUITE_P(Fp8, Fp8Verification, testing::ValuesIn(fp8_cases()), gemm_case_name);

// A square problem run with A and B swapped computes sum_k B^T[i][k] A[j][k] = (A B)^T: the B
// layout read the wrong way round. It must fail verification by far.
TEST(Fp8OnGpu, BReadTheWrongWayRoundFailsVerification) {
    TCLENS_REQUIRE_GPU();
    KernelDescriptor swapped = *find_gpu_kernel("wgmma_fp8.e4m3");
    const auto launch = swapped.launch;
    swapped.launch = [launch](const GemmOperands& op, cudaStream_t stream) {
        GemmOperands flipped = op;
        flipped.a = op.b;
        flipped.b = op.a;
        return launch(flipped, stream);
    };
    GemmRunner runner;
    RunOptions options;
    options.time = false;
    const RunResult r = runner.run(swapped, {512, 512, 512}, options);
    TCLENS_APPLY_VERDICT(test::judge_refusal(r, test::documented_refusal_here(swapped, r.problem)));
    ASSERT_EQ(r.error, "");
    EXPECT_FALSE(r.check.passed) << r.check.rel_rms_error;
    EXPECT_GT(r.check.rel_rms_error, 0.5);
}

}  // namespace
}  // namespace tclens::kernels
