// Tests for app/gui/bench_view.*: a synthetic bench report (no GPU needed) with one row of each
// outcome. Only counted rows get numbers in the table and bars in the chart; every other row
// says why.
#include "app/gui/views/bench_view.h"

#include <gtest/gtest.h>

#include <string>

namespace tclens::gui {
namespace {

kernels::BenchRow row(const std::string& id, kernels::Precision precision,
                      kernels::GemmProblem problem, const std::string& reference_id) {
    kernels::BenchRow r;
    r.result.kernel_id = id;
    r.result.precision = precision;
    r.result.problem = problem;
    r.reference_id = reference_id;
    r.rung = reference_id.empty() ? 0 : 8;
    return r;
}

kernels::BenchRow counted(const std::string& id, kernels::Precision precision,
                          kernels::GemmProblem problem, const std::string& reference_id,
                          double tflops, double pct_of_reference) {
    kernels::BenchRow r = row(id, precision, problem, reference_id);
    r.result.check.passed = true;
    r.result.check.rel_rms_error = 3.1e-6;
    r.result.check.bound = 1e-2;
    r.result.check.reference = "cublas.sgemm";
    r.result.timed_runs = 30;
    r.result.median_ms = 0.25;
    r.result.tflops = tflops;
    r.pct_of_reference = pct_of_reference;
    r.pct_of_peak = 70.0;
    return r;
}

constexpr kernels::GemmProblem k4096{4096, 4096, 4096};

// mma_cp_async.f16 and its reference counted; wmma.f16 skipped; a TF32 rung not verified (too
// large an error); naive failed with a CUDA error; the tf32 puzzle left NaNs.
kernels::BenchReport synthetic_report() {
    kernels::BenchReport report;
    report.rows.push_back(
        counted("mma_cp_async.f16", kernels::Precision::kF16, k4096, "cublas.f16", 549.8, 91.2));
    report.rows.push_back(counted("cublas.f16", kernels::Precision::kF16, k4096, "", 602.9, 100.0));
    kernels::BenchRow skipped = row("wmma.f16", kernels::Precision::kF16, k4096, "cublas.f16");
    skipped.result.skipped = "K must be a multiple of 16";
    report.rows.push_back(skipped);
    kernels::BenchRow wrong =
        row("mma_tf32_tuned", kernels::Precision::kTF32, k4096, "cublas.tf32");
    wrong.result.check.rel_rms_error = 0.31;
    wrong.result.check.bound = 2e-3;
    wrong.result.check.reference = "cublas.sgemm";
    wrong.result.check.reference_rel_rms = 1e-7;
    report.rows.push_back(wrong);
    kernels::BenchRow broken =
        row("naive_fma.f32", kernels::Precision::kF32, k4096, "cublas.sgemm");
    broken.result.error = "an illegal memory access was encountered";
    report.rows.push_back(broken);
    kernels::BenchRow holes =
        row("mma_tf32_puzzle", kernels::Precision::kTF32, k4096, "cublas.tf32");
    holes.result.check.bound = 2e-3;
    holes.result.check.reference = "cpu.fp64";
    holes.result.check.nan_count = 4096;
    report.rows.push_back(holes);
    return report;
}

TEST(BenchView, StatusSaysWhyEachRowHasNoNumber) {
    const kernels::BenchReport report = synthetic_report();
    EXPECT_EQ(kernels::run_status(report.rows[0].result), "ok");
    EXPECT_EQ(kernels::run_status(report.rows[2].result), "skipped: K must be a multiple of 16");
    EXPECT_EQ(kernels::run_status(report.rows[3].result),
              "NOT VERIFIED: rel. RMS error 3.10e-01 > bound 2e-03 vs cublas.sgemm");
    EXPECT_EQ(kernels::run_status(report.rows[4].result),
              "error: an illegal memory access was encountered");
    EXPECT_EQ(kernels::run_status(report.rows[5].result),
              "NOT VERIFIED: 4096 elements not written (NaN)");
    kernels::RunResult cancelled;
    cancelled.error = "cancelled";
    EXPECT_EQ(kernels::run_status(cancelled), "error: cancelled");
}

TEST(BenchView, TableShowsNumbersOfCountedRowsOnly) {
    const std::vector<BenchTableRow> table = bench_table(synthetic_report());
    ASSERT_EQ(table.size(), 6u);
    const BenchTableRow& kernel = table[0];
    EXPECT_EQ(kernel.state, RowState::kCounted);
    EXPECT_EQ(kernel.kernel, "mma_cp_async.f16");
    EXPECT_EQ(kernel.size, "4096x4096x4096");
    EXPECT_EQ(kernel.precision, "f16");
    EXPECT_EQ(kernel.median_ms, "0.250");
    EXPECT_EQ(kernel.tflops, "549.8");
    EXPECT_EQ(kernel.pct_of_reference, "91.2%");
    EXPECT_EQ(kernel.pct_of_peak, "70.0%");
    EXPECT_EQ(kernel.speedup_vs_sgemm, "-");  // f16: no xSGEMM
    EXPECT_EQ(kernel.rel_error, "3.1e-06");
    EXPECT_EQ(kernel.status, "ok");
    EXPECT_EQ(table[1].pct_of_reference, "100.0%");

    EXPECT_EQ(table[2].state, RowState::kSkipped);
    for (size_t i : {3, 4, 5}) EXPECT_EQ(table[i].state, RowState::kFailed) << i;
    for (size_t i = 2; i < table.size(); ++i) {
        const BenchTableRow& r = table[i];
        SCOPED_TRACE(r.kernel);
        EXPECT_FALSE(r.kernel.empty());
        EXPECT_FALSE(r.size.empty());
        EXPECT_FALSE(r.status.empty());
        EXPECT_NE(r.status, "ok");
        for (const std::string* number : {&r.median_ms, &r.tflops, &r.pct_of_reference,
                                          &r.pct_of_peak, &r.speedup_vs_sgemm, &r.rel_error}) {
            EXPECT_EQ(*number, "");
        }
    }
    EXPECT_EQ(bench_table_headers().size(), 10u);
}

// Rows of two workers: a GPU column naming each row's worker, a line each worker's GPU; one
// worker: neither.
TEST(BenchView, RowsOfSeveralWorkersNameTheirWorkerAndEachWorkerItsGpu) {
    profiling::SystemReport gpu;
    gpu.devices.emplace_back();
    gpu.devices[0].name = "NVIDIA H200";
    gpu.devices[0].pci_bus_id = "0000:19:00.0";
    profiling::SystemReport other = gpu;
    other.devices[0].pci_bus_id = "0000:3b:00.0";
    const std::vector<profiling::RecordingWorker> two = {{"gpu1", gpu}, {"gpu1", other}};
    EXPECT_EQ(row_gpus(two, {1, 0}), (std::vector<std::string>{"w2", "w1"}));
    EXPECT_EQ(bench_workers(two),
              (std::vector<std::string>{"w1: gpu1: NVIDIA H200 (0000:19:00.0)",
                                        "w2: gpu1: NVIDIA H200 (0000:3b:00.0)"}));
    EXPECT_TRUE(row_gpus({two[0]}, {0, 0}).empty());
    EXPECT_TRUE(bench_workers({two[0]}).empty());
    kernels::BenchReport report;
    report.rows.push_back(row("naive_fma.f32", kernels::Precision::kF32, k4096, "cublas.sgemm"));
    EXPECT_EQ(bench_table(report, {"w2"}).front().gpu, "w2");
    EXPECT_EQ(bench_table_headers(true).size(), 11u);
    EXPECT_EQ(bench_table_headers(true)[9], "GPU");
}

TEST(BenchView, CancelledRunIsSkippedNotFailed) {
    kernels::BenchReport report;
    report.rows.push_back(row("naive_fma.f32", kernels::Precision::kF32, k4096, "cublas.sgemm"));
    report.rows.back().result.error = "cancelled";
    EXPECT_EQ(bench_table(report).front().state, RowState::kSkipped);
}

// The rects of bars (hit >= 0) and whether a text is drawn.
int bar_count(const viz::DrawList& draw) {
    int bars = 0;
    for (const viz::DrawRect& rect : draw.rects) bars += rect.hit >= 0;
    return bars;
}

bool has_text(const viz::DrawList& draw, const std::string& text) {
    for (const viz::DrawText& t : draw.texts) {
        if (t.text == text) return true;
    }
    return false;
}

bool mentions(const viz::DrawList& draw, const std::string& part) {
    for (const viz::DrawText& t : draw.texts) {
        if (t.text.find(part) != std::string::npos) return true;
    }
    return false;
}

TEST(BenchView, ChartPlotsCountedRowsOnlyWithTflopsAndPercentOfCublas) {
    const viz::DrawList draw = bench_chart(synthetic_report(), viz::dark_palette());
    EXPECT_EQ(bar_count(draw), 2);
    EXPECT_TRUE(has_text(draw, "mma_cp_async.f16"));
    EXPECT_TRUE(has_text(draw, "549.8 TFLOP/s, 91.2% of cuBLAS"));
    EXPECT_TRUE(has_text(draw, "cublas.f16"));
    EXPECT_TRUE(has_text(draw, "602.9 TFLOP/s, reference"));
    for (const char* absent : {"wmma.f16", "mma_tf32_tuned", "naive_fma.f32", "mma_tf32_puzzle"}) {
        EXPECT_FALSE(mentions(draw, absent)) << absent;
    }
    // f16 bars share the f16 colour (precision 2), and the legend above the bars names it: one
    // swatch of that colour with the label "f16" beside it.
    const viz::Rgba f16 = viz::precision_colour(viz::dark_palette(), 2);
    int swatches = 0;
    for (const viz::DrawRect& rect : draw.rects) {
        if (rect.hit >= 0) EXPECT_EQ(rect.fill, f16);
        swatches += rect.hit < 0 && rect.fill == f16;
    }
    EXPECT_EQ(swatches, 1);
    EXPECT_TRUE(has_text(draw, "f16"));
    EXPECT_FALSE(has_text(draw, "bf16"));  // only the precisions shown
    // The longer bar is cuBLAS's: 602.9 vs 549.8 on one axis.
    const viz::DrawRect* bars[2] = {};
    for (const viz::DrawRect& rect : draw.rects) {
        if (rect.hit >= 0) bars[rect.hit] = &rect;
    }
    ASSERT_TRUE(bars[0] && bars[1]);
    EXPECT_NEAR(bars[0]->w / bars[1]->w, 549.8 / 602.9, 1e-4);
}

TEST(BenchView, SeveralSizesPutTheSizeInTheLabelAndAnUncountedReferenceDropsThePercent) {
    kernels::BenchReport report;
    report.rows.push_back(
        counted("wmma.f16", kernels::Precision::kF16, {1024, 1024, 1024}, "cublas.f16", 80, 0));
    report.rows.push_back(
        counted("wmma.f16", kernels::Precision::kF16, k4096, "cublas.f16", 300, 75));
    const viz::DrawList draw = bench_chart(report, viz::dark_palette());
    EXPECT_EQ(bar_count(draw), 2);
    EXPECT_TRUE(has_text(draw, "wmma.f16 1024x1024x1024"));
    EXPECT_TRUE(has_text(draw, "wmma.f16 4096x4096x4096"));
    EXPECT_TRUE(has_text(draw, "80.0 TFLOP/s"));
    EXPECT_TRUE(has_text(draw, "300.0 TFLOP/s, 75.0% of cuBLAS"));
}

TEST(BenchView, ReportWithNothingCountedDrawsNoBars) {
    kernels::BenchReport report = synthetic_report();
    report.rows.erase(report.rows.begin(), report.rows.begin() + 2);
    const viz::DrawList draw = bench_chart(report, viz::dark_palette());
    EXPECT_EQ(bar_count(draw), 0);
    EXPECT_GT(draw.width, 0);
    EXPECT_TRUE(bench_chart({}, viz::dark_palette()).rects.size() > 0);  // the axis
}

}  // namespace
}  // namespace tclens::gui
