// GPU tests of the bank model against the hardware: every swizzle x pattern that fits, on a few
// tile shapes, is run by the bank probe under the CUPTI range profiler, and the measured
// wavefronts per instruction must equal the model's (profiling/bank_measure.h).
//
// With TCLENS_RESULTS_DIR set, the catalogue is also written as a Markdown table to
// $TCLENS_RESULTS_DIR/bank_measure.md (swizzle, pattern, tile, model, measured), to be committed
// with the other GPU results.

#include "profiling/bank_measure.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "kernels/probes/bank_probe.h"
#include "profiling/device_info.h"
#include "profiling/device_query.h"
#include "profiling/range_profiler.h"
#include "tests/gpu/gpu_test_support.h"
#include "viz/bank_model.h"

namespace tclens::profiling {
namespace {

constexpr double kTolerance = 0.01;  // counters are integers; any real mismatch is >= 1/iterations

viz::BankReport model(const std::string& swizzle, const std::string& pattern,
                      const viz::Tile& tile) {
    const auto parsed_swizzle = viz::parse_swizzle(swizzle);
    const auto parsed_pattern = viz::parse_pattern(pattern);
    if (!parsed_swizzle.ok() || !parsed_pattern.ok()) {
        ADD_FAILURE() << parsed_swizzle.error() << parsed_pattern.error();
        return viz::BankReport{};
    }
    const auto report = viz::bank_requests(*parsed_swizzle, *parsed_pattern, tile);
    EXPECT_TRUE(report.ok()) << report.error();
    return report.ok() ? *report : viz::BankReport{};
}

std::string tile_text(const viz::Tile& tile) {
    return std::to_string(tile.rows) + "x" + std::to_string(tile.row_bytes);
}

std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", value);
    return text;
}

// Every swizzle x pattern x tile of the catalogue that the model accepts and the GPU's counters
// can see (not cp.async: kCpAsyncNotMeasurable).
std::vector<viz::BankReport> catalogue() {
    const std::vector<std::string> swizzles = {"none",  "pad:4", "pad:8",  "pad:16",    "xor",
                                               "tma32", "tma64", "tma128", "cute:2,3,3"};
    const std::vector<viz::Tile> extra_tiles = {{32, 128}, {64, 64}, {16, 256}, {128, 32}};
    std::vector<viz::BankReport> reports;
    for (const std::string& spec : swizzles) {
        const viz::Swizzle swizzle = *viz::parse_swizzle(spec);
        for (const viz::Pattern& pattern : viz::list_patterns()) {
            if (pattern.name.rfind("cp.async", 0) == 0) continue;
            std::vector<viz::Tile> tiles = {viz::default_tile(pattern, swizzle)};
            for (const viz::Tile& tile : extra_tiles) {
                if (tile != tiles.front()) {
                    tiles.push_back(tile);
                }
            }
            for (const viz::Tile& tile : tiles) {
                const auto report = viz::bank_requests(swizzle, pattern, tile);
                if (report.ok()) {
                    reports.push_back(*report);
                }
            }
        }
    }
    return reports;
}

void write_results(const std::vector<viz::BankReport>& reports,
                   const std::vector<BankMeasurement>& measured) {
    const char* folder = std::getenv("TCLENS_RESULTS_DIR");
    if (folder == nullptr || *folder == '\0') {
        return;
    }
    const std::string path = std::string(folder) + "/bank_measure.md";
    std::ofstream out(path);
    ASSERT_TRUE(out) << "cannot write " << path;
    const SystemReport system = query_system();
    out << "# Bank model vs. measured wavefronts per instruction\n\n"
        << "GPU: " << (system.has_gpu() ? system.devices.front().name : "none") << ", "
        << versions_summary(system) << ", " << kDefaultBankIterations
        << " iterations, baseline launch subtracted.\n\n"
        << "| swizzle | pattern | tile (rows x bytes) | model | measured | instr/iter | result |\n"
        << "|---|---|---|---|---|---|---|\n";
    int matched = 0;
    for (std::size_t i = 0; i < reports.size(); ++i) {
        const BankMeasurement& m = measured[i];
        const double expected = model_wavefronts_per_request(reports[i]);
        const bool ok = m.error.ok() && std::fabs(m.wavefronts_per_request - expected) < kTolerance;
        matched += ok ? 1 : 0;
        out << "| " << reports[i].swizzle.spec << " | " << reports[i].pattern.name << " | "
            << tile_text(reports[i].tile) << " | " << number(expected) << " | "
            << (m.error.ok() ? number(m.wavefronts_per_request) : "error") << " | "
            << (m.instructions_per_iteration >= 0 ? number(m.instructions_per_iteration) : "-")
            << " | "
            << (ok             ? "match"
                : m.error.ok() ? "DIFFERS"
                               : m.error.message)
            << " |\n";
    }
    out << "\n" << matched << " of " << reports.size() << " match.\n";
}

void expect_matches(const viz::BankReport& report, const BankMeasurement& measured) {
    const std::string what =
        report.swizzle.spec + " / " + report.pattern.name + " / " + tile_text(report.tile);
    ASSERT_TRUE(measured.error.ok()) << what << ": " << measured.error.message;
    EXPECT_NEAR(measured.wavefronts_per_request, model_wavefronts_per_request(report), kTolerance)
        << what << " (" << measured.wavefront_metric << ": baseline "
        << measured.baseline_wavefronts << ", run " << measured.run_wavefronts << ")";
    if (measured.instructions_per_iteration >= 0) {
        EXPECT_NEAR(measured.instructions_per_iteration, measured.requests, kTolerance)
            << what << ": the probe must issue exactly one instruction per request ("
            << measured.instruction_metric << ")";
    }
}

TEST(BankMeasure, LdmatrixX4MatchesTheCuptiReference) {
    TCLENS_REQUIRE_GPU();
    // CUPTI.md: every phase 8-way conflicted -> 32 wavefronts; conflict-free -> 4.
    const viz::BankReport none = model("none", "ldmatrix.x4", {16, 128});
    const viz::BankReport xored = model("xor", "ldmatrix.x4", {16, 128});
    ASSERT_EQ(none.total_wavefronts, 32);
    ASSERT_EQ(xored.total_wavefronts, 4);
    const std::vector<BankMeasurement> measured = measure_bank_reports({none, xored});
    expect_matches(none, measured[0]);
    expect_matches(xored, measured[1]);
    EXPECT_GE(measured[0].passes, 1u);
}

// cp.async's shared-memory bank work is invisible to CUPTI (kCpAsyncNotMeasurable): the
// measurement says so instead of printing a number that means nothing.
TEST(BankMeasure, CpAsyncIsReportedAsNotMeasurable) {
    TCLENS_REQUIRE_GPU();
    const BankMeasurement measured = measure_bank_report(model("none", "cp.async.16", {32, 128}));
    EXPECT_EQ(measured.error.problem, ProfilerProblem::kUnsupported);
    EXPECT_EQ(measured.error.message, kCpAsyncNotMeasurable);
}

TEST(BankMeasure, CatalogueMatchesModel) {
    TCLENS_REQUIRE_GPU();
    const std::vector<viz::BankReport> reports = catalogue();
    ASSERT_GT(reports.size(), 100u);
    const std::vector<BankMeasurement> measured = measure_bank_reports(reports);
    ASSERT_EQ(measured.size(), reports.size());
    write_results(reports, measured);
    for (std::size_t i = 0; i < reports.size(); ++i) {
        expect_matches(reports[i], measured[i]);
    }
}

TEST(BankMeasure, TileAbove48KiBUsesOptInSharedMemory) {
    TCLENS_REQUIRE_GPU();
    // 512 rows x 128 bytes = 64 KiB; lane l reads row l at byte 0: all in bank 0 -> 32.
    const viz::BankReport report = model("none", "lds.32.col", {512, 128});
    ASSERT_EQ(report.total_wavefronts, 32);
    expect_matches(report, measure_bank_report(report));
}

TEST(BankMeasure, TileLargerThanTheGpuIsAnInvalidRequest) {
    TCLENS_REQUIRE_GPU();
    const std::size_t limit = query_system().devices.front().smem_per_block_optin;
    const viz::BankReport report = model("none", "lds.32.row", {2048, 128});  // 256 KiB
    ASSERT_GT(static_cast<std::size_t>(viz::storage_bytes(report.swizzle, report.tile)), limit);
    const BankMeasurement measured = measure_bank_report(report);
    EXPECT_EQ(measured.error.problem, ProfilerProblem::kInvalidRequest) << measured.error.message;
    EXPECT_NE(measured.error.message.find(std::to_string(limit)), std::string::npos)
        << measured.error.message;
}

TEST(RangeProfiler, AcceptsKnownMetricsAndRejectsUnknownOnes) {
    TCLENS_REQUIRE_GPU();
    RangeProfiler profiler;
    ASSERT_TRUE(profiler.open().ok()) << profiler.open().message;
    EXPECT_FALSE(profiler.chip_name().empty());
    const std::vector<MetricCheck> checks =
        profiler.check_metrics({"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                                "tclens__no_such_metric.sum", "smsp__inst_executed_op_ldsm.sum"});
    ASSERT_EQ(checks.size(), 3u);
    EXPECT_TRUE(checks[0].accepted) << checks[0].reason;
    EXPECT_FALSE(checks[1].accepted);
    EXPECT_NE(checks[1].reason.find("tclens__no_such_metric.sum"), std::string::npos);
    EXPECT_TRUE(checks[2].accepted) << checks[2].reason;
    std::size_t passes = 0;
    ASSERT_TRUE(profiler.count_passes({checks[0].name, checks[2].name}, passes).ok());
    EXPECT_GE(passes, 1u);
    const ProfilerError bad = profiler.count_passes({checks[1].name}, passes);
    EXPECT_EQ(bad.problem, ProfilerProblem::kBadMetric);
    EXPECT_NE(bad.message.find("tclens__no_such_metric.sum"), std::string::npos);
}

// A prepared bank probe of ldmatrix.x4 under xor (4 wavefronts per request) and an open range
// profiler, for the tests of the range modes.
class LdmatrixProbeProfile : public ::testing::Test {
  protected:
    void SetUp() override {
        TCLENS_REQUIRE_GPU();
        ASSERT_TRUE(profiler.open().ok()) << profiler.open().message;
        ASSERT_EQ(probe.prepare(bank_probe_spec(model("xor", "ldmatrix.x4", {16, 128}))), "");
    }
    const std::string metric = wavefront_metric(kernels::SharedAccessKind::kLdmatrix);
    static constexpr int iterations = 100;
    RangeProfiler profiler;
    kernels::BankProbe probe;
};

TEST_F(LdmatrixProbeProfile, UserRangeSeesTheSameWavefrontsAsPerKernelRanges) {
    RangeProfileRequest per_kernel_request;
    per_kernel_request.metrics = {metric};
    per_kernel_request.workload = [this] { return probe.run(0); };
    per_kernel_request.max_ranges = 4;
    const ProfileResult per_kernel = profiler.profile(per_kernel_request);
    ASSERT_TRUE(per_kernel.error.ok()) << per_kernel.error.message;
    ASSERT_EQ(per_kernel.ranges.size(), 1u);
    const double baseline = per_kernel.ranges[0].metrics.at(metric);

    RangeProfileRequest user_request;
    user_request.metrics = {metric};
    user_request.workload = [this] { return probe.run(iterations); };
    user_request.mode = RangeMode::kUserRange;
    user_request.max_ranges = 1;
    user_request.range_name = "bank probe";
    const ProfileResult user = profiler.profile(user_request);
    ASSERT_TRUE(user.error.ok()) << user.error.message;
    ASSERT_EQ(user.ranges.size(), 1u);
    EXPECT_NE(user.ranges[0].name.find("bank probe"), std::string::npos) << user.ranges[0].name;
    EXPECT_NEAR(user.ranges[0].metrics.at(metric), baseline + 4.0 * iterations, 0.5);
}

// kPerKernelUserReplay: one range per launch, the workload called once per pass, and
// before_each_pass run between passes; each range counts its own launch only.
TEST_F(LdmatrixProbeProfile, PerKernelUserReplayGivesEachLaunchItsOwnRange) {
    int calls = 0;
    int before = 0;
    RangeProfileRequest request;
    request.metrics = {metric, "gpu__time_duration.sum", "lts__t_sector_hit_rate.pct"};
    request.workload = [&] {
        ++calls;
        std::string failure = probe.run(0);
        return failure.empty() ? probe.run(iterations) : failure;
    };
    request.mode = RangeMode::kPerKernelUserReplay;
    request.max_ranges = 4;
    request.before_each_pass = [&] {
        ++before;
        return std::string();
    };
    const ProfileResult result = profiler.profile(request);
    ASSERT_TRUE(result.error.ok()) << result.error.message;
    ASSERT_EQ(result.ranges.size(), 2u);
    EXPECT_EQ(calls, static_cast<int>(result.passes));
    EXPECT_EQ(before, calls);
    const double baseline = result.ranges[0].metrics.at(metric);
    EXPECT_NEAR(result.ranges[1].metrics.at(metric), baseline + 4.0 * iterations, 0.5);
    EXPECT_GT(result.ranges[0].metrics.at("gpu__time_duration.sum"), 0);
}

// The probe alone, with no profiler: every kind of access it can issue runs without a CUDA
// error (what scripts/gpu_sanitize.sh runs under compute-sanitizer, which cannot run beside
// CUPTI's profiler).
TEST(BankProbe, EveryAccessKindRunsWithoutAProfiler) {
    TCLENS_REQUIRE_GPU();
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"none", "lds.32.row"},  {"pad:4", "lds.32.col"},         {"none", "lds.32.bcast"},
        {"none", "lds.64.row"},  {"xor", "lds.128.row"},          {"none", "sts.32.col"},
        {"none", "ldmatrix.x1"}, {"tma128", "ldmatrix.x2.trans"}, {"xor", "ldmatrix.x4"},
        {"xor", "cp.async.16"}};
    for (const auto& [swizzle, pattern] : cases) {
        SCOPED_TRACE(swizzle + " " + pattern);
        const viz::Tile tile =
            viz::default_tile(*viz::parse_pattern(pattern), *viz::parse_swizzle(swizzle));
        const viz::BankReport report = model(swizzle, pattern, tile);
        if (report.requests.empty()) continue;  // model() already failed the test
        kernels::BankProbe probe;
        ASSERT_EQ(probe.prepare(bank_probe_spec(report)), "");
        EXPECT_EQ(probe.run(10), "");
    }
}

}  // namespace
}  // namespace tclens::profiling
