// The instruction mix: the explicit id -> function table covers the ladder, matching and summing
// on the committed census_excerpt, the cubin a GPU loads, and what the real census built into this
// binary says about each rung (needs a build with cuobjdump; skipped, saying so, without one).

#include "kernels/instruction_mix.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "kernels/registry.h"

namespace tclens::kernels {
namespace {

std::vector<FunctionMix> census_excerpt() {
    std::ifstream in(std::string(TCLENS_TEST_DATA_DIR) + "/sass_listing_excerpt.txt");
    std::stringstream text;
    text << in.rdbuf();
    return parse_sass_listing(text.str());
}

TEST(InstructionMix, EveryLadderIdHasOneFunctionAndNoCublasIdHas) {
    std::set<std::string> listed;
    for (const KernelFunction& fn : kernel_functions()) {
        EXPECT_TRUE(listed.insert(fn.id).second) << fn.id << " listed twice";
        const KernelDescriptor* kernel = find_kernel(fn.id);
        ASSERT_NE(kernel, nullptr) << fn.id << " is not a registry id";
        EXPECT_GT(kernel->rung, 0) << fn.id;
        EXPECT_FALSE(fn.function.empty()) << fn.id;
    }
    for (const KernelDescriptor& kernel : all_kernels()) {
        EXPECT_EQ(listed.count(kernel.id), kernel.rung > 0 ? 1u : 0u) << kernel.id;
    }
}

TEST(InstructionMix, RunsFunctionMatchesNameAndInputType) {
    const KernelFunction half{"wmma.f16", "wmma_gemm_kernel", "__half"};
    const KernelFunction bf16{"wmma.bf16", "wmma_gemm_kernel", "__nv_bfloat16"};
    const std::string symbol =
        "void tclens::kernels::(anonymous namespace)::wmma_gemm_kernel<__half>(__half const*)";
    EXPECT_TRUE(runs_function(symbol, half));
    EXPECT_FALSE(runs_function(symbol, bf16));
    EXPECT_FALSE(runs_function("void ns::wmma_gemm_kernel<__half2>(int)", half));
    EXPECT_FALSE(runs_function("void ns::my_wmma_gemm_kernel<__half>(int)", half));
    const KernelFunction plain{"naive_fma.f32", "naive_fma_gemm", ""};
    EXPECT_TRUE(runs_function("ns::(anonymous namespace)::naive_fma_gemm(float const*)", plain));
    EXPECT_TRUE(runs_function("naive_fma_gemm(float const*)", plain));
    EXPECT_FALSE(runs_function("ns::naive_fma_gemm_v2(float const*)", plain));
}

// Rungs 11 and 13 run one kernel template, persistent_gemm (kernels/persistent_gemm.cuh): the
// table's input types tell the instantiations apart (symbols as c++filt prints them), and rung
// 11's two tiles (128 x 256 and 128 x 192, kernels/wave_choice.h) are both rung 11's.
TEST(InstructionMix, PersistentRungsAreToldApartByTheirInputType) {
    const auto entry = [](const std::string& id) {
        for (const KernelFunction& fn : kernel_functions()) {
            if (fn.id == id) return fn;
        }
        return KernelFunction{};
    };
    const auto symbol = [](const std::string& element, int block_n = 256) {
        return "void tclens::kernels::persistent_gemm<" + element +
               ", tclens::kernels::PersistentConfig<" + element + ", " + std::to_string(block_n) +
               ", 4, 2, 8, 16, 2, true, false> >(CUtensorMap_st, CUtensorMap_st, "
               "CUtensorMap_st, int, int, int, int, int)";
    };
    const KernelFunction fp8 = entry("wgmma_fp8.e4m3");
    const KernelFunction bf16 = entry("wgmma_persistent.bf16");
    EXPECT_TRUE(runs_function(symbol("__nv_fp8_e4m3"), fp8));
    EXPECT_FALSE(runs_function(symbol("__nv_bfloat16"), fp8));
    EXPECT_FALSE(runs_function(symbol("__half"), fp8));
    EXPECT_TRUE(runs_function(symbol("__nv_bfloat16"), bf16));
    EXPECT_FALSE(runs_function(symbol("__nv_fp8_e4m3"), bf16));
    EXPECT_TRUE(runs_function(symbol("__nv_bfloat16", 192), bf16));
    EXPECT_FALSE(runs_function(symbol("__nv_bfloat16", 192), fp8));
    EXPECT_FALSE(runs_function(symbol("__half", 192), bf16));
}

// The traced variants (kernels/trace.cuh) are left out of the timed kernel's mix: the last
// template argument true is kTraced, a true inside the Config's arguments is not.
TEST(InstructionMix, RunsFunctionLeavesOutTracedVariants) {
    const KernelFunction tma{"wgmma_tma.f16", "wgmma_tma_gemm", "__half"};
    const KernelFunction persistent{"wgmma_persistent.f16", "persistent_gemm", "__half"};
    EXPECT_TRUE(runs_function(
        "void ns::(anonymous namespace)::wgmma_tma_gemm<__half, ns::Cfg<128, 4>, false>(int)",
        tma));
    EXPECT_FALSE(runs_function(
        "void ns::(anonymous namespace)::wgmma_tma_gemm<__half, ns::Cfg<128, 4>, true>(int)", tma));
    EXPECT_TRUE(runs_function(
        "void ns::persistent_gemm<__half, ns::PersistentConfig<__half, 256, 2, true, false>, "
        "false>(int)",
        persistent));
    EXPECT_FALSE(runs_function(
        "void ns::persistent_gemm<__half, ns::PersistentConfig<__half, 256, 2, true, false>, "
        "true>(int)",
        persistent));
    EXPECT_TRUE(runs_function(
        "void ns::persistent_gemm<__half, ns::PersistentConfig<__half, 256, 2, false, true> >(int)",
        persistent));
}

TEST(InstructionMix, SumsEveryInstantiationOfTheExcerpt) {
    const std::vector<FunctionMix> census = census_excerpt();
    const auto naive = sum_instruction_mix(census, "naive_fma.f32", "sm_80");
    ASSERT_TRUE(naive.has_value());
    EXPECT_EQ(naive->functions, 1);
    EXPECT_EQ((*naive)[OpClass::kFfma], 3);
    EXPECT_EQ((*naive)[OpClass::kHmma], 0);

    const auto half = sum_instruction_mix(census, "wmma.f16", "sm_80");
    const auto bf16 = sum_instruction_mix(census, "wmma.bf16", "sm_80");
    ASSERT_TRUE(half && bf16);
    EXPECT_EQ((*half)[OpClass::kHmma], 4);
    EXPECT_EQ((*bf16)[OpClass::kHmma], 2);

    const auto tma = sum_instruction_mix(census, "wgmma_tma.f16", "sm_90a");  // two configs
    ASSERT_TRUE(tma.has_value());
    EXPECT_EQ(tma->arch, "sm_90a");
    EXPECT_EQ(tma->functions, 2);
    EXPECT_EQ((*tma)[OpClass::kHgmma], 4);
    EXPECT_EQ((*tma)[OpClass::kUtmaldg], 4);
    EXPECT_EQ((*tma)[OpClass::kTotal], 22);

    EXPECT_FALSE(
        sum_instruction_mix(census, "wgmma_tma.f16", "sm_80"));  // not in the census_excerpt
    EXPECT_FALSE(sum_instruction_mix(census, "wgmma_tma.bf16", "sm_90a"));
    EXPECT_FALSE(sum_instruction_mix(census, "cublas.f16", "sm_90a"));
    EXPECT_EQ(instruction_mix_text(*naive),
              "HMMA 0, HGMMA 0, IMMA 0, FFMA 3, FMUL/FADD 0, LDS/LDSM 0, STS 0, LDG/LDGSTS 2, "
              "UTMALDG 0, BAR 0, total 14");
}

TEST(InstructionMix, CubinArchIsTheOneTheDriverLoads) {
    const std::vector<std::string> fat = {"sm_80", "sm_89", "sm_90a"};
    EXPECT_EQ(cubin_arch_for(fat, 80), "sm_80");
    EXPECT_EQ(cubin_arch_for(fat, 86), "sm_80");
    EXPECT_EQ(cubin_arch_for(fat, 87), "sm_80");
    EXPECT_EQ(cubin_arch_for(fat, 89), "sm_89");
    EXPECT_EQ(cubin_arch_for(fat, 90), "sm_90a");
    EXPECT_EQ(cubin_arch_for(fat, 100), "");
    EXPECT_EQ(cubin_arch_for(fat, 75), "");
    EXPECT_EQ(cubin_arch_for({"sm_90a"}, 91), "");  // arch-specific: exactly sm_90
    EXPECT_EQ(cubin_arch_for({"sm_90"}, 91), "sm_90");
}

TEST(InstructionMix, CublasIsNotOurBinary) {
    for (const char* id : {"cublas.sgemm", "cublas.tf32", "cublas.f16", "cublas.bf16"}) {
        EXPECT_EQ(instruction_mix(id, 90), nullptr) << id;
        EXPECT_EQ(instruction_mix_missing(id, 90), "cuBLAS: not our binary") << id;
        EXPECT_EQ(instruction_mix_line(id, 90),
                  std::string("SASS of ") + id + ": cuBLAS: not our binary");
    }
    EXPECT_EQ(instruction_mix_missing("fastest", 90), "unknown kernel id 'fastest'");
}

// The census built into this binary: only a build that found cuobjdump has one.
TEST(BuiltInCensus, WithoutOneEveryRungSaysWhy) {
    if (!built_in_functions().empty()) GTEST_SKIP() << "skipped: this build has a SASS census";
    EXPECT_FALSE(census_missing().empty());
    for (const KernelFunction& fn : kernel_functions()) {
        EXPECT_EQ(instruction_mix(fn.id, 90), nullptr);
        EXPECT_EQ(instruction_mix_missing(fn.id, 90), census_missing());
    }
}

TEST(BuiltInCensus, EveryLadderIdResolvesOnEveryArchitecture) {
    if (built_in_functions().empty()) GTEST_SKIP() << "skipped: " << census_missing();
    EXPECT_TRUE(census_missing().empty());
    EXPECT_FALSE(census_origin().empty());
    for (const KernelFunction& fn : kernel_functions()) {
        for (const int sm : {80, 89, 90}) {
            const InstructionMix* mix = instruction_mix(fn.id, sm);
            ASSERT_NE(mix, nullptr)
                << fn.id << " sm " << sm << ": " << instruction_mix_missing(fn.id, sm);
            EXPECT_GE(mix->functions, 1);
            EXPECT_EQ(instruction_mix_missing(fn.id, sm), "");
        }
        EXPECT_EQ(instruction_mix(fn.id, 90)->arch, "sm_90a");
        EXPECT_EQ(instruction_mix(fn.id, 86)->arch, "sm_80");
        EXPECT_EQ(instruction_mix(fn.id, 100), nullptr);
        EXPECT_NE(instruction_mix_missing(fn.id, 100).find("no SASS for sm_100"),
                  std::string::npos);
    }
}

// FMA rungs (no MMA tile): FFMA, no HMMA. MMA rungs (mma.sync / wmma, up to sm_80): HMMA on
// every architecture. wgmma rungs (min_sm 90): HGMMA on sm_90a only, stubs elsewhere.
TEST(BuiltInCensus, EachRungUsesThePipeItTeaches) {
    if (built_in_functions().empty()) GTEST_SKIP() << "skipped: " << census_missing();
    for (const KernelFunction& fn : kernel_functions()) {
        const KernelDescriptor& kernel = *find_kernel(fn.id);
        for (const int sm : {80, 89, 90}) {
            SCOPED_TRACE(fn.id + " on sm " + std::to_string(sm));
            const InstructionMix* found = instruction_mix(fn.id, sm);
            ASSERT_NE(found, nullptr) << instruction_mix_missing(fn.id, sm);
            const InstructionMix& mix = *found;
            // Rung 14's function is rung 9's (its split-K is rung 9's kernel over K ranges).
            if (kernel.min_sm >= 90) {
                if (sm == 90) {
                    EXPECT_GT(mix[OpClass::kHgmma], 0);
                    EXPECT_GT(mix[OpClass::kUtmaldg], 0);
                } else {
                    EXPECT_EQ(mix[OpClass::kHgmma], 0);
                }
            } else if (kernel.mma_tile.m > 0) {
                EXPECT_GT(mix[OpClass::kHmma], 0);
                EXPECT_EQ(mix[OpClass::kHgmma], 0);
            } else {
                EXPECT_GT(mix[OpClass::kFfma], 0);
                EXPECT_EQ(mix[OpClass::kHmma], 0);
                EXPECT_EQ(mix[OpClass::kHgmma], 0);
            }
        }
    }
}

}  // namespace
}  // namespace tclens::kernels
