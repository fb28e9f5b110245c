// `tclens compare` (app/cli/compare_command.cpp): the Compare panel's table headless, for runs
// of two recordings: the shipped H200 recording and tests/data/synthetic_h200_later.json, a
// SYNTHETIC test fixture derived from it, not measured (every ladder rung's times x 0.9;
// tests/data/make_synthetic_later_recording.py), so the later runs are 11.1 % faster and their
// cuBLAS rows unchanged.

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "tests/support/run_command.h"
#include "tests/support/tclens_binary.h"

namespace tclens {
namespace {

using test::kTclens;
const std::string kShipped = std::string(TCLENS_ASSETS_DIR) + "/recordings/h200.json.gz";
const std::string kLater = std::string(TCLENS_TEST_DATA_DIR) + "/synthetic_h200_later.json";
const std::string kRun = "wgmma_persistent.bf16@4096x4096x4096";

TEST(CompareCommand, TwoRecordingsSideBySideNameTheirGpuAndDate) {
    const auto result =
        test::run_command(kTclens + " compare " + kShipped + " " + kLater +
                          " --runs h200.json.gz:" + kRun + ",synthetic_h200_later.json:" + kRun);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.err, "");
    // The sources, then the three header lines: kernels, sizes, GPU and date.
    EXPECT_NE(result.out.find("h200.json.gz: NVIDIA H200, 2026-11-30 20:20 UTC"), std::string::npos)
        << result.out;
    // The synthetic fixture says so wherever its GPU is named.
    EXPECT_NE(result.out.find("SYNTHETIC (not measured), 2026-11-30 15:00 UTC"), std::string::npos);
    EXPECT_NE(result.out.find("4096x4096x4096 (baseline)"), std::string::npos);
    // The later run's time is 10 % lower and its TFLOP/s 11.1 % higher: both improvements.
    const auto line_of = [&](const std::string& start) {
        const auto at = result.out.find("\n" + start);
        return at == std::string::npos
                   ? std::string()
                   : result.out.substr(at + 1, result.out.find('\n', at + 1) - at - 1);
    };
    EXPECT_NE(line_of("time (ms)").find("-10.0% better"), std::string::npos) << result.out;
    EXPECT_NE(line_of("TFLOP/s").find("+11.1% better"), std::string::npos) << result.out;
}

TEST(CompareCommand, JsonHasTheRunsRowsAndDeltas) {
    const auto result = test::run_command(kTclens + " compare " + kShipped + " " + kLater +
                                          " --json --runs h200.json.gz:" + kRun +
                                          ",synthetic_h200_later.json:" + kRun);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json j = nlohmann::json::parse(result.out);
    ASSERT_EQ(j["sources"].size(), 2u);
    EXPECT_EQ(j["sources"][1]["key"], "synthetic_h200_later.json");
    ASSERT_EQ(j["runs"].size(), 2u);
    EXPECT_EQ(j["runs"][0]["key"], "h200.json.gz:" + kRun);
    EXPECT_EQ(j["runs"][1]["source"], "synthetic_h200_later.json");
    const double first = j["runs"][0]["tflops"], later = j["runs"][1]["tflops"];
    EXPECT_NEAR(later, first / 0.9, 1e-6 * first);
    bool saw_tflops = false;
    for (const auto& row : j["rows"]) {
        if (row["metric"] != "TFLOP/s") continue;
        saw_tflops = true;
        EXPECT_EQ(row["better"], "higher");
        EXPECT_TRUE(row["delta_pct"][0].is_null());
        EXPECT_NEAR(double(row["delta_pct"][1]), 100.0 / 9.0, 1e-6);
    }
    EXPECT_TRUE(saw_tflops);
    EXPECT_TRUE(j["missing"].empty());
}

TEST(CompareCommand, WithoutRunsItComparesTheBestRungOfEachPrecisionAndItsCublas) {
    const auto result = test::run_command(kTclens + " compare " + kShipped + " --json");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const nlohmann::json j = nlohmann::json::parse(result.out);
    std::vector<std::string> kernels;
    for (const auto& run : j["runs"]) kernels.push_back(run["kernel"]);
    // f16, bf16, e4m3, tf32, f32: the fastest verified rung at 4096^3, then its cuBLAS call.
    ASSERT_EQ(kernels.size(), 10u) << result.out;
    EXPECT_EQ(kernels[1], "cublas.f16");
    EXPECT_EQ(kernels[3], "cublas.bf16");
    EXPECT_EQ(kernels[5], "cublaslt.e4m3");
    EXPECT_EQ(kernels[7], "cublas.tf32");
    EXPECT_EQ(kernels[9], "cublas.sgemm");
    EXPECT_EQ(kernels[0].substr(kernels[0].size() - 4), ".f16");
    for (const auto& run : j["runs"]) EXPECT_EQ(run["size"], "4096x4096x4096");
}

// The default ten runs of the shipped recording in a 120-column terminal: no line is longer
// (218 before: one row of ten columns), the columns are headed A ... J in bands, and the key
// under the table names every run. A change that rounds to 0.0 % reads "same".
TEST(CompareCommand, TheTableFits120Columns) {
    const auto result = test::run_command(kTclens + " compare " + kShipped);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    size_t longest = 0;
    std::istringstream lines(result.out);
    for (std::string line; std::getline(lines, line);) longest = std::max(longest, line.size());
    EXPECT_LE(longest, 120u) << result.out;
    // A: the fastest f16 run of the recording (rung 11, or rung 14 running rung 11's kernel).
    EXPECT_TRUE(std::regex_search(
        result.out, std::regex("\nA  [a-z_]+\\.f16  4096x4096x4096 \\(baseline\\)\n")))
        << result.out;
    EXPECT_NE(result.out.find("\nJ  cublas.sgemm  4096x4096x4096\n"), std::string::npos);
    EXPECT_EQ(result.out.find("+0.0%"), std::string::npos) << result.out;
    EXPECT_EQ(result.out.find("-0.0%"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find(" same"), std::string::npos) << result.out;
}

TEST(CompareCommand, BadInputIsOneLine) {
    const auto missing = test::run_command(kTclens + " compare /nonexistent/r.json");
    EXPECT_EQ(missing.exit_code, 1);
    EXPECT_TRUE(test::is_one_line(missing.err)) << missing.err;
    EXPECT_NE(missing.err.find("/nonexistent/r.json"), std::string::npos);
    const auto bad_run = test::run_command(kTclens + " compare " + kShipped + " --runs wmma.f16");
    EXPECT_EQ(bad_run.exit_code, 2);
    EXPECT_TRUE(test::is_one_line(bad_run.err)) << bad_run.err;
    const auto none = test::run_command(kTclens + " compare");
    EXPECT_EQ(none.exit_code, 2);
    const auto absent =
        test::run_command(kTclens + " compare " + kShipped + " --runs wmma.f16@64x64x64");
    EXPECT_EQ(absent.exit_code, 1);
    EXPECT_NE(absent.err.find("wmma.f16@64x64x64: not in the recording runs"), std::string::npos)
        << absent.err;
}

}  // namespace
}  // namespace tclens
