// End-to-end checks of `tclens banks`: the list, the bank JSON of docs/json-formats.md, the human
// table, the kernels' own accesses (--pattern KERNEL/ACCESS), one-line usage errors (exit 2)
// and --measure without a GPU (exit 3). The expected wavefront counts are the worked examples
// of viz/bank_model.h.

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "kernels/shared_access.h"
#include "profiling/device_query.h"
#include "tests/support/cli_checks.h"
#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"
#include "tests/support/user_kernel_files.h"
#include "viz/access_pattern.h"
#include "viz/swizzle.h"

namespace tclens {
namespace {

using test::run_command;

using test::kTclens;

std::set<std::string> keys(const nlohmann::json& object) {
    std::set<std::string> names;
    for (auto it = object.begin(); it != object.end(); ++it) {
        names.insert(it.key());
    }
    return names;
}

nlohmann::json banks_json(const std::string& args) {
    const auto result = run_command(kTclens + " banks " + args + " --json");
    EXPECT_EQ(result.exit_code, 0) << args << "\n" << result.err;
    EXPECT_EQ(result.err, "") << args;
    return nlohmann::json::parse(result.out, nullptr, false);
}

TEST(BanksCommand, ListNamesEverySwizzleAndPattern) {
    const auto result = run_command(kTclens + " banks --list");
    EXPECT_EQ(result.exit_code, 0) << result.err;
    for (const viz::NamedSwizzle& swizzle : viz::list_swizzles()) {
        EXPECT_NE(result.out.find(swizzle.spec), std::string::npos) << swizzle.spec;
    }
    for (const viz::Pattern& pattern : viz::list_patterns()) {
        EXPECT_NE(result.out.find(pattern.name), std::string::npos) << pattern.name;
    }
}

TEST(BanksCommand, ListNamesEveryKernelAccessWithItsTileAndSwizzle) {
    const auto result = run_command(kTclens + " banks --list");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    ASSERT_FALSE(kernels::kernel_accesses().empty());
    for (const kernels::KernelAccess& access : kernels::kernel_accesses()) {
        EXPECT_NE(result.out.find(access.name), std::string::npos) << access.name;
    }
    // One line per access: name, viz pattern, tile, swizzle.
    const auto line = result.out.find("mma_ldmatrix_xor.f16/B.ldmatrix");
    ASSERT_NE(line, std::string::npos);
    const std::string text = result.out.substr(line, result.out.find('\n', line) - line);
    for (const char* part : {"ldmatrix.x4.trans", "64 x 256", "xor"}) {
        EXPECT_NE(text.find(part), std::string::npos) << part << " in: " << text;
    }
}

TEST(BanksCommand, ListJsonHasEveryPattern) {
    const auto result = run_command(kTclens + " banks --list --json");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json list = nlohmann::json::parse(result.out, nullptr, false);
    ASSERT_FALSE(list.is_discarded()) << result.out;
    EXPECT_EQ(list["swizzles"].size(), viz::list_swizzles().size());
    ASSERT_EQ(list["patterns"].size(), viz::list_patterns().size());
    EXPECT_EQ(list["patterns"][0]["name"], viz::list_patterns()[0].name);
    EXPECT_TRUE(list["patterns"][0].contains("access_bytes"));
    ASSERT_EQ(list["kernel_accesses"].size(), kernels::kernel_accesses().size());
    for (const nlohmann::json& access : list["kernel_accesses"]) {
        if (access["name"] != "mma_ldmatrix_xor.f16/A.ldmatrix") continue;
        EXPECT_EQ(access["kernel"], "mma_ldmatrix_xor.f16");
        EXPECT_EQ(access["label"], "A.ldmatrix");
        EXPECT_EQ(access["operand"], "A");
        EXPECT_EQ(access["pattern"], "ldmatrix.x4");
        EXPECT_EQ(access["rows"], 128);
        EXPECT_EQ(access["row_bytes"], 128);
        EXPECT_EQ(access["swizzle"], "xor");
        return;
    }
    ADD_FAILURE() << "mma_ldmatrix_xor.f16/A.ldmatrix is not in the list";
}

// The XOR rung's A ldmatrix on its 128 x 128-byte A tile. Lane 1 reads row 1, logical chunk 0,
// which xor stores at chunk 0 ^ 1 = 1: byte 128 + 16 = 144; unswizzled it is byte 128.
TEST(BanksCommand, KernelAccessBringsItsTileAndTheKernelsSwizzle) {
    const nlohmann::json report = banks_json("--pattern mma_ldmatrix_xor.f16/A.ldmatrix");
    ASSERT_FALSE(report.is_discarded());
    EXPECT_EQ(report["pattern"], "mma_ldmatrix_xor.f16/A.ldmatrix");
    EXPECT_EQ(report["swizzle"], "xor");
    EXPECT_EQ(report["total_wavefronts"], 4);
    EXPECT_EQ(report["ideal_wavefronts"], 4);
    EXPECT_EQ(report["conflict_wavefronts"], 0);
    ASSERT_EQ(report["requests"].size(), 1u);
    const nlohmann::json& lanes = report["requests"][0]["lanes"];
    ASSERT_EQ(lanes.size(), 32u);
    EXPECT_EQ(lanes[1]["byte_addr"], 144);
    EXPECT_EQ(lanes[16]["byte_addr"], 16);  // row 0, chunk 1

    const auto table = run_command(kTclens + " banks --pattern mma_ldmatrix_xor.f16/A.ldmatrix");
    ASSERT_EQ(table.exit_code, 0) << table.err;
    for (const char* part :
         {"mma_ldmatrix_xor.f16/A.ldmatrix under xor on a 128 x 128-byte tile", "ldmatrix.x4",
          "total: 4 wavefronts, ideal 4, 0 conflict wavefronts"}) {
        EXPECT_NE(table.out.find(part), std::string::npos) << part << "\n" << table.out;
    }
}

TEST(BanksCommand, KernelAccessUnderAnotherSwizzleShowsTheConflicts) {
    const nlohmann::json report =
        banks_json("--swizzle none --pattern mma_ldmatrix_xor.f16/A.ldmatrix");
    ASSERT_FALSE(report.is_discarded());
    EXPECT_EQ(report["pattern"], "mma_ldmatrix_xor.f16/A.ldmatrix");
    EXPECT_EQ(report["swizzle"], "none");
    EXPECT_EQ(report["total_wavefronts"], 32);
    EXPECT_EQ(report["conflict_wavefronts"], 28);
    EXPECT_EQ(report["requests"][0]["lanes"][1]["byte_addr"], 128);
}

TEST(BanksCommand, KernelAccessTileCanBeOverridden) {
    // B's ldmatrix.x4.trans on its 64 x 256-byte tile: lane 1 -> row 1, chunk 0 ^ 1 -> 272.
    const nlohmann::json own = banks_json("--pattern mma_ldmatrix_xor.bf16/B.ldmatrix");
    ASSERT_FALSE(own.is_discarded());
    EXPECT_EQ(own["requests"][0]["lanes"][1]["byte_addr"], 272);
    EXPECT_EQ(own["conflict_wavefronts"], 0);
    const nlohmann::json wide =
        banks_json("--pattern mma_ldmatrix_xor.bf16/B.ldmatrix --row-bytes 512");
    ASSERT_FALSE(wide.is_discarded());
    EXPECT_EQ(wide["requests"][0]["lanes"][1]["byte_addr"], 512 + 16);
}

TEST(BanksCommand, JsonHasExactlyTheContractKeys) {
    const nlohmann::json report =
        banks_json("--swizzle none --pattern ldmatrix.x4 --rows 16 --row-bytes 128");
    ASSERT_FALSE(report.is_discarded());
    EXPECT_EQ(keys(report),
              (std::set<std::string>{"swizzle", "pattern", "bank_count", "bank_bytes", "requests",
                                     "total_wavefronts", "ideal_wavefronts", "conflict_wavefronts",
                                     "measured"}));
    ASSERT_EQ(report["requests"].size(), 1u);
    const nlohmann::json& request = report["requests"][0];
    EXPECT_EQ(keys(request), (std::set<std::string>{"index", "access_bytes", "lanes", "wavefronts",
                                                    "ideal_wavefronts"}));
    ASSERT_EQ(request["lanes"].size(), 32u);
    EXPECT_EQ(keys(request["lanes"][0]), (std::set<std::string>{"lane", "byte_addr", "banks"}));
    EXPECT_EQ(report["swizzle"], "none");
    EXPECT_EQ(report["pattern"], "ldmatrix.x4");
    EXPECT_EQ(report["bank_count"], 32);
    EXPECT_EQ(report["bank_bytes"], 4);
    EXPECT_EQ(request["access_bytes"], 16);
    // bank_model.h: none puts the 8 rows of each matrix in the same 4 banks (8-way).
    EXPECT_EQ(report["total_wavefronts"], 32);
    EXPECT_EQ(report["ideal_wavefronts"], 4);
    EXPECT_EQ(report["conflict_wavefronts"], 28);
    EXPECT_TRUE(report["measured"].is_null());
    // Lane 1 starts row 1: byte 128 of the unswizzled 128-byte rows, banks 0-3.
    EXPECT_EQ(request["lanes"][1]["byte_addr"], 128);
    EXPECT_EQ(request["lanes"][1]["banks"], nlohmann::json::array({0, 1, 2, 3}));
}

TEST(BanksCommand, XorSwizzleRemovesTheConflicts) {
    const nlohmann::json report =
        banks_json("--swizzle xor --pattern ldmatrix.x4 --rows 16 --row-bytes 128");
    ASSERT_FALSE(report.is_discarded());
    EXPECT_EQ(report["total_wavefronts"], 4);
    EXPECT_EQ(report["conflict_wavefronts"], 0);
}

TEST(BanksCommand, DefaultTileComesFromPatternAndSwizzle) {
    // bank_model.h: ldmatrix.x4 with tma128 defaults to a 16 x 128-byte tile.
    const nlohmann::json report = banks_json("--swizzle tma128 --pattern ldmatrix.x4");
    ASSERT_FALSE(report.is_discarded());
    EXPECT_EQ(report["swizzle"], "tma128");
    EXPECT_EQ(report["total_wavefronts"], 4);
}

TEST(BanksCommand, TableShowsPhasesWavefrontsAndBanks) {
    const auto result = run_command(kTclens +
                                    " banks --swizzle none --pattern ldmatrix.x4 --rows 16 "
                                    "--row-bytes 128");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    for (const char* part : {"phase", "wavefronts", "ideal", "0-7", "0-3 x8", "8.00x",
                             "total: 32 wavefronts, ideal 4, 28 conflict wavefronts"}) {
        EXPECT_NE(result.out.find(part), std::string::npos) << part << "\n" << result.out;
    }
}

TEST(BanksCommand, BadInputIsOneLineAndExitCode2) {
    struct Case {
        const char* args;
        const char* names;  // the bad value the line must name
    };
    const Case cases[] = {
        {"--swizzle bogus --pattern ldmatrix.x4", "bogus"},
        {"--swizzle none --pattern lds.999", "lds.999"},
        {"--swizzle none --pattern lds.128.row --rows 32 --row-bytes 40", "40"},
        {"--swizzle none --pattern ldmatrix.x4 --rows 8 --row-bytes 32", "too small"},
        {"--swizzle cute:17,4,3 --pattern ldmatrix.x4", "17"},
        {"--swizzle cute:3,4,2 --pattern ldmatrix.x4", "S"},
        {"--swizzle tma128 --pattern ldmatrix.x4 --rows 16 --row-bytes 32", "1024"},
        {"--swizzle none --pattern ldmatrix.x4 --rows 0", "0"},
        {"--swizzle none", "--pattern"},
        {"--pattern ldmatrix.x4", "--swizzle"},
        {"--swizzle none --pattern ldmatrix.x4 --rows abc", "abc"},
        {"--swizzle none --pattern ldmatrix.x4 --iterations 0", "iterations"},
        {"--pattern mma_ldmatrix_xor.f16/C.ldmatrix", "mma_ldmatrix_xor.f16/B.ldmatrix"},
        {"--pattern bogus.kernel/A.ldmatrix", "bogus.kernel"},
        {"--swizzle none --pattern naive_fma.f32/A.lds", "mma_ldmatrix_xor.f16/A.ldmatrix"},
        {"--swizzle bogus --pattern mma_ldmatrix_xor.f16/A.ldmatrix", "bogus"},
        {"--pattern mma_ldmatrix_xor.f16/A.ldmatrix --rows 8", "too small"},
    };
    for (const Case& c : cases) {
        const auto result = run_command(kTclens + " banks " + c.args);
        EXPECT_EQ(result.exit_code, 2) << c.args << "\n" << result.err;
        EXPECT_TRUE(test::is_one_line(result.err)) << c.args << "\n" << result.err;
        EXPECT_NE(result.err.find(c.names), std::string::npos) << c.args << "\n" << result.err;
        EXPECT_EQ(result.out, "") << c.args;
    }
}

TEST(BanksCommand, BadInputWinsOverMeasure) {
    const auto result =
        run_command(kTclens + " banks --swizzle bogus --pattern ldmatrix.x4 --measure");
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
}

TEST(BanksCommand, MeasureWithoutGpuIsExitCode3OneLine) {
    const auto result = run_command(kTclens +
                                    " banks --swizzle xor --pattern ldmatrix.x4 --rows 16 "
                                    "--row-bytes 128 --measure --json");
    if (profiling::query_system().has_gpu()) {
        // On a GPU machine: measured, or exit 3 with the fix (e.g. no profiling permission).
        if (result.exit_code == 0) {
            const nlohmann::json report = nlohmann::json::parse(result.out, nullptr, false);
            ASSERT_FALSE(report.is_discarded()) << result.out;
            EXPECT_TRUE(report["measured"].is_number()) << result.out;
        } else {
            EXPECT_EQ(result.exit_code, 3) << result.err;
            EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
        }
        return;
    }
    EXPECT_EQ(result.exit_code, 3) << result.out << result.err;
    EXPECT_TRUE(test::is_one_line(result.err)) << result.err;
    EXPECT_NE(result.err.find("GPU"), std::string::npos) << result.err;
    EXPECT_EQ(result.out, "");
}

TEST(BadInput, BanksNamesListTheValidOnesAndTileSizesAreChecked) {
    test::expect_usage_errors(
        kTclens,
        {
            {"banks --swizzle bogus --pattern ldmatrix.x4",
             {"bogus", "none, pad:N, xor", "tma128"}},
            {"banks --swizzle none --pattern lds.999", {"lds.999", "ldmatrix.x4", "sts.32.col"}},
            {"banks --swizzle pad:-4 --pattern ldmatrix.x4", {"pad:-4", "multiple of 4"}},
            {"banks --swizzle none --pattern ldmatrix.x4 --rows -8", {"-8", "at least 1"}},
            {"banks --swizzle none --pattern ldmatrix.x4 --row-bytes -4", {"-4", "at least 1"}},
            {"banks --swizzle none --pattern ldmatrix.x4 --rows 99999999999",
             {"--rows", "99999999999"}},
            {"banks --swizzle none --pattern ldmatrix.x4 --row-bytes abc", {"--row-bytes", "abc"}},
        });
}

// A measurement as the worker answers one (with its GPU's name, not this machine's): ldmatrix.x4
// without a swizzle on 16 x 128 bytes, whose model says 32 wavefronts per instruction (an 8-way
// conflict in each of its 4 phases).
TEST(BanksCommand, MeasureGoesThroughTheWorkerAndPrintsItsNumber) {
    const std::string answer = testing::TempDir() + "tclens_scripted_bank_measure.json";
    std::ofstream(answer)
        << R"({"device":"Scripted GPU","wavefronts_per_request":32,"iterations":256,"requests":1,)"
           R"("wavefront_metric":"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",)"
           R"("instruction_metric":"smsp__inst_executed_op_ldsm.sum","baseline_wavefronts":3,)"
           R"("run_wavefronts":8195,"instructions_per_iteration":1,"passes":1})";
    const std::string args =
        " banks --swizzle none --pattern ldmatrix.x4 --rows 16 --row-bytes 128 "
        "--measure " +
        test::scripted_worker("none SCRIPTED_BANK_MEASURE=" + answer);
    const auto table = run_command(kTclens + args);
    ASSERT_EQ(table.exit_code, 0) << table.err;
    EXPECT_NE(table.out.find("measured on Scripted GPU: 32.00 wavefronts per instruction, model "
                             "32.00 (matches)"),
              std::string::npos)
        << table.out;
    EXPECT_NE(table.out.find("instructions per iteration: 1.00"), std::string::npos) << table.out;
    const auto json = run_command(kTclens + args + " --json");
    ASSERT_EQ(json.exit_code, 0) << json.err;
    const nlohmann::json report = nlohmann::json::parse(json.out, nullptr, false);
    ASSERT_FALSE(report.is_discarded()) << json.out;
    EXPECT_EQ(report["measured"], 32.0);
}

TEST(BanksCommand, AWorkerThatCrashesWhileMeasuringIsOneLineAndExit1) {
    const auto result =
        run_command(kTclens + " banks --swizzle xor --pattern ldmatrix.x4 --measure " +
                    test::scripted_worker("crash"));
    EXPECT_EQ(result.exit_code, 1) << result.err;
    EXPECT_NE(test::last_line(result.err).find("died during the bank_measure request"),
              std::string::npos)
        << result.err;
    EXPECT_EQ(result.out, "");
}

TEST(FaultInjectionCli, NoGpuMakesBanksMeasureExit3) {
    test::expect_no_gpu_refusal(kTclens, "banks --swizzle xor --pattern ldmatrix.x4 --measure");
}

}  // namespace
}  // namespace tclens
