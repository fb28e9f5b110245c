// The kernels' shared-memory accesses as the bank lab resolves them: every access a registry
// kernel declares resolves to a viz pattern and tile that the model accepts under the kernel's
// own swizzle, names are "KERNEL/LABEL" and unique, and a bad name is one line that says what
// is allowed.

#include "kernels/shared_access.h"

#include <gtest/gtest.h>

#include <set>

#include "kernels/registry.h"
#include "viz/bank_model.h"

namespace tclens::kernels {
namespace {

bool is_one_line(const std::string& text) { return text.find('\n') == std::string::npos; }

TEST(SharedAccess, EveryDeclaredAccessResolvesUnderTheKernelsSwizzle) {
    size_t declared = 0;
    for (const KernelDescriptor& kernel : all_kernels()) {
        std::set<std::string> labels;
        for (const SharedAccess& access : kernel.shared_accesses) {
            SCOPED_TRACE(kernel.id + "/" + access.label);
            ++declared;
            EXPECT_TRUE(labels.insert(access.label).second) << "label repeated";
            EXPECT_EQ(access.label.find(' '), std::string::npos);
            EXPECT_EQ(access.label.find('/'), std::string::npos);
            EXPECT_EQ(access.label.substr(0, 2), std::string(1, access.operand) + ".");

            const common::Expected<KernelAccess> resolved = resolve_kernel_access(kernel, access);
            ASSERT_TRUE(resolved) << resolved.error();
            EXPECT_EQ(resolved->pattern.name, access.pattern);
            EXPECT_EQ(resolved->tile, shared_access_tile(kernel, access));
            EXPECT_EQ(viz::validate_tile(resolved->pattern, resolved->tile), "");
            const common::Expected<viz::Swizzle> swizzle = viz::parse_swizzle(kernel.swizzle);
            ASSERT_TRUE(swizzle) << swizzle.error();
            EXPECT_EQ(resolved->swizzle.spec, swizzle->spec);
            EXPECT_EQ(viz::validate_swizzle(*swizzle, resolved->tile,
                                            resolved->pattern.access_bytes, resolved->pattern.name),
                      "");
            EXPECT_TRUE(viz::bank_requests(*swizzle, resolved->pattern, resolved->tile));

            const common::Expected<KernelAccess> parsed =
                parse_kernel_access(shared_access_name(kernel, access));
            ASSERT_TRUE(parsed) << parsed.error();
            EXPECT_EQ(parsed->kernel, &kernel);
            EXPECT_EQ(parsed->access, &access);
        }
    }
    EXPECT_EQ(kernel_accesses().size(), declared);
}

TEST(SharedAccess, TensorCoreRungsDeclareAccesses) {
    for (const char* id :
         {"wmma.f16", "wmma.bf16", "mma_tf32_puzzle", "mma_tf32_tuned", "mma_ldmatrix_xor.f16",
          "mma_cp_async.f16", "mma_cp_async.bf16", "mma_ldmatrix_xor.bf16"}) {
        const KernelDescriptor* kernel = find_kernel(id);
        ASSERT_NE(kernel, nullptr) << id;
        EXPECT_FALSE(kernel->shared_accesses.empty()) << id;
    }
    for (const char* id : {"cublas.sgemm", "cublas.f16"}) {
        EXPECT_TRUE(find_kernel(id)->shared_accesses.empty()) << id;
    }
}

TEST(SharedAccess, TilesComeFromTheBlockTileAndPrecision) {
    // Header example: mma_ldmatrix_xor.f16, block 128 x 128 x 64 of f16.
    const auto a = parse_kernel_access("mma_ldmatrix_xor.f16/A.ldmatrix");
    ASSERT_TRUE(a) << a.error();
    EXPECT_EQ(a->name, "mma_ldmatrix_xor.f16/A.ldmatrix");
    EXPECT_EQ(a->tile, (viz::Tile{128, 128}));
    EXPECT_EQ(a->pattern.name, "ldmatrix.x4");
    EXPECT_EQ(a->swizzle.spec, "xor");
    const auto b = parse_kernel_access("mma_ldmatrix_xor.f16/B.ldmatrix");
    ASSERT_TRUE(b) << b.error();
    EXPECT_EQ(b->tile, (viz::Tile{64, 256}));
    EXPECT_EQ(b->pattern.name, "ldmatrix.x4.trans");
    // wmma: block 128 x 256 x 32 of 16-bit elements, padded by its swizzle, not its tile.
    const auto wmma_a = parse_kernel_access("wmma.bf16/A.cp.async");
    ASSERT_TRUE(wmma_a) << wmma_a.error();
    EXPECT_EQ(wmma_a->tile, (viz::Tile{128, 64}));
    EXPECT_EQ(wmma_a->swizzle.spec, "pad:16");
    // f32 rungs store 4 bytes per element.
    const auto puzzle = parse_kernel_access("mma_tf32_puzzle/A.cp.async");
    ASSERT_TRUE(puzzle) << puzzle.error();
    EXPECT_EQ(puzzle->tile, (viz::Tile{128, 128}));
}

TEST(SharedAccess, XorRungsLdmatrixIsConflictFreeAndEightWayWithoutTheSwizzle) {
    const auto access = parse_kernel_access("mma_ldmatrix_xor.f16/A.ldmatrix");
    ASSERT_TRUE(access) << access.error();
    const auto own = viz::bank_requests(access->swizzle, access->pattern, access->tile);
    ASSERT_TRUE(own) << own.error();
    EXPECT_EQ(own->conflict_wavefronts, 0);
    const auto none =
        viz::bank_requests(*viz::parse_swizzle("none"), access->pattern, access->tile);
    ASSERT_TRUE(none) << none.error();
    EXPECT_EQ(none->total_wavefronts, 32);
}

TEST(SharedAccess, NamesWithASlashAreKernelAccessesAndNoPatternHasOne) {
    EXPECT_TRUE(is_kernel_access_name("mma_ldmatrix_xor.f16/A.ldmatrix"));
    EXPECT_TRUE(is_kernel_access_name("bogus/"));
    for (const viz::Pattern& pattern : viz::list_patterns()) {
        EXPECT_FALSE(is_kernel_access_name(pattern.name)) << pattern.name;
    }
}

TEST(SharedAccess, BadNamesAreOneLineAndSayWhatIsAllowed) {
    struct Case {
        const char* name;
        std::vector<std::string> mentions;
    };
    const Case cases[] = {
        {"mma_ldmatrix_xor.f16/C.ldmatrix",
         {"C.ldmatrix", "mma_ldmatrix_xor.f16/A.ldmatrix", "mma_ldmatrix_xor.f16/B.ldmatrix"}},
        {"mma_ldmatrix_xor.f16/", {"mma_ldmatrix_xor.f16/A.ldmatrix"}},
        {"bogus.kernel/A.ldmatrix", {"bogus.kernel", "mma_ldmatrix_xor.f16/A.ldmatrix"}},
        {"naive_fma.f32/A.lds", {"naive_fma.f32", "declares no", "smem_tiled.f32/B.lds"}},
        {"cublas.f16/A.ldmatrix", {"cublas.f16", "declares no"}},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        const common::Expected<KernelAccess> parsed = parse_kernel_access(c.name);
        ASSERT_FALSE(parsed);
        EXPECT_TRUE(is_one_line(parsed.error())) << parsed.error();
        for (const std::string& part : c.mentions) {
            EXPECT_NE(parsed.error().find(part), std::string::npos)
                << part << ": " << parsed.error();
        }
    }
}

TEST(SharedAccess, ADeclarationVizRejectsSaysWhichPart) {
    KernelDescriptor kernel;
    kernel.id = "test.kernel";
    kernel.precision = Precision::kF16;
    kernel.block_tile = {128, 128, 64};
    kernel.swizzle = "xor";
    struct Case {
        SharedAccess access;
        const char* swizzle;
        TileShape block;
        const char* mentions;
    };
    const Case cases[] = {
        {{"A.ldmatrix", 'A', "ldmatrix.x9"}, "xor", {128, 128, 64}, "ldmatrix.x9"},
        {{"C.ldmatrix", 'C', "ldmatrix.x4"}, "xor", {128, 128, 64}, "'C'"},
        {{"A.ldmatrix", 'A', "ldmatrix.x4"}, "zigzag", {128, 128, 64}, "zigzag"},
        {{"A.ldmatrix", 'A', "ldmatrix.x4"}, "xor", {8, 128, 64}, "too small"},
        {{"B.ldmatrix", 'B', "ldmatrix.x4"}, "xor", {128, 40, 64}, "80"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.mentions);
        kernel.swizzle = c.swizzle;
        kernel.block_tile = c.block;
        const common::Expected<KernelAccess> resolved = resolve_kernel_access(kernel, c.access);
        ASSERT_FALSE(resolved);
        EXPECT_TRUE(is_one_line(resolved.error())) << resolved.error();
        EXPECT_NE(resolved.error().find("test.kernel/" + c.access.label), std::string::npos)
            << resolved.error();
        EXPECT_NE(resolved.error().find(c.mentions), std::string::npos) << resolved.error();
    }
}

}  // namespace
}  // namespace tclens::kernels
