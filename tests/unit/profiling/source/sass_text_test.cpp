// The nvdisasm/cuobjdump text reader on tests/data/nvdisasm/: the hand-made listing (functions,
// inlined frames, locations that hold for several instructions, skipped lines), and every real
// listing the H100 run captured there (*.nvdisasm.txt), checked for what any listing must be.

#include "profiling/source/sass_text.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace tclens::profiling {
namespace {

const std::string kData = std::string(TCLENS_TEST_DATA_DIR) + "/nvdisasm";
const std::string kKernel = "/work/main/kernels/08_mma_cp_async.cu";
const std::string kPtx = "/work/main/kernels/ptx.cuh";
const std::string kNaive = "/work/main/kernels/01_naive_fma.cu";

std::string read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<SassFunction> hand_made() {
    return parse_sass_text(read(kData + "/hand_made.nvdisasm.txt"));
}

TEST(SassText, ReadsEveryFunctionWithItsInstructionsInOrder) {
    const std::vector<SassFunction> functions = hand_made();
    ASSERT_EQ(functions.size(), 2u);
    EXPECT_EQ(functions[0].name, "_ZN6tclens7kernels12_GLOBAL__N_114naive_fma_gemmEPKfS3_Pfiii");
    ASSERT_EQ(functions[0].instructions.size(), 10u);  // labels and directives skipped
    EXPECT_EQ(functions[0].instructions[3].pc, 0x30u);
    EXPECT_EQ(functions[0].instructions[3].text, "@P0 EXIT");
    EXPECT_EQ(functions[0].instructions[9].opcode, "BRA");
    ASSERT_EQ(functions[1].instructions.size(), 10u);
    EXPECT_EQ(functions[1].instructions[1].opcode, "LDGSTS.E.BYPASS.128");
}

TEST(SassText, ALocationHoldsUntilTheNextOneAndPtxDebugLinesAreSkipped) {
    const std::vector<SassFunction> functions = hand_made();
    const SassFunction& naive = functions[0];
    const auto line_of = [&naive](std::size_t i) { return naive.instructions[i].frames; };
    ASSERT_EQ(line_of(1).size(), 1u);
    EXPECT_EQ(line_of(1)[0], (SourceLocation{kNaive, 31}));  // 0x10 under line 31's block
    ASSERT_EQ(line_of(2).size(), 1u);
    EXPECT_EQ(line_of(2)[0], (SourceLocation{kNaive, 35}));  // .nv_debug_ptx_txt left out
    EXPECT_EQ(line_of(6)[0], (SourceLocation{kNaive, 40}));  // through the label .L_x_0
    EXPECT_EQ(line_of(9)[0], (SourceLocation{kNaive, 44}));  // the trailing BRA keeps line 44
}

TEST(SassText, InlinedFramesRunFromTheHelperToTheKernelsOwnLine) {
    const std::vector<SassFunction> functions = hand_made();
    const SassFunction& gemm = functions[1];
    const std::vector<SourceLocation> a_copy = {{kPtx, 23}, {kKernel, 218}, {kKernel, 349}};
    EXPECT_EQ(gemm.instructions[1].frames, a_copy);
    EXPECT_EQ(gemm.instructions[2].frames[1], (SourceLocation{kKernel, 224}));
    // -g style: one line naming its call site -> the frame and the call site.
    const std::vector<SourceLocation> ldsm = {{kPtx, 39}, {kKernel, 296}};
    EXPECT_EQ(gemm.instructions[3].frames, ldsm);
    EXPECT_EQ(gemm.instructions[4].frames, ldsm);
    const std::vector<SourceLocation> mma = {{kKernel, 160}, {kKernel, 316}};
    EXPECT_EQ(gemm.instructions[6].frames, mma);
    EXPECT_TRUE(gemm.has_line_info());
}

TEST(SassText, ReadsCuobjdumpListingsWithoutLineInfo) {
    const std::vector<SassFunction> functions =
        parse_sass_text(read(std::string(TCLENS_TEST_DATA_DIR) + "/sass_listing_excerpt.txt"));
    ASSERT_FALSE(functions.empty());
    // The excerpt lists naive_fma_gemm for three architectures; the first listing is kept.
    EXPECT_EQ(functions[0].instructions.size(), 14u);
    EXPECT_FALSE(functions[0].has_line_info());
    EXPECT_EQ(functions[0].instructions[0].text, "LDC R1, c[0x0][0x28]");
}

TEST(SassText, ParsesLineInfoLines) {
    SourceLocation frame;
    SourceLocation call;
    ASSERT_TRUE(parse_line_info("\t//## File \"/a b.cu\", line 7 inlined at \"/c.cu\", line 9",
                                frame, &call));
    EXPECT_EQ(frame, (SourceLocation{"/a b.cu", 7}));
    EXPECT_EQ(call, (SourceLocation{"/c.cu", 9}));
    ASSERT_TRUE(parse_line_info("//## File \"/a.cu\", line 12", frame, &call));
    EXPECT_FALSE(call.known());
    for (const char* bad :
         {"//## File \"/a.cu\", line 0", "//## File \"/a.cu\", line x", "//## File \"/a.cu\"",
          "//## File /a.cu, line 3", "// File \"/a.cu\", line 3",
          "//## File \"/a.cu\", line 99999999999", "//## File \"\", line 3"}) {
        EXPECT_FALSE(parse_line_info(bad, frame)) << bad;
    }
}

TEST(SassText, InstructionsBeforeAnyFunctionAreIgnored) {
    const std::vector<SassFunction> functions =
        parse_sass_text("/*0000*/ MOV R1, R2 ;\n.text._Z1fv:\n/*0000*/ EXIT ;\n");
    ASSERT_EQ(functions.size(), 1u);
    EXPECT_EQ(functions[0].instructions.size(), 1u);
}

// Every listing captured from a real nvdisasm: functions with instructions at rising offsets, a
// multiple of 16 apart on sm_70 and newer, and with line info (the ladder is built -lineinfo).
TEST(SassText, RealListingsReadAsListings) {
    int real = 0;
    for (const auto& entry : std::filesystem::directory_iterator(kData)) {
        const std::string name = entry.path().filename().string();
        if (name == "hand_made.nvdisasm.txt" || name.find(".nvdisasm.txt") == std::string::npos) {
            continue;
        }
        ++real;
        const std::vector<SassFunction> functions = parse_sass_text(read(entry.path().string()));
        ASSERT_FALSE(functions.empty()) << name;
        for (const SassFunction& function : functions) {
            ASSERT_FALSE(function.instructions.empty()) << name << " " << function.name;
            EXPECT_TRUE(function.has_line_info()) << name << " " << function.name;
            for (std::size_t i = 1; i < function.instructions.size(); ++i) {
                EXPECT_GT(function.instructions[i].pc, function.instructions[i - 1].pc) << name;
                EXPECT_EQ(function.instructions[i].pc % 16, 0u) << name;
            }
        }
    }
    EXPECT_GT(real, 0) << "no real nvdisasm listing in tests/data/nvdisasm: the committed "
                          "wgmma_persistent.f16.nvdisasm.txt is gone";
}

}  // namespace
}  // namespace tclens::profiling
