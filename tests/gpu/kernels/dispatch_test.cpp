// Rung 14 (kernels/14_dispatch.cu) on the GPU: every configuration its rules can pick (rung 9's
// kernel in each of its tiles, split or not, rung 11, rung 12) and the padded path (N or K not a
// multiple of 8: copies of A or B with padded rows; C in place, with rows of N floats (even, odd, a
// multiple of 4 for rung 11's TMA stores: 4096 x 4100) or, for rung 11 with other N (4096 x 4099 x
// 4097), copied back), each verified against the runner's reference (runner.h: poisoned C, fresh
// inputs), before and after a timed series (the scratch cache is reused across launches). The
// sizes: the sweep's worst shapes (432x16x7696, 272x720x5184, 768x320x15552: split-K), odd and tiny
// ones (17x33x129, 1x1x1, 431x17x7695: padding, with split-K in the last), lab 6's M = 64 and big
// square ones, and the narrower tiles: 128 x 64 (20000x64x1024, 13497x40x936 one CTA an SM;
// 14199x28x4767 split and padded), 64 x 128 (16x9136x832, 2176x496x112 in one wave of two an SM;
// 3x5000x2000 split), 64 x 64 (1000^3, 2016x496x112, 8576x64x1024; 48x512x4096, 64x64x1216 and
// 64x3072x3072 split), 64 x 64 in 12 stages (64x1000x512, 8192x64x1024, 64x3072x512; 33x1001x513
// padded); M past 128 over a deep K in the tile its rows pick (190x2081x14977: 64 x 128 split 5;
// 196x2245x9532: 128 x 128 split 3; both padded); 64 x 64 where 128 x 128 tiles would split K into
// shallow ranges (1152x128x1600 split 3, 343x93x1807 split 6 padded, and 432x16x7696 above);
// 958x6119x227, whose odd N over a short K leaves rung 11 (its C would be copied back) for rung 9,
// C stored in place; and the short-K GEMM on padded shapes (6310x119x33, 457x2419x16, 1691x2297x71
// in two K tiles, 3x1001x128, and 1x1x1, 4097x129x77, 2016x497x113 above). dispatch.e4m3 likewise
// on sizes that reach each FP8 configuration (rung 9's kernel with e4m3 inputs in its tiles, split
// or not, the split padded as well; rung 13's 128 x 256 tiles, 128 x 192, 128 x 128) and its
// padded path (N not a multiple of 4, K not of 16). The ladder's own sizes run rung 14 in
// ladder_test.cpp as well.

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "kernels/14_dispatch.h"
#include "kernels/dispatch_rules.h"
#include "kernels/fp8_dispatch_rules.h"
#include "kernels/gpu_registry.h"
#include "kernels/registry.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/gpu/kernels/gemm_case.h"

