#include "app/gui/views/bench_view.h"

#include <algorithm>
#include <cstdio>

#include "kernels/problem_text.h"
#include "viz/bar_chart.h"

namespace tclens::gui {
namespace {

// RunResult::error of a run stopped by RunOptions::cancel (kernels/runner.h).
constexpr const char* kCancelled = "cancelled";

// printf of one number, or "-" when the bench does not know it (0).
std::string known(double value, const char* format) {
    if (!(value > 0)) return "-";
    char text[48];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

bool several_sizes(const std::vector<kernels::BenchRow>& rows) {
    for (const kernels::BenchRow& row : rows) {
        if (!kernels::same_problem(row.result.problem, rows.front().result.problem)) return true;
    }
    return false;
}

// A counted row's bar: labelled with the kernel id (plus " MxNxK" `with_size`, plus " | label"
// when `label` is set), its TFLOP/s and share of cuBLAS, in `category`.
viz::Bar bench_bar(const kernels::BenchRow& row, bool with_size, const std::string& label,
                   int category) {
    const kernels::RunResult& r = row.result;
    viz::Bar bar;
    bar.label = r.kernel_id + (with_size ? " " + kernels::problem_text(r.problem) : "") +
                (label.empty() ? "" : " | " + label);
    bar.value = r.tflops;
    bar.value_text = known(r.tflops, "%.1f") + " TFLOP/s";
    if (row.reference_id.empty()) {
        bar.value_text += ", reference";
    } else if (row.pct_of_reference > 0) {
        bar.value_text += known(row.pct_of_reference, ", %.1f%% of cuBLAS");
    }
    bar.category = category;
    return bar;
}

}  // namespace

const std::vector<std::string>& bench_table_headers(bool gpu_column) {
    static const std::vector<std::string> headers = {
        "kernel",      "size",      "precision", "median ms",  "TFLOP/s",
        "% of cuBLAS", "% of peak", "xSGEMM",    "rel. error", "status"};
    static const std::vector<std::string> with_gpu = [] {
        std::vector<std::string> all = headers;
        all.insert(all.end() - 1, "GPU");
        return all;
    }();
    return gpu_column ? with_gpu : headers;
}

std::vector<std::string> row_gpus(const std::vector<profiling::RecordingWorker>& workers,
                                  const std::vector<int>& row_worker) {
    if (workers.size() < 2) return {};
    std::vector<std::string> gpus;
    for (const int w : row_worker) {
        const bool known = w >= 0 && std::size_t(w) < workers.size();
        gpus.push_back(known ? "w" + std::to_string(w + 1) : std::string("-"));
    }
    return gpus;
}

std::vector<std::string> bench_workers(const std::vector<profiling::RecordingWorker>& workers) {
    if (workers.size() < 2) return {};
    std::vector<std::string> lines;
    for (std::size_t w = 0; w < workers.size(); ++w) {
        lines.push_back("w" + std::to_string(w + 1) + ": " +
                        profiling::worker_gpu_text(workers[w].host, workers[w].system));
    }
    return lines;
}

std::vector<BenchTableRow> bench_table(const kernels::BenchReport& report,
                                       const std::vector<std::string>& row_gpus) {
    std::vector<BenchTableRow> table;
    for (const kernels::BenchRow& row : report.rows) {
        const kernels::RunResult& r = row.result;
        BenchTableRow line;
        if (table.size() < row_gpus.size()) line.gpu = row_gpus[table.size()];
        line.kernel = r.kernel_id;
        line.size = kernels::problem_text(r.problem);
        line.precision = kernels::precision_name(r.precision);
        line.status = kernels::run_status(r);
        if (r.counts()) {
            line.state = RowState::kCounted;
            line.median_ms = known(r.median_ms, "%.3f");
            line.tflops = known(r.tflops, "%.1f");
            line.pct_of_reference = known(row.pct_of_reference, "%.1f%%");
            line.pct_of_peak = known(row.pct_of_peak, "%.1f%%");
            line.speedup_vs_sgemm = known(row.speedup_vs_sgemm, "%.2fx");
            line.rel_error = known(r.check.rel_rms_error, "%.1e");
        } else {
            const bool failed = r.failed() && r.error != kCancelled;
            line.state = failed ? RowState::kFailed : RowState::kSkipped;
        }
        table.push_back(std::move(line));
    }
    return table;
}

viz::DrawList bench_chart(const kernels::BenchReport& report, const viz::Palette& palette) {
    const bool with_size = several_sizes(report.rows);
    std::vector<viz::Bar> bars;
    std::vector<bool> shown(palette.precisions.size(), false);
    for (const kernels::BenchRow& row : report.rows) {
        if (!row.result.counts()) continue;
        const int precision = static_cast<int>(row.result.precision);
        bars.push_back(bench_bar(row, with_size, "", precision));
        shown[size_t(precision) % shown.size()] = true;
    }
    viz::BarChartOptions options;
    options.title = "TFLOP/s per kernel (verified results only)";
    options.axis_label = "TFLOP/s";
    options.fills = palette.precisions;
    for (size_t p = 0; p < shown.size(); ++p) {
        const auto precision = static_cast<kernels::Precision>(p);
        if (shown[p]) options.legend.push_back({kernels::precision_name(precision), int(p)});
    }
    options.palette = &palette;
    return viz::bar_chart(bars, options);
}

viz::DrawList recordings_bench_chart(const std::vector<LabelledBench>& benches,
                                     const viz::Palette& palette) {
    // The runs (kernel and size) in order of first appearance over the benches.
    std::vector<const kernels::RunResult*> runs;
    bool with_size = false;
    for (const LabelledBench& bench : benches) {
        with_size = with_size || several_sizes(*bench.rows);
        for (const kernels::BenchRow& row : *bench.rows) {
            const bool seen = std::any_of(runs.begin(), runs.end(), [&](const auto* r) {
                return r->kernel_id == row.result.kernel_id &&
                       kernels::same_problem(r->problem, row.result.problem);
            });
            if (!seen) runs.push_back(&row.result);
        }
    }
    std::vector<viz::Bar> bars;
    for (const kernels::RunResult* run : runs) {
        for (size_t b = 0; b < benches.size(); ++b) {
            for (const kernels::BenchRow& row : *benches[b].rows) {
                if (row.result.kernel_id != run->kernel_id ||
                    !kernels::same_problem(row.result.problem, run->problem) ||
                    !row.result.counts()) {
                    continue;
                }
                bars.push_back(bench_bar(row, with_size, benches[b].label, int(b)));
                break;
            }
        }
    }
    viz::BarChartOptions options;
    for (size_t b = 0; b < benches.size(); ++b)
        options.legend.push_back({benches[b].label, int(b)});
    options.title = "TFLOP/s per kernel of " + std::to_string(benches.size()) +
                    " recordings, side by side (verified results only)";
    options.axis_label = "TFLOP/s";
    options.palette = &palette;
    return viz::bar_chart(bars, options);
}

}  // namespace tclens::gui
