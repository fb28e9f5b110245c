// `tclens layout`: listing, the JSON contract, exports and its errors (--verify with no GPU:
// exit 3). No GPU or display needed.

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/support/cli_checks.h"
#include "tests/support/png_inspect.h"
#include "tests/support/run_command.h"

namespace tclens {
namespace {

using test::run_command;

const std::string kTclens = TCLENS_BINARY;

TEST(LayoutCommand, ListsEveryId) {
    const auto result = run_command(kTclens + " layout --list");
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_NE(result.out.find("mma.m16n8k8.tf32\n"), std::string::npos);
    EXPECT_NE(result.out.find("ldmatrix.x4.trans\n"), std::string::npos);
    EXPECT_NE(result.out.find("wgmma.m64n256k16.f16\n"), std::string::npos);
    EXPECT_EQ(std::count(result.out.begin(), result.out.end(), '\n'), 8 + 6 + 32);
}

TEST(LayoutCommand, JsonFollowsTheContract) {
    const auto result = run_command(kTclens + " layout mma.m16n8k8.tf32 --json");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto json = nlohmann::json::parse(result.out);
    EXPECT_EQ(json.at("id"), "mma.m16n8k8.tf32");
    EXPECT_EQ(json.at("ptx"), "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32");
    EXPECT_EQ(json.at("threads"), 32);
    const auto& a = json.at("operands").at("A");
    EXPECT_EQ(a.at("rows"), 16);
    EXPECT_EQ(a.at("cols"), 8);
    EXPECT_EQ(a.at("elem_bits"), 32);
    ASSERT_EQ(a.at("elements").size(), 128u);
    // PTX ISA, m16n8k8 .tf32 A fragment: lane 5 holds a2 at (groupID 1, 4 + threadID 1).
    bool found = false;
    for (const auto& e : a.at("elements")) {
        if (e.at("lane") == 5 && e.at("reg") == 2) {
            EXPECT_EQ(e.at("row"), 1);
            EXPECT_EQ(e.at("col"), 5);
            EXPECT_EQ(e.at("sub"), 0);
            found = true;
        }
    }
    EXPECT_TRUE(found);
    for (const char* op : {"B", "C", "D"}) EXPECT_TRUE(json.at("operands").contains(op)) << op;
}

TEST(LayoutCommand, OperandSelectsOneOperand) {
    const auto result = run_command(kTclens + " layout ldmatrix.x2 --operand D --json");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto json = nlohmann::json::parse(result.out);
    EXPECT_EQ(json.at("operands").size(), 1u);
    EXPECT_EQ(json.at("operands").at("D").at("rows"), 16);
    EXPECT_EQ(json.at("address_lanes").size(), 16u);
}

TEST(LayoutCommand, TextGridNamesLaneAndRegister) {
    const auto result = run_command(kTclens + " layout mma.m16n8k16.f16 --operand B");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    // PTX ISA, m16n8k16 .f16 B: row (k) = threadID_in_group * 2 + i for b0's element i, col =
    // groupID. So k = 0 is lanes 0, 4, 8 ... sub 0 and k = 1 the same lanes' sub 1.
    EXPECT_NE(result.out.find("\n  T0.b0[0]  T4.b0[0]  T8.b0[0]"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("\n  T0.b0[1]  T4.b0[1]  T8.b0[1]"), std::string::npos);
    EXPECT_EQ(result.out.find(" \n"), std::string::npos) << "no trailing blanks";
}

TEST(LayoutCommand, UnknownIdIsUsageErrorListingValidIds) {
    const auto result = run_command(kTclens + " layout mma.m16n8k9.tf32");
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("mma.m16n8k9.tf32"), std::string::npos);
    EXPECT_NE(result.err.find("ldmatrix.x4.trans"), std::string::npos);
}

TEST(LayoutCommand, MissingOperandIsUsageError) {
    for (const char* bad : {"wgmma.m64n64k16.f16 --operand B", "ldmatrix.x1 --operand A",
                            "mma.m16n8k8.f16 --operand E", "mma.m16n8k8.f16 --operand a"}) {
        const auto result = run_command(kTclens + " layout " + bad);
        EXPECT_EQ(result.exit_code, 2) << bad;
        EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    }
}

TEST(LayoutCommand, ExportsSvgAndPng) {
    const std::string svg = test::temp_path("layout.svg"), png = test::temp_path("layout.png");
    const auto result =
        run_command(kTclens + " layout mma.m16n8k8.tf32 --svg " + svg + " --png " + png);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    ASSERT_TRUE(std::filesystem::exists(svg));
    EXPECT_GT(std::filesystem::file_size(svg), 10000u);
    const test::PngFacts facts = test::inspect_png(png);
    ASSERT_TRUE(facts.loaded);
    EXPECT_GT(facts.width, 400);
    EXPECT_GE(facts.distinct_colours, 6);  // background, grid, text, four register colours
    std::filesystem::remove(svg);
    std::filesystem::remove(png);
}

TEST(LayoutCommand, UnwritableExportFailsInOneLine) {
    const std::string png = test::temp_path("no_such_folder") + "/layout.png";
    const auto result = run_command(kTclens + " layout mma.m16n8k8.tf32 --png " + png);
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_FALSE(std::filesystem::exists(png));
}

TEST(LayoutCommand, VerifyWithoutGpuSaysSoAndExits3) {
    if (test::run_command(kTclens + " --version").out.find("GPU: none") == std::string::npos) {
        GTEST_SKIP() << "skipped: this machine has a GPU (tests/gpu covers --verify)";
    }
    const auto result = run_command(kTclens + " layout ldmatrix.x4 --verify");
    EXPECT_EQ(result.exit_code, 3);
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("needs a GPU"), std::string::npos) << result.err;
}

TEST(BadInput, LayoutWithoutAnIdOrAnOperandValue) {
    test::expect_usage_errors(
        kTclens, {
                     {"layout --operand A", {"valid IDs", "mma.m16n8k8.tf32", "ldmatrix.x4.trans"}},
                     {"layout mma.m16n8k8.f16 --operand", {"--operand"}},
                 });
}

TEST(FaultInjectionCli, NoGpuMakesLayoutVerifyExit3) {
    test::expect_no_gpu_refusal(kTclens, "layout ldmatrix.x4 --verify");
}

}  // namespace
}  // namespace tclens
