// Rung 14's rules (kernels/dispatch_rules.h) and descriptor (kernels/14_dispatch.h): the
// configuration representative shapes of the H200 sweep get on 132 SMs, the reason lines, and,
// over a grid of shapes and SM counts (odd sizes, primes, 1, 16384, 65536), that the chosen
// configuration's own can_run accepts what it is given: a rule that picks a configuration that
// cannot run the shape fails here.

#include "kernels/dispatch_rules.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/14_dispatch.h"
#include "kernels/gpu_registry.h"
#include "kernels/registry.h"
#include "kernels/split_k_gemm.h"
#include "kernels/tile_map_spec.h"

namespace tclens::kernels {
namespace {

DispatchConfig config_of(const GemmProblem& problem, int sms = kDefaultPersistentSms) {
    return choose_dispatch(problem, sms).config;
}

TEST(DispatchRules, BigWellShapedProblemsRunRung11) {
    EXPECT_EQ(config_of({4096, 4096, 4096}), DispatchConfig::kPersistent);
    EXPECT_EQ(config_of({8192, 8192, 8192}), DispatchConfig::kPersistent);
    // 2 rounds of a deep K: stream-K lost there (0.57x against rung 11's 0.99x).
    EXPECT_EQ(config_of({2240, 2560, 8320}), DispatchConfig::kPersistent);
    // 0.76 of a wave: at or above 70 % rung 11 runs.
    EXPECT_EQ(config_of({12800, 192, 64}), DispatchConfig::kPersistent);
}

TEST(DispatchRules, ALastRoundLeftMostlyIdleOverADeepKRunsStreamK) {
    const DispatchChoice choice = choose_dispatch({1344, 7104, 3200}, kDefaultPersistentSms);
    EXPECT_EQ(choice.config, DispatchConfig::kStreamK);
    EXPECT_EQ(choice.reason,
              "rung 12 stream-K: rung 11's 308 tiles (128 x 256) = 2.33 waves on 132 SMs, 3 rounds "
              "78 % filled, K = 3200 >= 2048");
    // The same tiles over a short K stay on rung 11.
    EXPECT_EQ(config_of({1344, 7104, 1024}), DispatchConfig::kPersistent);
}

TEST(DispatchRules, FewTilesOverALongKSplitK) {
    const DispatchChoice skinny = choose_dispatch({432, 16, 7696}, kDefaultPersistentSms);
    ASSERT_EQ(skinny.config, DispatchConfig::kSplitK);
    EXPECT_EQ(skinny.splits, 15);  // 7 tiles of 64 x 64; at most K / 512 = 15 ranges
    EXPECT_EQ(skinny.reason,
              "split-K 15, 64 x 64 tiles, 105 CTAs of K 544: rung 11's 4 tiles (128 x 192): < 70 "
              "% of a wave on 132 SMs, K = 7696 >= 1536");
    // 60 tiles: 5 ranges make 300 CTAs, about 2 waves.
    const DispatchChoice wide = choose_dispatch({768, 320, 15552}, kDefaultPersistentSms);
    EXPECT_EQ(wide.config, DispatchConfig::kSplitK);
    EXPECT_EQ(wide.splits, 5);
    EXPECT_EQ(choose_dispatch({272, 720, 5184}, kDefaultPersistentSms).splits, 5);
}

// Split-K's case with a wide N runs stream-K: rung 12 measured 0.54-0.98x of cuBLAS there on an
// H200 where split-K's 64 x 64 tiles ran 0.30-0.61x (dispatch_rules.cpp, kStreamKMinN).
TEST(DispatchRules, FewTilesOverALongKButAWideNRunStreamK) {
    const DispatchChoice lab6_m64 = choose_dispatch({64, 3072, 3072}, kDefaultPersistentSms);
    EXPECT_EQ(lab6_m64.config, DispatchConfig::kStreamK);
    EXPECT_EQ(lab6_m64.splits, 1);
    EXPECT_EQ(lab6_m64.reason,
              "rung 12 stream-K: rung 11's 16 tiles (128 x 192): < 70 % of a wave on 132 SMs, "
              "K = 3072 >= 1536, N = 3072 >= 1024");
    EXPECT_EQ(config_of({128, 8192, 8192}), DispatchConfig::kStreamK);
    // Just under the width, split-K stays.
    EXPECT_EQ(config_of({272, 1016, 5184}), DispatchConfig::kSplitK);
}

TEST(DispatchRules, SmallOrShallowProblemsRunRung9) {
    const DispatchChoice shallow = choose_dispatch({2016, 496, 112}, kDefaultPersistentSms);
    EXPECT_EQ(shallow.config, DispatchConfig::kTmaTiles);
    EXPECT_EQ(shallow.reason,
              "rung 9, one CTA per 128 x 128 tile, 64 CTAs: rung 11's 48 tiles (128 x 192): < 70 "
              "% of a wave on 132 SMs, K = 112 < 1536");
    // A deep K, but 346 tiles of 64 x 64 already make 2 waves: no split.
    const DispatchChoice many = choose_dispatch({11056, 80, 2992}, kDefaultPersistentSms);
    EXPECT_EQ(many.config, DispatchConfig::kTmaTiles);
    EXPECT_NE(many.reason.find("346 tiles of 64 x 64 fill 2 waves unsplit"), std::string::npos)
        << many.reason;
}

TEST(DispatchRules, TheSmCountDecides) {
    // 16 tiles of 128 x 192 are a full wave on 16 SMs but a few idle ones on 132.
    EXPECT_EQ(config_of({64, 3072, 3072}, 16), DispatchConfig::kPersistent);
    EXPECT_EQ(config_of({64, 3072, 3072}, kDefaultPersistentSms), DispatchConfig::kStreamK);
}

TEST(DispatchRules, OddNOrKRunOnZeroPaddedCopies) {
    const DispatchChoice odd = choose_dispatch({17, 33, 129}, kDefaultPersistentSms);
    EXPECT_TRUE(same_problem(odd.padded, {17, 40, 136}));
    EXPECT_EQ(odd.reason.rfind("N = 33 -> 40, K = 129 -> 136 (zero-padded copies): rung 9", 0), 0u)
        << odd.reason;
    EXPECT_TRUE(needs_padding({1, 1, 1}));
    EXPECT_FALSE(needs_padding({1, 8, 8}));  // M needs no padding: rows past M are not stored
    EXPECT_EQ(choose_dispatch({4096, 4096, 4095}, kDefaultPersistentSms)
                  .reason.rfind("K = 4095 -> 4096", 0),
              0u);
}

TEST(DispatchRules, SplitRangesAreWholeKSteps) {
    EXPECT_EQ(split_k_depth(7696, 15), 544);  // 241 steps of 32 / 15 -> 17 steps
    EXPECT_EQ(split_k_ranges(7696, 15), 15);
    EXPECT_EQ(split_k_ranges(96, 16), 3);  // 3 steps cannot make more than 3 ranges
    EXPECT_EQ(split_k_ranges(100000, 1), 1);
}

TEST(DispatchRules, Rung9TileIsTheRegisteredOne) {
    const KernelDescriptor* rung9 = find_kernel("wgmma_tma.bf16");
    ASSERT_NE(rung9, nullptr);
    EXPECT_EQ(rung9->block_tile.m, kDispatchTmaTile);
    EXPECT_EQ(rung9->block_tile.n, kDispatchTmaTile);
}

// Every choice on the grid names a configuration whose own can_run accepts the padded problem,
// with N and K multiples of 8, at most kSplitKMaxSplits ranges and a one-line reason.
TEST(DispatchRules, EveryChoiceCanRunWhatItIsGiven) {
    const std::vector<std::int64_t> sides = {1,   2,   7,    8,    16,   17,   63,    64,   127,
                                             129, 257, 1021, 1536, 4093, 7696, 16384, 65536};
    int checked = 0;
    for (int sms : {1, 2, 46, 108, 114, 132, 144}) {
        for (std::int64_t m : sides) {
            for (std::int64_t n : sides) {
                for (std::int64_t k : sides) {
                    const GemmProblem problem{m, n, k};
                    const DispatchChoice c = choose_dispatch(problem, sms);
                    const std::string where = std::to_string(m) + "x" + std::to_string(n) + "x" +
                                              std::to_string(k) + " on " + std::to_string(sms) +
                                              " SMs: " + c.reason;
                    ASSERT_EQ(dispatch_configuration_can_run(c, Precision::kBF16), "") << where;
                    ASSERT_EQ(c.padded.m, m) << where;
                    ASSERT_TRUE(c.padded.n % 8 == 0 && c.padded.n >= n && c.padded.n < n + 8)
                        << where;
                    ASSERT_TRUE(c.padded.k % 8 == 0 && c.padded.k >= k && c.padded.k < k + 8)
                        << where;
                    ASSERT_TRUE(c.splits >= 1 && c.splits <= kSplitKMaxSplits) << where;
                    ASSERT_EQ(c.splits > 1, c.config == DispatchConfig::kSplitK) << where;
                    ASSERT_FALSE(c.reason.empty()) << where;
                    ASSERT_EQ(c.reason.find('\n'), std::string::npos) << where;
                    ++checked;
                }
            }
        }
    }
    EXPECT_EQ(checked, 7 * 17 * 17 * 17);
}

TEST(DispatchDescriptor, RunsAnySizeAndSaysWhatRunsIt) {
    for (const char* id : {"dispatch.f16", "dispatch.bf16"}) {
        const KernelDescriptor* d = find_kernel(id);
        ASSERT_NE(d, nullptr) << id;
        EXPECT_EQ(d->rung, 14);
        EXPECT_EQ(d->min_sm, 90);
        EXPECT_FALSE(d->launch) << id;  // a description; its launch: the GPU registry's copy
        EXPECT_TRUE(find_gpu_kernel(id)->launch) << id;
        EXPECT_EQ(d->size_multiples.m, 1);
        EXPECT_EQ(d->size_multiples.n, 1);
        EXPECT_EQ(d->size_multiples.k, 1);
        EXPECT_EQ(d->can_run({17, 33, 129}), "");
        EXPECT_EQ(d->can_run({65536, 65536, 65535}), "");
        EXPECT_EQ(d->can_run({1, 1, (std::int64_t{1} << 30) + 1}),
                  "M, N and K must each be at most 1073741824 (32-bit index arithmetic)");
    }
    const KernelDescriptor& d = *find_kernel("dispatch.bf16");
    EXPECT_EQ(d.reference_id, "cublas.bf16");
    EXPECT_EQ(d.launch_plan({432, 16, 7696}),
              choose_dispatch({432, 16, 7696}, kDefaultPersistentSms).reason);
    // for_problem: what runs, so the tile map draws it.
    const KernelDescriptor big = d.for_problem({4096, 4096, 4096}, kDefaultPersistentSms);
    EXPECT_EQ(big.id, "wgmma_persistent.bf16");
    EXPECT_EQ(big.block_tile.n, 256);
    const KernelDescriptor lab = d.for_problem({1024, 3072, 3072}, kDefaultPersistentSms);
    EXPECT_EQ(lab.block_tile.n, 192);  // rung 11's own tile choice, applied
    EXPECT_EQ(d.for_problem({2016, 496, 112}, kDefaultPersistentSms).id, "wgmma_tma.bf16");
    EXPECT_EQ(d.for_problem({1344, 7104, 3200}, kDefaultPersistentSms).id, "wgmma_streamk.bf16");
    const KernelDescriptor split = d.for_problem({432, 16, 7696}, kDefaultPersistentSms);
    EXPECT_EQ(split.id, "split_k.bf16");
    EXPECT_EQ(split.block_tile.m, kSplitKBlockM);
    EXPECT_EQ(split.block_tile.n, kSplitKBlockN);
    const auto spec = tile_map_spec(d, {432, 16, 7696}, kDefaultPersistentSms);
    ASSERT_TRUE(spec) << spec.error();
    EXPECT_EQ(spec->kernel, "split_k.bf16");
    EXPECT_EQ(spec->block_m, kSplitKBlockM);
}

}  // namespace
}  // namespace tclens::kernels
