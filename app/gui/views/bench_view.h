#pragma once
// The Kernels panel's bench results as plain data, no ImGui: the rows of the results table as
// text, and the TFLOP/s bar chart as draw records (viz/bar_chart.h), so the chart paints on
// screen and exports to SVG/PNG alike. Only counted results (RunResult::counts(): ran,
// verified, timed) get numbers or bars; every other row shows why not.

#include <string>
#include <vector>

#include "kernels/bench_result.h"
#include "profiling/recording.h"
#include "viz/draw_list.h"
#include "viz/palette.h"

namespace tclens::gui {

enum class RowState {
    kCounted,  // numbers shown
    kSkipped,  // no numbers, nothing wrong: skipped with a reason, cancelled, or not timed
    kFailed,   // no numbers because something is wrong: a CUDA error, or not verified
};

// One row of the results table, every cell as shown.
struct BenchTableRow {
    RowState state = RowState::kCounted;
    std::string kernel;     // "mma_cp_async.f16"
    std::string size;       // "4096x4096x4096"
    std::string precision;  // "f16"
    // Counted rows: "1.234" ms, "612.4" TFLOP/s, "91.2%" of the same-precision cuBLAS, "78.0%"
    // of the measured peak, "1.75x" cublas.sgemm (TF32 rows), "3.1e-06" relative RMS error;
    // "-" where the bench does not know the number. Other rows: "" in every number cell.
    std::string median_ms, tflops, pct_of_reference, pct_of_peak, speedup_vs_sgemm, rel_error;
    std::string gpu;     // the worker that ran it, "w2" (bench_workers names its GPU); "" for one
    std::string status;  // kernels::run_status()
};

// The table's column headers, in BenchTableRow order (kernel ... status), with "GPU" before
// "status" when `gpu_column`.
const std::vector<std::string>& bench_table_headers(bool gpu_column = false);

// One row per report row, in report order; row i's `gpu` is row_gpus[i] where there is one.
std::vector<BenchTableRow> bench_table(const kernels::BenchReport& report,
                                       const std::vector<std::string>& row_gpus = {});

// The worker of each row ("w1", "w2": as tclens bench names them), one per entry of `row_worker`
// (an index in `workers`); {} when the rows ran on fewer than two workers: the table then has no
// GPU column.
std::vector<std::string> row_gpus(const std::vector<profiling::RecordingWorker>& workers,
                                  const std::vector<int>& row_worker);

// With two or more workers, a line each naming its GPU: "w1: host: NVIDIA H200 (0000:19:00.0)"
// (profiling::worker_gpu_text); else {}.
std::vector<std::string> bench_workers(const std::vector<profiling::RecordingWorker>& workers);

// The TFLOP/s chart: one bar per counted row, in report order, labelled with the kernel id
// (plus " MxNxK" when the report holds several sizes), bar length TFLOP/s, value text "612.4
// TFLOP/s, 91.2% of cuBLAS" ("612.4 TFLOP/s, reference" for cuBLAS rows; TFLOP/s only when the
// reference did not count), coloured by precision (palette.precisions, category = f32 0, tf32 1,
// f16 2, bf16 3, e4m3 4), with a legend naming the precisions shown. A report with no counted row
// gives the title and an empty axis.
viz::DrawList bench_chart(const kernels::BenchReport& report, const viz::Palette& palette);

// One bench among several open recordings: `label` names it by GPU and date.
struct LabelledBench {
    std::string label;  // "NVIDIA H100 80GB HBM3, 2026-11-22 10:00 UTC"
    const std::vector<kernels::BenchRow>* rows = nullptr;
};

// Several recordings' benches side by side: per run (kernel and size, in order of first
// appearance over the benches) one bar for each bench that counted it, in bench order, labelled
// "kernel[ MxNxK] | label", coloured by the bench's index (category b), value text as
// bench_chart's, with a legend naming each bench's colour by its label.
viz::DrawList recordings_bench_chart(const std::vector<LabelledBench>& benches,
                                     const viz::Palette& palette);

}  // namespace tclens::gui
