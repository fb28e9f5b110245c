// Tests for app/gui/compare_runs.*: runs joined from bench rows and profiles, their TFLOP/s and
// intensity, the roofs of a recording and of this session, and the rows and roofline the
// Compare panel draws. Built on the sample recording (tests/support/sample_recording.h): bench
// rows wmma.f16 (292 TFLOP/s), wgmma_tma.f16 (skipped), mma_tf32_puzzle (not verified),
// cublas.f16 (740); a default-set profile of wmma.f16; all at 4096^3.

#include "app/gui/views/compare_runs.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/support/sample_recording.h"

namespace tclens::gui {
namespace {

constexpr double k4096Flops = 2.0 * 4096.0 * 4096.0 * 4096.0;

const viz::CompareRow* find_row(const std::vector<viz::CompareRow>& rows,
                                const std::string& label) {
    for (const viz::CompareRow& row : rows) {
        if (row.label == label) return &row;
    }
    return nullptr;
}

profiling::KernelProfile profile_of(const std::string& kernel, kernels::Precision precision,
                                    double duration_ns) {
    profiling::KernelProfile profile;
    profile.kernel_id = kernel;
    profile.precision = precision;
    profile.problem = {4096, 4096, 4096};
    profile.check.passed = true;
    profile.metrics.push_back({"gpu__time_duration.sum", "duration", "ns", duration_ns});
    return profile;
}

TEST(CompareRuns, RunIdsAreKernelAtSize) {
    EXPECT_EQ(compare_run_id("wmma.f16", {4096, 2048, 64}), "wmma.f16@4096x2048x64");
    EXPECT_EQ(check_compare_run_id("wmma.f16@4096x2048x64"), "");
    for (const char* bad : {"wmma.f16", "wmma.f16@", "@64x64x64", "wmma.f16@64x64", "a b@64x64x64",
                            "wmma.f16@0x64x64"}) {
        const std::string error = check_compare_run_id(bad);
        EXPECT_NE(error.find(std::string("'") + bad + "'"), std::string::npos) << error;
        EXPECT_NE(error.find("KERNEL@MxNxK"), std::string::npos) << error;
    }
    std::string error;
    const std::vector<std::string> ids =
        parse_compare_run_ids(" b.f16@64x64x64, a.f16@64x64x64 ,b.f16@64x64x64", error);
    EXPECT_EQ(error, "");
    EXPECT_EQ(ids, (std::vector<std::string>{"b.f16@64x64x64", "a.f16@64x64x64"}));
    EXPECT_TRUE(parse_compare_run_ids("a.f16@64x64x64,oops", error).empty());
    EXPECT_NE(error.find("'oops'"), std::string::npos) << error;
}

TEST(CompareRuns, RecordingRunsJoinBenchRowsAndProfiles) {
    const CompareSource source =
        recording_compare_source(test::sample_recording(), "/data/sample.json");
    EXPECT_EQ(source.kind, CompareSourceKind::kRecording);
    EXPECT_EQ(source.caption, "sample.json: tclens test GPU, 2026-11-22 10:00 UTC");
    ASSERT_EQ(source.runs.size(), 4u);  // the profile joined wmma.f16's bench row
    const CompareRun* wmma = find_compare_run(source, "wmma.f16@4096x4096x4096");
    ASSERT_TRUE(wmma);
    EXPECT_TRUE(wmma->bench && wmma->profile);
    EXPECT_TRUE(wmma->comparable());
    EXPECT_DOUBLE_EQ(wmma->tflops, 292.0);
    EXPECT_FALSE(wmma->tflops_from_profile);
    const CompareRun* skipped = find_compare_run(source, "wgmma_tma.f16@4096x4096x4096");
    ASSERT_TRUE(skipped);
    EXPECT_FALSE(skipped->comparable());
    EXPECT_EQ(skipped->status, "skipped: needs sm_90a (this GPU is sm_80)");
    EXPECT_EQ(skipped->tflops, 0);
    const CompareRun* broken = find_compare_run(source, "mma_tf32_puzzle@4096x4096x4096");
    ASSERT_TRUE(broken);
    EXPECT_EQ(broken->status.rfind("NOT VERIFIED", 0), 0u) << broken->status;
    EXPECT_FALSE(find_compare_run(source, "wmma.f16@1024x1024x1024"));
    // Roofs: the measured peaks and the measured DRAM bandwidth.
    EXPECT_EQ(source.peaks.size(), 4u);
    EXPECT_DOUBLE_EQ(source.dram_bytes_per_s, 3.01e12);
    EXPECT_EQ(source.dram_origin, "measured");
}

TEST(CompareRuns, WithoutAMeasuredBandwidthTheDeviceGivesATheoreticalOne) {
    profiling::Recording recording = test::sample_recording();
    recording.dram_bandwidth = {};
    const CompareSource source = recording_compare_source(recording, "r.json");
    // 2 x 2619 MHz x 5120 bit / 8.
    EXPECT_NEAR(source.dram_bytes_per_s, 2.0 * 2619e6 * 5120 / 8, 1e3);
    EXPECT_EQ(source.dram_origin, "theoretical");
    recording.system.devices.clear();
    EXPECT_EQ(recording_compare_source(recording, "r.json").dram_bytes_per_s, 0);
}

TEST(CompareRuns, AProfileAloneGivesTFlopsOnlyWhenVerified) {
    profiling::Recording recording;
    recording.profiles.push_back(profile_of("mma_cp_async.f16", kernels::Precision::kF16, 1e6));
    profiling::KernelProfile unverified = profile_of("wmma.bf16", kernels::Precision::kBF16, 1e6);
    unverified.check.passed = false;
    recording.profiles.push_back(unverified);
    const CompareSource source = recording_compare_source(recording, "r.json");
    ASSERT_EQ(source.runs.size(), 2u);
    // 2 x 4096^3 in 1 ms: 137.4 TFLOP/s.
    EXPECT_NEAR(source.runs[0].tflops, k4096Flops / 1e-3 / 1e12, 1e-9);
    EXPECT_TRUE(source.runs[0].tflops_from_profile);
    EXPECT_TRUE(source.runs[0].comparable());
    EXPECT_EQ(source.runs[1].tflops, 0);
    EXPECT_EQ(source.runs[1].status, "profile not verified");
    EXPECT_NE(source.peak_error, "");  // no peaks: the panel says why there are no compute roofs
    const viz::Roofline roofline = compare_roofline({source}, {&source.runs[0]});
    ASSERT_EQ(roofline.points.size(), 1u);
    EXPECT_EQ(roofline.points[0].label, "mma_cp_async.f16 4096x4096x4096 (profiled)");
    EXPECT_TRUE(roofline.compute.empty());
}

TEST(CompareRuns, AnUnverifiedProfileShowsNoNumbersBesideACountedBench) {
    profiling::Recording recording = test::sample_recording();
    recording.profiles[0].check.passed = false;  // wmma.f16's profile; its bench row counts
    const CompareSource source = recording_compare_source(recording, "r.json");
    const CompareRun& wmma = *find_compare_run(source, "wmma.f16@4096x4096x4096");
    EXPECT_TRUE(wmma.comparable());
    EXPECT_DOUBLE_EQ(wmma.tflops, 292.0);
    EXPECT_TRUE(run_intensity(wmma).estimated);  // its DRAM counters are not used
    const std::vector<viz::CompareRow> rows = compare_rows({&wmma});
    EXPECT_TRUE(find_row(rows, "TFLOP/s"));
    EXPECT_FALSE(find_row(rows, "tensor pipe (%)"));
    EXPECT_FALSE(find_row(rows, "DRAM read (bytes)"));
}

TEST(CompareRuns, IntensityFromDramCountersElseEstimated) {
    const CompareSource source = recording_compare_source(test::sample_recording(), "r.json");
    const CompareRun& wmma = *find_compare_run(source, "wmma.f16@4096x4096x4096");
    const double bytes = wmma.profile->find("dram__bytes_read.sum")->value +
                         wmma.profile->find("dram__bytes_write.sum")->value;
    const RunIntensity measured = run_intensity(wmma);
    EXPECT_FALSE(measured.estimated);
    EXPECT_DOUBLE_EQ(measured.bytes, bytes);
    EXPECT_DOUBLE_EQ(measured.flop_per_byte, k4096Flops / bytes);
    // No profile: compulsory traffic, f16 in (2 bytes) -> 2 x 4096^3 / (8 x 4096^2) = 1024.
    const RunIntensity f16 = run_intensity(*find_compare_run(source, "cublas.f16@4096x4096x4096"));
    EXPECT_TRUE(f16.estimated);
    EXPECT_DOUBLE_EQ(f16.flop_per_byte, 1024.0);
    // tf32 stores 4-byte inputs: 2 x 4096 / 12.
    const RunIntensity tf32 =
        run_intensity(*find_compare_run(source, "mma_tf32_puzzle@4096x4096x4096"));
    EXPECT_TRUE(tf32.estimated);
    EXPECT_NEAR(tf32.flop_per_byte, 2.0 * 4096 / 12, 1e-9);
}

TEST(CompareRuns, RowsHoldEveryMetricWithItsBetterDirection) {
    const CompareSource source = recording_compare_source(test::sample_recording(), "r.json");
    const std::vector<const CompareRun*> runs = {
        find_compare_run(source, "wmma.f16@4096x4096x4096"),
        find_compare_run(source, "cublas.f16@4096x4096x4096")};
    const std::vector<viz::CompareRow> rows = compare_rows(runs);
    ASSERT_GE(rows.size(), 6u);
    EXPECT_EQ(rows[0].label, "time (ms)");
    EXPECT_EQ(rows[0].better, viz::Better::kLower);
    EXPECT_EQ(rows[1].label, "TFLOP/s");
    EXPECT_EQ(rows[1].better, viz::Better::kHigher);
    EXPECT_EQ(rows[1].values, (std::vector<double>{292.0, 740.0}));
    EXPECT_EQ(rows[1].texts, (std::vector<std::string>{"292.0", "740.0"}));
    // cuBLAS has no "% of cuBLAS": NaN and "-".
    const viz::CompareRow* of_cublas = find_row(rows, "% of cuBLAS");
    ASSERT_TRUE(of_cublas);
    EXPECT_NEAR(of_cublas->values[0], 100.0 * 292 / 740, 1e-9);
    EXPECT_TRUE(std::isnan(of_cublas->values[1]));
    EXPECT_EQ(of_cublas->texts[1], "-");
    const viz::CompareRow* intensity = find_row(rows, "intensity (FLOP/B)");
    ASSERT_TRUE(intensity);
    EXPECT_EQ(intensity->texts[1], "1024.0 est.");
    // Profile metrics: wmma.f16 has them, cuBLAS shows "-".
    const viz::CompareRow* dram_read = find_row(rows, "DRAM read (bytes)");
    const viz::CompareRow* tensor = find_row(rows, "tensor pipe (%)");
    const viz::CompareRow* occupancy = find_row(rows, "achieved occupancy (%)");
    ASSERT_TRUE(dram_read && tensor && occupancy);
    EXPECT_EQ(dram_read->better, viz::Better::kLower);
    EXPECT_EQ(tensor->better, viz::Better::kHigher);
    EXPECT_EQ(occupancy->better, viz::Better::kNeither);
    EXPECT_DOUBLE_EQ(tensor->values[0], 47.5);
    EXPECT_EQ(tensor->texts[1], "-");
    // A value leaves out the unit its label names, but keeps a scaled one.
    EXPECT_EQ(tensor->texts[0], "47.5");
    EXPECT_EQ(dram_read->texts[0].back(), 'B') << dram_read->texts[0];  // "B", "kB", "MB" ...
    const std::vector<viz::CompareColumn> columns = compare_columns(runs);
    ASSERT_EQ(columns.size(), 2u);
    EXPECT_EQ(columns[1].title, "cublas.f16");
    EXPECT_EQ(columns[1].subtitle, "4096x4096x4096");
    EXPECT_EQ(columns[1].category, 1);
}

TEST(CompareRuns, RowsNoRunHasAreLeftOut) {
    const CompareSource source = recording_compare_source(test::sample_recording(), "r.json");
    const std::vector<const CompareRun*> runs = {
        find_compare_run(source, "cublas.f16@4096x4096x4096")};
    const std::vector<viz::CompareRow> rows = compare_rows(runs);
    EXPECT_FALSE(find_row(rows, "% of cuBLAS"));      // a reference is not a % of itself
    EXPECT_FALSE(find_row(rows, "tensor pipe (%)"));  // no profile
    EXPECT_TRUE(find_row(rows, "TFLOP/s"));
}

TEST(CompareRuns, RooflineHasAComputeRoofPerPeakAndAPointPerRun) {
    const CompareSource source = recording_compare_source(test::sample_recording(), "r.json");
    const std::vector<const CompareRun*> runs = {
        find_compare_run(source, "cublas.f16@4096x4096x4096"),
        find_compare_run(source, "wmma.f16@4096x4096x4096")};
    const viz::Roofline roofline = compare_roofline({source}, runs);
    ASSERT_EQ(roofline.compute.size(), 4u);
    EXPECT_EQ(roofline.compute[0].label, "f32 FMA");
    EXPECT_EQ(roofline.compute[2].label, "f16 tensor");
    EXPECT_EQ(roofline.compute[2].precision, "f16");
    EXPECT_DOUBLE_EQ(roofline.compute[2].tflops, 900.0);
    EXPECT_EQ(roofline.compute[2].origin, "measured");
    EXPECT_DOUBLE_EQ(roofline.memory.at(0).bytes_per_s, 3.01e12);
    EXPECT_EQ(roofline.memory.at(0).origin, "measured");
    ASSERT_EQ(roofline.points.size(), 2u);
    // A precision this GPU could not measure (e4m3 without sm_90a: tflops 0) has no roof.
    CompareSource unmeasured = source;
    unmeasured.peaks.push_back({kernels::Precision::kE4M3, "", 0.0});
    EXPECT_EQ(compare_roofline({unmeasured}, runs).compute.size(), 4u);
    unmeasured.peaks.back() = {kernels::Precision::kE4M3, "wgmma.m64n256k32.f32.e4m3.e4m3", 1500.0};
    ASSERT_EQ(compare_roofline({unmeasured}, runs).compute.size(), 5u);
    EXPECT_EQ(compare_roofline({unmeasured}, runs).compute[4].label, "e4m3 tensor");
    EXPECT_EQ(roofline.points[0].label, "cublas.f16 4096x4096x4096");
    EXPECT_EQ(roofline.points[0].precision, "f16");
    EXPECT_DOUBLE_EQ(roofline.points[0].intensity, 1024.0);
    EXPECT_TRUE(roofline.points[0].estimated);
    EXPECT_DOUBLE_EQ(roofline.points[0].tflops, 740.0);
    EXPECT_EQ(roofline.points[1].category, 1);
    EXPECT_FALSE(roofline.points[1].estimated);
    // The f16 runs are capped by the f16 roof.
    EXPECT_DOUBLE_EQ(viz::attainable_for(roofline, roofline.points[0]), 900.0);
    ASSERT_EQ(roofline.devices.size(), 1u);  // one source: no device named in the chart
    EXPECT_EQ(roofline.points[0].device, 0);
}

// The sample recording a second time, as if recorded three days later on another GPU, wmma.f16
// 10 % faster and its cuBLAS row unchanged (made up for the test).
profiling::Recording later_recording() {
    profiling::Recording later = test::sample_recording();
    later.created_utc = "2026-11-25T09:00:00Z";
    later.system.devices[0].name = "tclens second test GPU";
    later.peaks[2].tflops = 800.0;
    later.dram_bandwidth.bytes_per_s = 2.0e12;
    later.bench[0].result.tflops = 292.0 / 0.9;
    later.bench[0].result.median_ms *= 0.9;
    return later;
}

TEST(CompareRuns, SeveralRecordingsAreSourcesKeyedByFileName) {
    const profiling::Recording first = test::sample_recording();
    const profiling::Recording later = later_recording();
    const std::vector<CompareSource> sources = recording_compare_sources(
        {{"/a/sample.json", &first}, {"/b/later.json", &later}, {"/c/sample.json", &first}});
    ASSERT_EQ(sources.size(), 3u);
    EXPECT_EQ(sources[0].key, "sample.json");
    EXPECT_EQ(sources[1].key, "later.json");
    EXPECT_EQ(sources[2].key, "sample.json#2");  // the same file name again
    EXPECT_EQ(sources[1].label, "tclens second test GPU, 2026-11-25 09:00 UTC");
    const CompareRun* wmma = find_compare_run(sources[1], "wmma.f16@4096x4096x4096");
    ASSERT_TRUE(wmma);
    EXPECT_EQ(wmma->source_key, "later.json");
    EXPECT_EQ(wmma->source_label, sources[1].label);
    EXPECT_EQ(wmma->key(), "later.json:wmma.f16@4096x4096x4096");
}

TEST(CompareRuns, EntriesResolveToAQualifiedRunOrTheFirstSourceThatHasIt) {
    const profiling::Recording first = test::sample_recording();
    const profiling::Recording later = later_recording();
    const std::vector<CompareSource> sources =
        recording_compare_sources({{"sample.json", &first}, {"later.json", &later}});
    const std::vector<ResolvedRun> resolved = resolve_compare_runs(
        sources, {"wmma.f16@4096x4096x4096", "later.json:wmma.f16@4096x4096x4096",
                  "later.json:wmma.f16@64x64x64", "wgmma_tma.f16@4096x4096x4096"});
    ASSERT_EQ(resolved.size(), 4u);
    EXPECT_EQ(resolved[0].run, find_compare_run(sources[0], "wmma.f16@4096x4096x4096"));
    EXPECT_EQ(resolved[1].run, find_compare_run(sources[1], "wmma.f16@4096x4096x4096"));
    EXPECT_EQ(resolved[2].run, nullptr);
    EXPECT_EQ(resolved[2].missing, "later.json:wmma.f16@64x64x64: not in the recording runs");
    EXPECT_EQ(resolved[3].run, nullptr);  // skipped: nothing to compare
    EXPECT_EQ(resolved[3].missing,
              "wgmma_tma.f16@4096x4096x4096: skipped: needs sm_90a (this GPU is sm_80)");
}

TEST(CompareRuns, TheDefaultIsTheBestRungOfEachPrecisionAndItsCublas) {
    profiling::Recording recording = test::sample_recording();
    // A second f16 rung, faster than wmma.f16, and a slower bf16 rung without a cuBLAS row.
    recording.bench.push_back(
        test::sample_bench_row("mma_cp_async.f16", 8, kernels::Precision::kF16, "cublas.f16", 470));
    recording.bench.push_back(test::sample_bench_row(
        "mma_cp_async.bf16", 8, kernels::Precision::kBF16, "cublas.bf16", 450));
    const CompareSource source = recording_compare_source(recording, "r.json");
    EXPECT_EQ(
        default_compare_runs({source}),
        (std::vector<std::string>{"mma_cp_async.f16@4096x4096x4096", "cublas.f16@4096x4096x4096",
                                  "mma_cp_async.bf16@4096x4096x4096"}));
    // mma_tf32_puzzle failed its check: no tf32 pick. Several sources: only the fastest rung
    // (f16) and its cuBLAS, then those runs from every other source that has them (the later
    // recording has no mma_cp_async.f16).
    const profiling::Recording later = later_recording();
    const std::vector<CompareSource> two =
        recording_compare_sources({{"r.json", &recording}, {"later.json", &later}});
    EXPECT_EQ(default_compare_runs(two),
              (std::vector<std::string>{"r.json:mma_cp_async.f16@4096x4096x4096",
                                        "r.json:cublas.f16@4096x4096x4096",
                                        "later.json:cublas.f16@4096x4096x4096"}));
    EXPECT_TRUE(default_compare_runs({}).empty());
}

TEST(CompareRuns, RunsOfTwoRecordingsNameTheirSourceAndSitUnderTheirOwnRoofs) {
    const profiling::Recording first = test::sample_recording();
    const profiling::Recording later = later_recording();
    const std::vector<CompareSource> sources =
        recording_compare_sources({{"sample.json", &first}, {"later.json", &later}});
    const std::vector<const CompareRun*> runs = {
        find_compare_run(sources[0], "wmma.f16@4096x4096x4096"),
        find_compare_run(sources[1], "wmma.f16@4096x4096x4096")};
    const std::vector<viz::CompareColumn> columns = compare_columns(runs);
    ASSERT_EQ(columns.size(), 2u);
    EXPECT_EQ(columns[0].source, "tclens test GPU, 2026-11-22 10:00 UTC");
    EXPECT_EQ(columns[1].source, "tclens second test GPU, 2026-11-25 09:00 UTC");
    EXPECT_EQ(compare_columns({runs[0]})[0].source, "");  // one source: not named
    const std::vector<viz::CompareRow> rows = compare_rows(runs);
    const viz::CompareRow* tflops = find_row(rows, "TFLOP/s");
    ASSERT_TRUE(tflops);
    EXPECT_NEAR(viz::delta_pct(tflops->values[0], tflops->values[1]), 100.0 / 9.0, 1e-9);

    const viz::Roofline roofline = compare_roofline(sources, runs);
    ASSERT_EQ(roofline.devices.size(), 2u);
    EXPECT_EQ(roofline.devices[1], sources[1].label);
    ASSERT_EQ(roofline.memory.size(), 2u);
    EXPECT_DOUBLE_EQ(viz::memory_roof_of(roofline, 1)->bytes_per_s, 2.0e12);
    ASSERT_TRUE(viz::roof_for(roofline, "f16", 1));
    EXPECT_DOUBLE_EQ(viz::roof_for(roofline, "f16", 1)->tflops, 800.0);
    EXPECT_DOUBLE_EQ(viz::roof_for(roofline, "f16", 0)->tflops, 900.0);
    ASSERT_EQ(roofline.points.size(), 2u);
    EXPECT_EQ(roofline.points[0].device, 0);
    EXPECT_EQ(roofline.points[1].device, 1);
    EXPECT_EQ(roofline.points[1].label,
              "wmma.f16 4096x4096x4096 on tclens second test GPU, 2026-11-25 09:00 UTC");
    // Each run is bounded by its own device's roofs: the later one by 800, not 900.
    EXPECT_DOUBLE_EQ(viz::attainable_for(roofline, {"", "f16", 1e6, 1, false, 0, 1}), 800.0);
}

// A recording whose bench ran on two GPUs: each run names its row's GPU (a run with only a
// profile, the recording's own); runs of several GPUs are grouped GPU by GPU, the baseline first,
// and their columns name the GPU. Runs of different recordings keep their recording's label.
TEST(CompareRuns, RunsNameTheirGpuAndGroupByIt) {
    profiling::Recording two = test::sample_recording();
    profiling::SystemReport other = two.system;
    other.devices[0].pci_bus_id = "00000000:3b:00.0";
    two.workers = {{"host", two.system}, {"host", other}};
    two.bench_worker = {1, 0, 0, 0};  // wmma.f16 on the second GPU
    const CompareSource source = recording_compare_source(two, "two.json");
    const CompareRun* wmma = find_compare_run(source, "wmma.f16@4096x4096x4096");
    const CompareRun* cublas = find_compare_run(source, "cublas.f16@4096x4096x4096");
    ASSERT_TRUE(wmma && cublas);
    EXPECT_EQ(wmma->gpu, "host: tclens test GPU (00000000:3b:00.0)");
    EXPECT_EQ(cublas->gpu, "host: tclens test GPU (00000000:19:00.0)");
    EXPECT_EQ(compare_gpus({wmma, cublas}), (std::vector<std::string>{wmma->gpu, cublas->gpu}));
    EXPECT_EQ(compare_columns({wmma, cublas})[0].source, wmma->gpu);

    CompareRun a = *cublas;
    a.id = "a";
    CompareRun b = *wmma;
    CompareRun c = *cublas;
    c.id = "c";
    EXPECT_EQ(group_by_gpu({&a, &b, &c}), (std::vector<const CompareRun*>{&a, &c, &b}));
    EXPECT_EQ(group_by_gpu({&b, &a}), (std::vector<const CompareRun*>{&b, &a}));

    // One GPU per recording: the label names it, as before.
    const profiling::Recording first = test::sample_recording();
    const CompareSource one = recording_compare_source(first, "one.json");
    const CompareRun* profiled = find_compare_run(one, "wmma.f16@4096x4096x4096");
    ASSERT_TRUE(profiled);
    EXPECT_EQ(profiled->gpu, "tclens test GPU (00000000:19:00.0)");
    EXPECT_EQ(compare_columns({profiled})[0].source, "");
}

TEST(CompareRuns, LiveSourceJoinsTheBenchAndTheNewestProfiles) {
    const profiling::Recording recorded = test::sample_recording();
    BenchResults bench;
    bench.device = "NVIDIA H100 80GB HBM3";
    bench.report.rows = recorded.bench;
    bench.report.peaks = recorded.peaks;
    LiveProfile live;
    for (const char* id : {"wgmma_persistent.f16", "wgmma_ws.f16"}) {
        live.kernels.emplace_back();
        live.kernels.back().kernel_id = id;
        live.kernels.back().latest = std::make_shared<const profiling::KernelProfile>(
            profile_of(id, kernels::Precision::kF16, 2e5));
    }
    profiling::SystemReport system = recorded.system;
    const CompareSource source = live_compare_source(&bench, &live, &system);
    EXPECT_EQ(source.kind, CompareSourceKind::kLive);
    EXPECT_EQ(source.caption, "live: NVIDIA H100 80GB HBM3");
    ASSERT_EQ(source.runs.size(), 6u);
    EXPECT_EQ(source.runs[4].id, "wgmma_persistent.f16@4096x4096x4096");
    EXPECT_TRUE(source.runs[4].tflops_from_profile);
    EXPECT_EQ(source.runs[5].id, "wgmma_ws.f16@4096x4096x4096");
    EXPECT_EQ(source.peaks.size(), 4u);
    EXPECT_EQ(source.dram_origin, "theoretical");  // the GUI measures no bandwidth
    EXPECT_GT(source.dram_bytes_per_s, 3e12);

    const CompareSource nothing = live_compare_source(nullptr, nullptr, nullptr);
    EXPECT_TRUE(nothing.runs.empty());
    EXPECT_EQ(nothing.caption, "live: no GPU");
    EXPECT_EQ(nothing.dram_bytes_per_s, 0);
    EXPECT_NE(nothing.peak_error, "");
}

}  // namespace
}  // namespace tclens::gui
