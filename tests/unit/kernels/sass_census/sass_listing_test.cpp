// The cuobjdump -sass reader on tests/data/sass_listing_excerpt.txt, a hand-made listing_excerpt in
// the listing's layout: functions per architecture, counts per class, demangled names, and the
// lines it must skip (encodings, labels, headers, PTX sections, a symbol listed twice).

#include "kernels/sass_census/sass_listing.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace tclens::kernels {
namespace {

std::string listing_excerpt() {
    std::ifstream in(std::string(TCLENS_TEST_DATA_DIR) + "/sass_listing_excerpt.txt");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

constexpr const char* kNaive =
    "tclens::kernels::(anonymous namespace)::naive_fma_gemm(float const*, float const*, float*, "
    "int, int, int)";
constexpr const char* kWmmaHalf =
    "void tclens::kernels::(anonymous namespace)::wmma_gemm_kernel<__half>(__half const*, __half "
    "const*, float*, int, int, int, int)";

const FunctionMix* find(const std::vector<FunctionMix>& functions, const std::string& arch,
                        const std::string& function) {
    for (const FunctionMix& f : functions) {
        if (f.arch == arch && f.function == function) return &f;
    }
    return nullptr;
}

TEST(SassListing, ReadsEveryFunctionOncePerArchitecture) {
    const std::vector<FunctionMix> functions = parse_sass_listing(listing_excerpt());
    ASSERT_EQ(functions.size(), 7u);
    const char* archs[] = {"sm_80", "sm_89", "sm_90a", "sm_80", "sm_80", "sm_90a", "sm_90a"};
    for (size_t i = 0; i < functions.size(); ++i) EXPECT_EQ(functions[i].arch, archs[i]) << i;
    EXPECT_NE(find(functions, "sm_89", kNaive), nullptr);
    EXPECT_NE(find(functions, "sm_90a", kNaive), nullptr);
}

TEST(SassListing, CountsClassesAndSkipsEncodingsLabelsAndPredicates) {
    const std::vector<FunctionMix> functions = parse_sass_listing(listing_excerpt());
    const FunctionMix* naive = find(functions, "sm_80", kNaive);
    ASSERT_NE(naive, nullptr);
    // 16 lines of code: 14 instructions (one "@P0 EXIT", one "@!P1 BRA") and 2 labels.
    EXPECT_EQ(count_of(naive->counts, OpClass::kTotal), 14);
    EXPECT_EQ(count_of(naive->counts, OpClass::kFfma), 3);
    EXPECT_EQ(count_of(naive->counts, OpClass::kLdgLdgsts), 2);
    EXPECT_EQ(count_of(naive->counts, OpClass::kHmma), 0);

    const FunctionMix* wmma = find(functions, "sm_80", kWmmaHalf);
    ASSERT_NE(wmma, nullptr);
    EXPECT_EQ(count_of(wmma->counts, OpClass::kTotal), 13);
    EXPECT_EQ(count_of(wmma->counts, OpClass::kHmma), 4);
    EXPECT_EQ(count_of(wmma->counts, OpClass::kLdsLdsm), 3);  // 2 LDSM, 1 LDS
    EXPECT_EQ(count_of(wmma->counts, OpClass::kSts), 1);
    EXPECT_EQ(count_of(wmma->counts, OpClass::kLdgLdgsts), 1);  // LDGSTS
    EXPECT_EQ(count_of(wmma->counts, OpClass::kBar), 1);
    EXPECT_EQ(count_of(wmma->counts, OpClass::kFmulFadd), 1);  // "@!P1 FADD"
}

TEST(SassListing, ASymbolListedTwiceCountsOnce) {
    // The listing_excerpt lists wmma_gemm_kernel<__half> for sm_80 in a second fat binary with a
    // different body (2 HMMA); the first listing is kept.
    const std::vector<FunctionMix> functions = parse_sass_listing(listing_excerpt());
    int listed = 0;
    for (const FunctionMix& f : functions) listed += f.arch == "sm_80" && f.function == kWmmaHalf;
    EXPECT_EQ(listed, 1);
    EXPECT_EQ(count_of(find(functions, "sm_80", kWmmaHalf)->counts, OpClass::kHmma), 4);
}

TEST(SassListing, HopperFunctionsCountHgmmaAndTma) {
    const std::vector<FunctionMix> functions = parse_sass_listing(listing_excerpt());
    const FunctionMix& tma = functions[5];
    EXPECT_EQ(tma.function.rfind(
                  "void tclens::kernels::(anonymous namespace)::wgmma_tma_gemm<__half, ", 0),
              0u)
        << tma.function;
    EXPECT_EQ(count_of(tma.counts, OpClass::kHgmma), 2);
    EXPECT_EQ(count_of(tma.counts, OpClass::kUtmaldg), 2);  // one of them "@!UP0 UTMALDG.2D"
    EXPECT_EQ(count_of(tma.counts, OpClass::kFmulFadd), 1);
    EXPECT_EQ(count_of(tma.counts, OpClass::kTotal), 11);
}

TEST(SassListing, LinesOutsideAFunctionAndBrokenLinesAreSkipped) {
    const std::vector<FunctionMix> functions = parse_sass_listing(
        "        /*0000*/                   FFMA R1, R2, R3, R4 ;\n"  // before any function
        "\tcode for sm_80\n"
        "\t\tFunction : _Z6kernelv\n"
        "        /*0000*/                   FFMA R1, R2, R3, R4 ;\n"
        "        /* 0x000fe40000000800 */\n"
        "        /**/ FFMA R1, R2, R3, R4 ;\n"
        "        /*0010*/\n"
        "        /*0020*/  { FFMA R1, R2, R3, R4 ;\n"
        "        /*0030*/   @!PT FFMA R1, R2, R3, R4 ;");
    ASSERT_EQ(functions.size(), 1u);
    EXPECT_EQ(functions[0].function, "kernel()");
    EXPECT_EQ(count_of(functions[0].counts, OpClass::kFfma), 3);
    EXPECT_EQ(count_of(functions[0].counts, OpClass::kTotal), 3);
}

TEST(SassListing, DemangleKeepsWhatIsNotASymbol) {
    EXPECT_EQ(demangle_symbol("_Z6kernelPf"), "kernel(float*)");
    EXPECT_EQ(demangle_symbol("not_mangled"), "not_mangled");
}

}  // namespace
}  // namespace tclens::kernels
