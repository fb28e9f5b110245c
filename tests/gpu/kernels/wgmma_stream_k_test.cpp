// Rung 12 (kernels/12_wgmma_stream_k.cu) on the GPU: both modes verify against the runner's
// reference (runner.h) at sizes that exercise each part of the split: whole waves only, the
// hybrid (3072^3: one data-parallel wave and 156 stream-K tiles), ragged edges, one tile split
// over 64 CTAs (64x256x4096: 63 contributors for one owner), the small-M mode (M = 16, 64) and
// the wide mode just above it (M = 257). Every launch takes a new epoch for its flags, so runs
// after a timed series (many launches on one workspace) must verify too.
// The ladder's sizes (lab 6's M = 16 .. 3072, odd ones) run in ladder_test.cpp as well.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/gpu_registry.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/gpu/kernels/gemm_case.h"

namespace tclens::kernels {
namespace {

std::vector<GemmCase> stream_k_cases() {
    std::vector<GemmCase> all;
    for (const char* id : {"wgmma_streamk.f16", "wgmma_streamk.bf16"}) {
        for (GemmProblem p :
             {GemmProblem{3072, 3072, 3072}, GemmProblem{16, 3072, 3072},
              GemmProblem{64, 3072, 3072}, GemmProblem{257, 3072, 3072}, GemmProblem{200, 520, 448},
              GemmProblem{64, 256, 4096}, GemmProblem{16, 136, 8}, GemmProblem{4224, 2048, 512},
              GemmProblem{4096, 4096, 4096}}) {
            all.push_back({id, p});
        }
    }
    return all;
}

class StreamKVerification : public testing::TestWithParam<GemmCase> {};

// Verified, then timed (20 launches on the same workspace), then verified again.
TEST_P(StreamKVerification, VerifiesBeforeAndAfterATimedSeries) {
    TCLENS_REQUIRE_GPU();
    const GemmCase& c = GetParam();
    const KernelDescriptor* kernel = find_gpu_kernel(c.kernel_id);
    ASSERT_NE(kernel, nullptr);
    expect_verified_around_a_timed_series(*kernel, c.problem, kernel->launch_plan(c.problem));
}

INSTANTIATE_TEST_SUITE_P(StreamK, StreamKVerification, testing::ValuesIn(stream_k_cases()),
                         gemm_case_name);

}  // namespace
}  // namespace tclens::kernels
