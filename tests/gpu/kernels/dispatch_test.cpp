// Rung 14 (kernels/14_dispatch.cu) on the GPU: every configuration its rules can pick (rung 9,
// rung 11, rung 12, split-K) and the zero-padded path (N or K not a multiple of 8), each
// verified against the runner's reference (runner.h: poisoned C, fresh inputs), before and after
// a timed series (the scratch cache is reused across launches). The sizes: the sweep's worst
// shapes (432x16x7696, 272x720x5184, 768x320x15552: split-K), odd and tiny ones (17x33x129,
// 1x1x1, 431x17x7695: padding, with split-K in the last), lab 6's M = 64 and big square ones.
// The ladder's own sizes run rung 14 in ladder_test.cpp as well.

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "kernels/dispatch_rules.h"
#include "kernels/gpu_registry.h"
#include "kernels/registry.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/gpu/kernels/gemm_case.h"

namespace tclens::kernels {
namespace {

const std::vector<GemmProblem>& dispatch_sizes() {
    static const std::vector<GemmProblem> sizes = {
        {4096, 4096, 4096}, {1344, 7104, 3200}, {2016, 496, 112}, {432, 16, 7696},
        {272, 720, 5184},   {768, 320, 15552},  {64, 3072, 3072}, {3, 5000, 2000},
        {17, 33, 129},      {1, 1, 1},          {431, 17, 7695},  {4097, 129, 77},
        {1000, 1000, 1000}, {11056, 80, 2992}};
    return sizes;
}

std::vector<GemmCase> dispatch_cases() {
    std::vector<GemmCase> all;
    for (const char* id : {"dispatch.f16", "dispatch.bf16"}) {
        for (const GemmProblem& p : dispatch_sizes()) all.push_back({id, p});
    }
    return all;
}

int current_sms() {
    int device = 0;
    int sms = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) {
        return 0;
    }
    return sms;
}

class DispatchVerification : public testing::TestWithParam<GemmCase> {};

// Verified, then timed (20 launches reusing the scratch), then verified again with new inputs.
TEST_P(DispatchVerification, VerifiesBeforeAndAfterATimedSeries) {
    TCLENS_REQUIRE_GPU();
    const GemmCase& c = GetParam();
    const KernelDescriptor* kernel = find_gpu_kernel(c.kernel_id);
    ASSERT_NE(kernel, nullptr);
    expect_verified_around_a_timed_series(*kernel, c.problem,
                                          choose_dispatch(c.problem, current_sms()).reason);
}

INSTANTIATE_TEST_SUITE_P(Dispatch, DispatchVerification, testing::ValuesIn(dispatch_cases()),
                         gemm_case_name);

// The sizes above reach every configuration on this GPU, and the padded path with split-K, so
// the verification above ran each one. The thresholds are set for 132 SMs (H100 SXM, H200).
TEST(DispatchOnGpu, TheSizesReachEveryConfiguration) {
    TCLENS_REQUIRE_GPU();
    const int sms = current_sms();
    if (sms != 132)
        GTEST_SKIP() << "skipped: the sizes are chosen for 132 SMs; this GPU has " << sms;
    std::set<DispatchConfig> reached;
    bool padded_split = false;
    for (const GemmProblem& p : dispatch_sizes()) {
        const DispatchChoice choice = choose_dispatch(p, sms);
        reached.insert(choice.config);
        padded_split |= needs_padding(p) && choice.config == DispatchConfig::kSplitK;
    }
    EXPECT_EQ(reached,
              (std::set<DispatchConfig>{DispatchConfig::kTmaTiles, DispatchConfig::kPersistent,
                                        DispatchConfig::kStreamK, DispatchConfig::kSplitK}));
    EXPECT_TRUE(padded_split);
}

}  // namespace
}  // namespace tclens::kernels
