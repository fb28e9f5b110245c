// The kernel registry: every descriptor is complete, consistent with the views it links to
// (layout IDs the atlas knows, swizzles the bank lab parses) and with its reference, and every
// kernel either runs the sizes or says why not in one line.

#include "kernels/registry.h"

#include <gtest/gtest.h>

#include <set>

#include "kernels/ladder.h"
#include "viz/fragment_layout.h"
#include "viz/swizzle.h"

namespace tclens::kernels {
namespace {

constexpr DeviceLimits kH100Limits{90, 227 * 1024};

TEST(Registry, IdsAreUniqueAndFindable) {
    std::set<std::string> ids;
    for (const KernelDescriptor& k : all_kernels()) {
        EXPECT_TRUE(ids.insert(k.id).second) << k.id;
        EXPECT_EQ(find_kernel(k.id), &k);
    }
    EXPECT_EQ(find_kernel("no.such.kernel"), nullptr);
}

TEST(Registry, LadderHasItsRungsInOrderThenTheReferences) {
    int last_rung = 0;
    std::set<int> rungs;
    bool in_references = false;
    for (const KernelDescriptor& k : all_kernels()) {
        if (k.rung == 0) {
            in_references = true;
            continue;
        }
        EXPECT_FALSE(in_references) << k.id << " comes after a reference";
        EXPECT_GE(k.rung, last_rung) << k.id;
        last_rung = k.rung;
        rungs.insert(k.rung);
    }
    EXPECT_EQ(rungs, (std::set<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}));
    for (const char* id :
         {"cublas.sgemm", "cublas.tf32", "cublas.f16", "cublas.bf16", "cublaslt.e4m3"}) {
        ASSERT_NE(find_kernel(id), nullptr) << id;
        EXPECT_EQ(find_kernel(id)->rung, 0);
    }
}

TEST(Registry, DescriptorsAreComplete) {
    for (const KernelDescriptor& k : all_kernels()) {
        SCOPED_TRACE(k.id);
        EXPECT_FALSE(k.title.empty());
        EXPECT_FALSE(k.adds.empty());
        EXPECT_NE(k.can_run, nullptr);
        EXPECT_GE(k.min_sm, 80);
        if (k.rung == 0) continue;
        EXPECT_GT(k.threads, 0);
        EXPECT_EQ(k.threads % 32, 0);
        EXPECT_GT(k.block_tile.m, 0);
        EXPECT_GT(k.block_tile.n, 0);
        EXPECT_GT(k.block_tile.k, 0);
        EXPECT_GE(k.stages, 1);
        const KernelDescriptor* reference = find_kernel(k.reference_id);
        ASSERT_NE(reference, nullptr) << "reference " << k.reference_id;
        EXPECT_EQ(reference->precision, k.precision);
        EXPECT_EQ(reference->accumulate, k.accumulate) << "% of cuBLAS compares like with like";
        EXPECT_EQ(reference->rung, 0);
    }
}

TEST(Registry, TensorRungsNameLayoutsTheAtlasKnowsAndFMARungsNone) {
    for (const KernelDescriptor& k : all_kernels()) {
        SCOPED_TRACE(k.id);
        if (k.rung == 0) continue;
        const bool tensor = k.mma_tile.m > 0;
        EXPECT_EQ(tensor, k.precision != Precision::kF32);
        EXPECT_EQ(tensor, !k.layout_ids.empty());
        for (const std::string& id : k.layout_ids) {
            EXPECT_TRUE(viz::fragment_layout(id).has_value()) << id;
        }
    }
}

TEST(Registry, SwizzlesParseInTheBankLab) {
    for (const KernelDescriptor& k : all_kernels()) {
        if (k.rung == 0) continue;
        const auto swizzle = viz::parse_swizzle(k.swizzle);
        EXPECT_TRUE(swizzle.ok()) << k.id << ": " << swizzle.error();
    }
}

// 1000^3 for the e4m3 kernels is 1008^3: their rows of K bytes must be multiples of 16.
TEST(Registry, EveryKernelRunsTheCommonSizes) {
    for (const KernelDescriptor& k : all_kernels()) {
        const std::int64_t odd = k.precision == Precision::kE4M3 ? 1008 : 1000;
        for (const GemmProblem& p : {GemmProblem{4096, 4096, 4096}, GemmProblem{odd, odd, odd},
                                     GemmProblem{16, 3072, 3072}, GemmProblem{8192, 8192, 8192}}) {
            EXPECT_EQ(why_not_runnable(k, p, kH100Limits), "")
                << k.id << " " << p.m << "x" << p.n << "x" << p.k;
        }
    }
}

TEST(Registry, Fp8KernelsRefuseWhatTheyCannotDoInOneLine) {
    const KernelDescriptor* rung = find_kernel("wgmma_fp8.e4m3");
    const KernelDescriptor* lt = find_kernel("cublaslt.e4m3");
    ASSERT_NE(rung, nullptr);
    ASSERT_NE(lt, nullptr);
    EXPECT_EQ(rung->reference_id, "cublaslt.e4m3");
    EXPECT_EQ(rung->rung, 13);
    for (const KernelDescriptor* k : {rung, lt}) {
        SCOPED_TRACE(k->id);
        EXPECT_EQ(k->precision, Precision::kE4M3);
        EXPECT_NE(k->can_run({1000, 1000, 1000}).find("K must be a multiple of 16"),
                  std::string::npos);
        EXPECT_EQ(k->can_run({1000, 1000, 1008}), "");  // M and N need not fill a tile
        EXPECT_EQ(k->can_run({16, 8192, 8192}), "");    // the llm preset's decode shape
    }
    // Both need N % 4 == 0: C's row stride of N f32 (the rung's TMA stores, cuBLASLt's ldd).
    for (const KernelDescriptor* k : {rung, lt}) {
        EXPECT_NE(k->can_run({128, 258, 128}).find("N must be a multiple of 4"), std::string::npos)
            << k->id;
        EXPECT_EQ(k->can_run({128, 260, 128}), "") << k->id;
    }
    EXPECT_EQ(rung->can_run({128, 258, 128}),
              "N must be a multiple of 4: TMA stores C, whose row stride (N f32) must be a "
              "multiple of 16 bytes");
    EXPECT_EQ(rung->can_run({std::int64_t{1} << 31, 256, 128}),
              "M, N and K are 32-bit ints in the kernel: each must be at most 1073741824");
    // Not sm_90: the registry's architecture line, before can_run.
    EXPECT_EQ(why_not_runnable(*rung, {4096, 4096, 4096}, DeviceLimits{89, 99 * 1024}),
              "wgmma_fp8.e4m3 needs sm_90 or newer; this GPU is sm_89");
    EXPECT_EQ(why_not_runnable(*lt, {4096, 4096, 4096}, DeviceLimits{80, 163 * 1024}),
              "cublaslt.e4m3 needs sm_89 or newer; this GPU is sm_80");
}

// Rung 13's descriptor says what its kernel does: rung 11's persistent kernel with 128 x 256 x 128
// tiles of k32 e4m3 wgmma, both operands 128-byte swizzled, 192 KiB of stages plus rung 11's
// 32 KiB of epilogue buffers, clusters of 2 in bands of 8 cluster rows, the atlas's e4m3 layout.
TEST(Registry, Fp8RungDescriptorNamesItsInstructionAndTiles) {
    const KernelDescriptor& d = *find_kernel("wgmma_fp8.e4m3");
    EXPECT_EQ(d.block_tile.m, 128);
    EXPECT_EQ(d.block_tile.n, 256);
    EXPECT_EQ(d.block_tile.k, 128);
    EXPECT_EQ(d.mma_tile.m, 64);
    EXPECT_EQ(d.mma_tile.n, 256);
    EXPECT_EQ(d.mma_tile.k, 32);
    EXPECT_EQ(d.layout_ids, (std::vector<std::string>{"wgmma.m64n256k32.e4m3"}));
    EXPECT_EQ(d.schedule.instruction, "wgmma.m64n256k32");
    EXPECT_EQ(d.swizzle, "tma128");
    EXPECT_EQ(d.min_sm, 90);
    EXPECT_EQ(d.threads, 384);
    EXPECT_EQ(d.stages, 4);
    EXPECT_EQ(d.dynamic_smem_bytes, 1024 + 4 * (128 + 256) * 128 + 32 * 1024 + 2 * 4 * 8);
    EXPECT_EQ(d.dynamic_smem_bytes, find_kernel("wgmma_persistent.bf16")->dynamic_smem_bytes);
    EXPECT_EQ(d.schedule.raster, viz::RasterOrder::kPersistent);
    EXPECT_EQ(d.schedule.raster_group, 8);
    EXPECT_EQ(d.schedule.cluster_m, 2);
    EXPECT_TRUE(d.schedule.ring_across_tiles);
    EXPECT_EQ(d.schedule.tma_box_cols, 128);
    EXPECT_EQ(d.size_multiples.m, 1);
    EXPECT_EQ(d.size_multiples.n, 4);
    EXPECT_EQ(d.size_multiples.k, 16);
}

// Rung 11 describes its 128 x 256 tile and hands out the tile each problem runs
// (kernels/wave_choice.h): 128 x 192 tiles of m64n192k16, three B boxes a stage (4 x 40 KiB of
// stages + 32 KiB of epilogue buffers), where they fill the waves better.
TEST(Registry, PersistentRungNamesTheTileEachProblemGets) {
    for (const char* id : {"wgmma_persistent.f16", "wgmma_persistent.bf16"}) {
        SCOPED_TRACE(id);
        const KernelDescriptor& d = *find_kernel(id);
        EXPECT_EQ(d.block_tile.n, 256);
        ASSERT_TRUE(d.for_problem != nullptr);
        ASSERT_TRUE(d.launch_plan != nullptr);
        const KernelDescriptor narrow = d.for_problem({3072, 3072, 3072}, 132);
        EXPECT_EQ(narrow.id, d.id);
        EXPECT_EQ(narrow.block_tile.m, 128);
        EXPECT_EQ(narrow.block_tile.n, 192);
        EXPECT_EQ(narrow.block_tile.k, 64);
        EXPECT_EQ(narrow.mma_tile.n, 192);
        EXPECT_EQ(narrow.warp_tile.n, 192);
        EXPECT_EQ(narrow.schedule.instruction, "wgmma.m64n192k16");
        EXPECT_EQ(narrow.layout_ids, (std::vector<std::string>{"wgmma.m64n192k16.f16"}));
        EXPECT_EQ(narrow.stages, 4);
        EXPECT_EQ(narrow.dynamic_smem_bytes, 1024 + 4 * (128 + 192) * 128 + 32 * 1024 + 2 * 4 * 8);
        EXPECT_LT(narrow.dynamic_smem_bytes, d.dynamic_smem_bytes);
        EXPECT_NE(narrow.title.find("128 x 192 tiles for this size"), std::string::npos)
            << narrow.title;
        EXPECT_TRUE(narrow.for_problem == nullptr);
        EXPECT_EQ(narrow.launch_plan({3072, 3072, 3072}).rfind("128 x 192 tiles on 132 SMs", 0),
                  0u);
        EXPECT_EQ(d.for_problem({4096, 4096, 4096}, 132).block_tile.n, 256);
        EXPECT_EQ(d.for_problem({8192, 8192, 8192}, 132).block_tile.n, 256);
        EXPECT_EQ(d.for_problem({1024, 3072, 3072}, 132).block_tile.n, 192);
        EXPECT_EQ(d.for_problem({3072, 3072, 3072}, 114).block_tile.n, 256);
        EXPECT_EQ(d.launch_plan({4096, 4096, 4096}).rfind("128 x 256 tiles on 132 SMs", 0), 0u);
        EXPECT_EQ(d.launch_plan({3072, 3072, 3072}).rfind("128 x 192 tiles on 132 SMs", 0), 0u);
    }
    // FP8 keeps one tile.
    EXPECT_TRUE(find_kernel("wgmma_fp8.e4m3")->for_problem == nullptr);
}

TEST(Registry, OddSizesRunOrGiveOneLineReason) {
    for (const KernelDescriptor& k : all_kernels()) {
        for (const GemmProblem& p :
             {GemmProblem{4097, 129, 77}, GemmProblem{1, 1, 1}, GemmProblem{33, 17, 5}}) {
            const std::string why = k.can_run(p);
            EXPECT_EQ(why.find('\n'), std::string::npos) << k.id << ": " << why;
        }
    }
    // The FMA rungs and cuBLAS take every size.
    for (const char* id : {"naive_fma.f32", "smem_tiled.f32", "cublas.sgemm", "cublas.tf32",
                           "cublas.f16", "cublas.bf16"}) {
        EXPECT_EQ(find_kernel(id)->can_run({4097, 129, 77}), "") << id;
    }
}

// The descriptor's size contract (size_multiples) is can_run's: on every side from the small
// and odd to kMaxProblemSide, can_run accepts exactly the sizes outside_documented_sizes calls
// supported. A can_run stricter than its descriptor (the GPU ladder test would fail its
// refusal) or looser (a contract that promises too little) shows here, without a GPU.
TEST(Registry, CanRunAcceptsExactlyTheDocumentedSizes) {
    const std::int64_t sides[] = {1,    2,    3,    4,    5,     7,     8,    12,  16,
                                  17,   24,   40,   77,   96,    100,   128,  129, 1000,
                                  1032, 3072, 4097, 4104, 32768, 65535, 65536};
    for (const KernelDescriptor& k : all_kernels()) {
        int refused = 0;
        for (std::int64_t m : sides) {
            for (std::int64_t n : sides) {
                for (std::int64_t kk : sides) {
                    const GemmProblem p{m, n, kk};
                    const std::string documented = outside_documented_sizes(k, p, kH100Limits);
                    const std::string can_run = k.can_run(p);
                    refused += !can_run.empty();
                    ASSERT_EQ(can_run.empty(), documented.empty())
                        << k.id << " " << m << "x" << n << "x" << kk << ": can_run says '"
                        << can_run << "', the descriptor '" << documented << "'";
                }
            }
        }
        const bool takes_every_size =
            k.size_multiples.m == 1 && k.size_multiples.n == 1 && k.size_multiples.k == 1;
        EXPECT_EQ(refused == 0, takes_every_size) << k.id << " refused " << refused;
    }
}

TEST(Registry, OutsideDocumentedSizesNamesTheRuleAndTheArchitecture) {
    const KernelDescriptor& wmma = *find_kernel("wmma.f16");
    EXPECT_EQ(outside_documented_sizes(wmma, {4097, 128, 77}, kH100Limits),
              "K = 77 is not a multiple of 8");
    EXPECT_EQ(outside_documented_sizes(wmma, {4097, 129, 80}, kH100Limits),
              "N = 129 is not a multiple of 8");
    EXPECT_EQ(outside_documented_sizes(wmma, {4097, 128, 80}, kH100Limits), "");
    EXPECT_EQ(outside_documented_sizes(*find_kernel("mma_tf32_puzzle"), {33, 17, 40}, kH100Limits),
              "N = 17 is not a multiple of 4");
    EXPECT_EQ(outside_documented_sizes(*find_kernel("naive_fma.f32"), {4097, 129, 77}, kH100Limits),
              "");
    EXPECT_EQ(outside_documented_sizes(*find_kernel("naive_fma.f32"), {0, 1, 1}, kH100Limits),
              "M = 0 is outside 1..65536");
    // The architecture and shared memory, but never the free memory: out of memory is no
    // documented refusal.
    EXPECT_EQ(outside_documented_sizes(*find_kernel("wgmma_tma.bf16"), {128, 128, 128},
                                       DeviceLimits{80, 163 * 1024}),
              "wgmma_tma.bf16 needs sm_90 or newer; this GPU is sm_80");
    DeviceLimits none_free = kH100Limits;
    none_free.free_memory_bytes = 0;
    EXPECT_EQ(outside_documented_sizes(wmma, {4096, 4096, 4096}, none_free), "");
}

TEST(Registry, WhyNotRunnableChecksSizeAndArchitecture) {
    const KernelDescriptor& naive = *find_kernel("naive_fma.f32");
    EXPECT_NE(why_not_runnable(naive, {0, 4, 4}, kH100Limits), "");
    EXPECT_NE(why_not_runnable(naive, {4, 4, -1}, kH100Limits), "");
    EXPECT_NE(why_not_runnable(naive, {4, 4, 4}, DeviceLimits{75, 64 * 1024}).find("sm_80"),
              std::string::npos);
    EXPECT_EQ(why_not_runnable(naive, {4, 4, 4}, DeviceLimits{80, 163 * 1024}), "");
}

TEST(Registry, KernelsThatNeedMoreSharedMemoryThanTheGpuHasSayHowMuch) {
    for (const KernelDescriptor& k : all_kernels()) {
        if (k.min_sm > 89) continue;  // refused on Ada for its architecture first
        const std::string on_ada =
            why_not_runnable(k, {256, 256, 256}, DeviceLimits{89, 99 * 1024});
        if (k.dynamic_smem_bytes > 99 * 1024) {
            EXPECT_NE(on_ada.find("KiB of shared memory"), std::string::npos)
                << k.id << ": " << on_ada;
        } else {
            EXPECT_EQ(on_ada, "") << k.id;
        }
    }
    EXPECT_GT(find_kernel("mma_cp_async.f16")->dynamic_smem_bytes, 163 * 1024)
        << "the rung this test is about";
}

TEST(Registry, RunMemoryCountsInputsOutputAndTheCublasReference) {
    // CPU reference: A, B and C (naive f32 at 512^3: 3 x 1 MiB) and their guard zones (two each,
    // 256 rows of 2 KiB = 512 KiB).
    EXPECT_EQ(run_memory_bytes(*find_kernel("naive_fma.f32"), {512, 512, 512}),
              3 * (1 << 20) + 6 * (512 << 10));
    // cuBLAS reference (M*N*K > kCpuReferenceMaxWork) for f16: A, B in 2 bytes, C, the
    // reference's C and f32 copies of A and B: 2 + 2 + 4 + 4 + 4 + 4 bytes per 4096^2.
    // Guard zones: 256 rows of A (8 KiB) and B (8 KiB), 2 MiB each, and of C (16 KiB), 4 MiB.
    EXPECT_EQ(run_memory_bytes(*find_kernel("wmma.f16"), {4096, 4096, 4096}),
              std::int64_t{20} * 4096 * 4096 + 2 * (std::int64_t{8} << 20));
}

TEST(Registry, ProblemsLargerThanFreeGpuMemorySayHowManyBytes) {
    const KernelDescriptor& naive = *find_kernel("naive_fma.f32");
    DeviceLimits ten_gib = kH100Limits;
    ten_gib.free_memory_bytes = std::int64_t{10} << 30;
    // 65536^3 f32: A, B, C and the reference's C, 16 GiB each, and six 16 MiB guard zones.
    EXPECT_EQ(why_not_runnable(naive, {65536, 65536, 65536}, ten_gib),
              "65536x65536x65536 needs 64.09 GiB (68820140032 bytes) of GPU memory; 10.00 GiB are "
              "free");
    EXPECT_EQ(why_not_runnable(naive, {4096, 4096, 4096}, ten_gib), "");
    // 80 % of the free memory may be used: 6 MiB fit in 7.5 MiB, not in 7.4 MiB.
    DeviceLimits tight = kH100Limits;
    tight.free_memory_bytes = 7680 * 1024;
    EXPECT_EQ(why_not_runnable(naive, {512, 512, 512}, tight), "");
    tight.free_memory_bytes = 7600 * 1024;
    EXPECT_NE(why_not_runnable(naive, {512, 512, 512}, tight).find("(6291456 bytes)"),
              std::string::npos);
    // Unknown free memory (the default) is not checked; a kernel's own reason comes first.
    EXPECT_EQ(why_not_runnable(naive, {65536, 65536, 65536}, kH100Limits), "");
    const KernelDescriptor& cp_async = *find_kernel("mma_cp_async.f16");
    DeviceLimits none_free = kH100Limits;
    none_free.free_memory_bytes = 0;
    EXPECT_NE(why_not_runnable(cp_async, {64, 64, 63}, none_free).find("multiple of 8"),
              std::string::npos);
    EXPECT_NE(why_not_runnable(cp_async, {64, 64, 64}, none_free).find("0.00 GiB are free"),
              std::string::npos);
}

TEST(Registry, SixteenBitRungsAskedForAnotherPrecisionRefuseEverything) {
    using Factory = KernelDescriptor (*)(Precision);
    for (Factory factory : {mma_ldmatrix_xor_kernel, mma_cp_async_kernel, wgmma_tma_kernel,
                            wgmma_warp_specialized_kernel, wgmma_persistent_kernel}) {
        const KernelDescriptor d = factory(Precision::kTF32);
        EXPECT_EQ(d.id, "");
        EXPECT_EQ(d.can_run({64, 64, 64}), "this rung takes f16 or bf16 inputs only");
    }
}

TEST(Precision, NamesAndStorage) {
    EXPECT_STREQ(precision_name(Precision::kTF32), "tf32");
    EXPECT_STREQ(precision_name(Precision::kE4M3), "e4m3");
    EXPECT_EQ(storage_bytes(Precision::kE4M3), 1);
    // Only e4m3 stores B K-major (N x K), so B's rows are K long there.
    EXPECT_TRUE(b_is_k_major(Precision::kE4M3));
    EXPECT_FALSE(b_is_k_major(Precision::kBF16));
    EXPECT_EQ(b_row_length(Precision::kE4M3, {16, 8192, 1024}), 1024);
    EXPECT_EQ(b_row_length(Precision::kF16, {16, 8192, 1024}), 8192);
    // e4m3 is not a type users' kernels may declare.
    EXPECT_FALSE(precision_from_name("e4m3").has_value());
    EXPECT_EQ(precision_from_name("bf16"), Precision::kBF16);
    EXPECT_EQ(storage_bytes(Precision::kF32), 4);
    EXPECT_EQ(storage_bytes(Precision::kTF32), 4);
    EXPECT_EQ(storage_bytes(Precision::kF16), 2);
    EXPECT_EQ(storage_bytes(Precision::kBF16), 2);
}

}  // namespace
}  // namespace tclens::kernels
