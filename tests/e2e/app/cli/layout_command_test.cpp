// `tclens layout`: listing, the JSON contract, exports and its errors (--verify with no GPU:
// exit 3). No GPU or display needed.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "tests/support/cli_checks.h"
#include "tests/support/png_inspect.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"
#include "tests/support/user_kernel_files.h"

namespace tclens {
namespace {

using test::run_command;

using test::kTclens;

TEST(LayoutCommand, ListsEveryId) {
    const auto result = run_command(kTclens + " layout --list");
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_NE(result.out.find("mma.m16n8k8.tf32\n"), std::string::npos);
    EXPECT_NE(result.out.find("ldmatrix.x4.trans\n"), std::string::npos);
    EXPECT_NE(result.out.find("wgmma.m64n256k16.f16\n"), std::string::npos);
    EXPECT_NE(result.out.find("mma.sp.m16n8k64.e4m3.sel0\n"), std::string::npos);
    EXPECT_NE(result.out.find("stmatrix.x4.trans\n"), std::string::npos);
    EXPECT_NE(result.out.find("wgmma.m64n256k256.b1\n"), std::string::npos);
    EXPECT_NE(result.out.find("tcgen05.sf.mxf4nvf4.4x\n"), std::string::npos);
    // mma.sync 19, mma.sp 16, ldmatrix 6, stmatrix 6, movmatrix 1, wgmma 4 x 32 + 3 x 18,
    // shared-memory views 20, tcgen05 17.
    EXPECT_EQ(std::count(result.out.begin(), result.out.end(), '\n'),
              19 + 16 + 6 + 6 + 1 + 4 * 32 + 3 * 18 + 20 + 17);
}

// --list --json: the same IDs grouped by family and architecture, each with its element count,
// and the tcgen05 models marked as such (no probe, the note, the PTX ISA section).
TEST(LayoutCommand, ListJsonGroupsIdsAndMarksModels) {
    const auto plain = run_command(kTclens + " layout --list");
    const auto result = run_command(kTclens + " layout --list --json");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto json = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(json.is_discarded()) << result.out;
    std::string ids;
    int models = 0;
    std::map<std::string, nlohmann::json> by_id;
    for (const auto& group : json.at("groups")) {
        ASSERT_FALSE(group.at("layouts").empty()) << group.at("title");
        for (const auto& layout : group.at("layouts")) {
            const std::string id = layout.at("id");
            ids += id + "\n";
            by_id[id] = layout;
            const bool model = id.rfind("tcgen05.", 0) == 0;
            EXPECT_EQ(layout.at("verified"), !model) << id;
            // Every ID that a GPU at hand can run has a probe; no model does.
            EXPECT_EQ(layout.at("probe"), !model) << id;
            EXPECT_EQ(layout.contains("note"), model) << id;
            if (model) {
                ++models;
                EXPECT_EQ(layout.at("note"), "model (PTX ISA), not verified: needs sm_100") << id;
                EXPECT_EQ(layout.at("source").get<std::string>().rfind("PTX ISA, ", 0), 0u) << id;
                EXPECT_NE(group.at("title").get<std::string>().find("(models)"), std::string::npos);
            }
        }
    }
    // The groups hold every ID of --list exactly once (grouped, so not in --list's order).
    const auto sorted_lines = [](const std::string& text) {
        std::multiset<std::string> lines;
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);) lines.insert(line);
        return lines;
    };
    EXPECT_EQ(sorted_lines(ids), sorted_lines(plain.out));
    EXPECT_EQ(sorted_lines(ids).size(), 267u);
    EXPECT_EQ(models, 17);
    EXPECT_EQ(json.at("groups").at(0).at("title"), "mma.sync, sm_80");
    // Hand counts: m16n8k8.tf32 holds A 16x8 + B 8x8 + C 16x8 + D 16x8 elements; a f16
    // shared-memory view holds the tiles of m64n64k16, A 64x16 and B 16x64.
    EXPECT_EQ(by_id.at("mma.m16n8k8.tf32").at("elements"), 128 + 64 + 128 + 128);
    EXPECT_EQ(by_id.at("mma.m16n8k8.tf32").at("ptx"),
              "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32");
    EXPECT_EQ(by_id.at("wgmma.smem.f16.k.sw128").at("elements"), 64 * 16 + 16 * 64);
    EXPECT_EQ(by_id.at("wgmma.m64n256k16.f16").at("threads"), 128);
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
                            "mma.m16n8k8.f16 --operand E", "mma.m16n8k8.f16 --operand a",
                            "wgmma.smem.f16.k.none --operand D"}) {
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

TEST(LayoutCommand, TextGridDescribesEachOperand) {
    const auto result = run_command(kTclens + " layout mma.sp.m16n8k16.f16.sel0 --operand E");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    // Selector 0: lane 4g holds metadata; field 9 of lane 4 is row 9, compressed column 1.
    EXPECT_NE(
        result.out.find("E (16x8, b2, 1 register per lane): only lanes 0, 4, ..., 28 hold it"),
        std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("T4.e0[9]"), std::string::npos);
}

TEST(LayoutCommand, ModelsSayTheyAreNotVerified) {
    const auto grid = run_command(kTclens + " layout tcgen05.ld.16x256b.x1");
    ASSERT_EQ(grid.exit_code, 0) << grid.err;
    EXPECT_NE(grid.out.find("model (PTX ISA), not verified: needs sm_100"), std::string::npos);
    const auto json =
        nlohmann::json::parse(run_command(kTclens + " layout tcgen05.mma.m64n64.cta1 --json").out);
    EXPECT_EQ(json.at("verified"), false);
    EXPECT_EQ(json.at("note"), "model (PTX ISA), not verified: needs sm_100");
    // --verify never runs a model, GPU or not: one line and exit 3.
    const auto verify = run_command(kTclens + " layout tcgen05.sf.mxf4.2x --verify");
    EXPECT_EQ(verify.exit_code, 3);
    EXPECT_TRUE(test::is_one_line(verify.err)) << verify.err;
    EXPECT_NE(verify.err.find("not verified: needs sm_100"), std::string::npos) << verify.err;
}

TEST(LayoutCommand, SharedMemoryViewPrintsByteOffsets) {
    const auto result = run_command(kTclens + " layout wgmma.smem.f16.k.sw128 --operand B");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("B in shared memory: 16 x 64, 16-bit elements, K-major, 128-byte "
                              "swizzle, LBO 16, SBO 1024, descriptor 0x4000004000010000"),
              std::string::npos)
        << result.out;
    // First grid row: B(0, 0) at byte 0, B(0, 1) in row 1 of the 128-byte swizzle atom, chunk
    // 0 ^ 1: byte 144.
    const size_t first_row = result.out.find("\n  +0 ");
    ASSERT_NE(first_row, std::string::npos) << result.out;
    std::istringstream row(
        result.out.substr(first_row, result.out.find('\n', first_row + 1) - first_row));
    std::string b00, b01;
    row >> b00 >> b01;
    EXPECT_EQ(b00, "+0");
    EXPECT_EQ(b01, "+144");
    EXPECT_EQ(result.out.find("A in shared memory"), std::string::npos);
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

TEST(LayoutCommand, VerifyGoesThroughTheWorkerAndPrintsEachMismatch) {
    const std::string answer = testing::TempDir() + "tclens_scripted_layout_verify.json";
    std::ofstream(answer)
        << R"({"layout":"ldmatrix.x4","device":"Scripted GPU","matched":1023,)"
           R"x("total":1024,"mismatches":["A lane 5 a2: model (1,5) measured (1,4)"]})x";
    const auto result = run_command(kTclens + " layout ldmatrix.x4 --verify " +
                                    test::scripted_worker("none SCRIPTED_LAYOUT_VERIFY=" + answer));
    EXPECT_EQ(result.exit_code, 1) << result.err;
    EXPECT_EQ(result.out,
              "mismatch: A lane 5 a2: model (1,5) measured (1,4)\n"
              "ldmatrix.x4 on Scripted GPU: 1023/1024 elements match\n");
}

TEST(LayoutCommand, AWorkerThatCrashesWhileVerifyingIsOneLineAndExit1) {
    const auto result =
        run_command(kTclens + " layout ldmatrix.x4 --verify " + test::scripted_worker("crash"));
    EXPECT_EQ(result.exit_code, 1) << result.err;
    EXPECT_NE(test::last_line(result.err).find("died during the layout_verify request"),
              std::string::npos)
        << result.err;
    EXPECT_EQ(result.out, "");
}

}  // namespace
}  // namespace tclens