namespace tclens::kernels {
namespace {

const std::vector<GemmProblem>& dispatch_sizes() {
    static const std::vector<GemmProblem> sizes = {
        {4096, 4096, 4096}, {1344, 7104, 3200}, {2016, 496, 112},   {432, 16, 7696},
        {272, 720, 5184},   {768, 320, 15552},  {64, 3072, 3072},   {3, 5000, 2000},
        {17, 33, 129},      {1, 1, 1},          {431, 17, 7695},    {4097, 129, 77},
        {1000, 1000, 1000}, {11056, 80, 2992},  {4096, 4100, 4096}, {4096, 4099, 4097},
        {1344, 7101, 3200}, {2016, 497, 113},   {8192, 64, 1024},   {14199, 28, 4767},
        {64, 1000, 512},    {48, 512, 4096},    {33, 1001, 513},    {958, 6119, 227},
        {6310, 119, 33},    {457, 2419, 16},    {1691, 2297, 71},   {3, 1001, 128},
        {8576, 64, 1024},   {64, 3072, 512},    {20000, 64, 1024},  {64, 64, 1216},
        {2049, 1001, 384},  {190, 2081, 14977}, {196, 2245, 9532},  {1152, 128, 1600},
        {343, 93, 1807},    {2176, 496, 112},   {16, 9136, 832},    {13497, 40, 936}};
    return sizes;
}

// 4096^3: rung 13; 3072^3, 2048 x 3072 x 3072 (2 rounds): 128 x 192; 2048 x 1024 x 512: 128 x
// 128; rung 9's kernel in e4m3: 1024^3, 200 x 520 x 400 (ragged) in 64 x 64 tiles, 512^3 in 64 x
// 64 of 12 stages, 512 x 3072 x 3072 in 128 x 128, 13497 x 40 x 1872 in 128 x 64, split: 16 x
// 8192 x 8192 in 64 x 128, 64 x 3072 x 3072 and 432 x 16 x 7696 in 64 x 64; padded: 17 x 33 x
// 129, 1 x 1 x 1, 1000^3 (K only), 431 x 17 x 7695 (split), 3072 x 3070 x 3072 (N only: C stored
// into padded rows and copied back), 64 x 3071 x 3072 (split-K partials of odd N).
const std::vector<GemmProblem>& fp8_dispatch_sizes() {
    static const std::vector<GemmProblem> sizes = {
        {4096, 4096, 4096}, {3072, 3072, 3072}, {2048, 3072, 3072}, {2048, 1024, 512},
        {1024, 1024, 1024}, {200, 520, 400},    {512, 512, 512},    {512, 3072, 3072},
        {13497, 40, 1872},  {16, 8192, 8192},   {64, 3072, 3072},   {432, 16, 7696},
        {17, 33, 129},      {1, 1, 1},          {1000, 1000, 1000}, {431, 17, 7695},
        {3072, 3070, 3072}, {64, 3071, 3072}};
    return sizes;
}

std::vector<GemmCase> dispatch_cases() {
    std::vector<GemmCase> all;
    for (const char* id : {"dispatch.f16", "dispatch.bf16"}) {
        for (const GemmProblem& p : dispatch_sizes()) all.push_back({id, p});
    }
    for (const GemmProblem& p : fp8_dispatch_sizes()) all.push_back({"dispatch.e4m3", p});
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
    expect_verified_around_a_timed_series(
        *kernel, c.problem,
        choose_dispatch_for(kernel->precision, c.problem, current_sms()).reason);
}

INSTANTIATE_TEST_SUITE_P(Dispatch, DispatchVerification, testing::ValuesIn(dispatch_cases()),
                         gemm_case_name);

// The sizes above reach every configuration on this GPU, rung 9's kernel in each tile split (but
// 64 x 64 in 12 stages, never split) and unsplit, and the padded path with split-K, so the
// verification above ran each one. The thresholds are set for 132 SMs (H100 SXM, H200).
TEST(DispatchOnGpu, TheSizesReachEveryConfiguration) {
    TCLENS_REQUIRE_GPU();
    const int sms = current_sms();
    if (sms != 132)
        GTEST_SKIP() << "skipped: the sizes are chosen for 132 SMs; this GPU has " << sms;
    std::set<std::pair<DispatchConfig, Rung9Tile>> reached;
    bool padded_split = false;
    for (const GemmProblem& p : dispatch_sizes()) {
        const DispatchChoice choice = choose_dispatch(p, sms);
        reached.insert({choice.config, choice.tile});
        padded_split |= needs_padding(p) && choice.config == DispatchConfig::kSplitK;
    }
    using D = DispatchConfig;
    using T = Rung9Tile;
    EXPECT_EQ(reached, (std::set<std::pair<D, T>>{{D::kTmaTiles, T::kSquare},
                                                  {D::kTmaTiles, T::kNarrowN},
                                                  {D::kTmaTiles, T::kFewRows},
                                                  {D::kTmaTiles, T::kSmall},
                                                  {D::kTmaTiles, T::kSmallDeep},
                                                  {D::kSplitK, T::kSquare},
                                                  {D::kSplitK, T::kNarrowN},
                                                  {D::kSplitK, T::kFewRows},
                                                  {D::kSplitK, T::kSmall},
                                                  {D::kPersistent, T::kSquare},
                                                  {D::kStreamK, T::kSquare},
                                                  {D::kShortK, T::kSquare}}));
    EXPECT_TRUE(padded_split);
}

TEST(DispatchOnGpu, TheFp8SizesReachEveryFp8Configuration) {
    TCLENS_REQUIRE_GPU();
    const int sms = current_sms();
    if (sms != 132)
        GTEST_SKIP() << "skipped: the sizes are chosen for 132 SMs; this GPU has " << sms;
    std::set<std::pair<DispatchConfig, Rung9Tile>> reached;
    bool padded_split = false;
    for (const GemmProblem& p : fp8_dispatch_sizes()) {
        const DispatchChoice choice = choose_fp8_dispatch(p, sms);
        const bool rung9 =
            choice.config == DispatchConfig::kTmaTiles || choice.config == DispatchConfig::kSplitK;
        reached.insert({choice.config, rung9 ? choice.tile : Rung9Tile::kSquare});
        padded_split |= !same_problem(p, choice.padded) && choice.config == DispatchConfig::kSplitK;
    }
    using D = DispatchConfig;
    using T = Rung9Tile;
    EXPECT_EQ(reached,
              (std::set<std::pair<DispatchConfig, Rung9Tile>>{{D::kTmaTiles, T::kSquare},
                                                              {D::kTmaTiles, T::kNarrowN},
                                                              {D::kTmaTiles, T::kSmall},
                                                              {D::kTmaTiles, T::kSmallDeep},
                                                              {D::kSplitK, T::kFewRows},
                                                              {D::kSplitK, T::kSmall},
                                                              {D::kFp8Tile256, T::kSquare},
                                                              {D::kFp8Tile192, T::kSquare},
                                                              {D::kFp8Tile128, T::kSquare}}));
    EXPECT_TRUE(padded_split);
}

// The padded path costs little beside the GEMM of the aligned shape next to it. 8192 x 8192 x 131
// (rung 11): A copied into rows of 136, C (8192 x 8192 floats, the GEMM's main cost) written in
// place: at most 1.3x (1.09x on the H200, session 22 call 3); copying C through padded rows and
// back, as rung 14 once did, took about 3x. 8192 x 8192 x 43 takes that path too (A copied into
// rows of 48): at most 1.3x (1.07x; 1.94x on the short-K GEMM, session 22 call 2). 8192 x 8191 x
// 43: the short-K GEMM (rung 11 would copy C back), its C through the stage with plain stores
// against rung 11's TMA stores: at most 3x (2.38x). 16 x 281 x 8165: A and B (8165 rows) copied
// in one launch before split-K, the copy as long as the GEMM: at most 3x (1.97x: 23 us against
// 12, on 128 x 128 tiles); a copy launched over the larger of the two grids took 190x.
TEST(DispatchOnGpu, APaddedShapeCostsLittleBesideTheAlignedOne) {
    TCLENS_REQUIRE_GPU();
    static GemmRunner runner;
    ASSERT_EQ(runner.init_error(), "");
    const KernelDescriptor* kernel = find_gpu_kernel("dispatch.bf16");
    ASSERT_NE(kernel, nullptr);
    struct Pair {
        GemmProblem padded;
        GemmProblem aligned;
        double most;  // padded time / aligned time
    };
    for (const Pair& pair : {Pair{{8192, 8192, 131}, {8192, 8192, 136}, 1.3},
                             Pair{{8192, 8192, 43}, {8192, 8192, 48}, 1.3},
                             Pair{{8192, 8191, 43}, {8192, 8192, 48}, 3.0},
                             Pair{{16, 281, 8165}, {16, 288, 8168}, 3.0}}) {
        RunOptions options;
        options.timed_runs = 30;
        const RunResult padded = runner.run(*kernel, pair.padded, options);
        const RunResult aligned = runner.run(*kernel, pair.aligned, options);
        ASSERT_TRUE(padded.counts()) << padded.error << padded.skipped;
        ASSERT_TRUE(aligned.counts()) << aligned.error << aligned.skipped;
        const double ratio = padded.median_ms / aligned.median_ms;
        std::printf("dispatch.bf16 %lldx%lldx%lld %.4f ms, %lldx%lldx%lld %.4f ms (%.2fx)\n",
                    (long long)pair.padded.m, (long long)pair.padded.n, (long long)pair.padded.k,
                    padded.median_ms, (long long)pair.aligned.m, (long long)pair.aligned.n,
                    (long long)pair.aligned.k, aligned.median_ms, ratio);
        EXPECT_LE(ratio, pair.most);
    }
}

}  // namespace
}  // namespace tclens::kernels
