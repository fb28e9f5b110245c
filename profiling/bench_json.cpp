#include "profiling/bench_json.h"

namespace tclens::profiling {
namespace {

nlohmann::json tile_json(const kernels::TileShape& tile) {
    return {{"m", tile.m}, {"n", tile.n}, {"k", tile.k}};
}

// 0 stands for "unknown" in BenchRow and RunResult; JSON says so with null.
nlohmann::json known(double value) { return value > 0 ? nlohmann::json(value) : nlohmann::json(); }

}  // namespace

nlohmann::json to_json(const kernels::KernelDescriptor& k) {
    return {{"id", k.id},
            {"rung", k.rung},
            {"title", k.title},
            {"adds", k.adds},
            {"precision", kernels::precision_name(k.precision)},
            {"block_tile", tile_json(k.block_tile)},
            {"warp_tile", tile_json(k.warp_tile)},
            {"thread_tile", tile_json(k.thread_tile)},
            {"mma_tile", tile_json(k.mma_tile)},
            {"stages", k.stages},
            {"swizzle", k.swizzle},
            {"layout_ids", k.layout_ids},
            {"threads", k.threads},
            {"min_sm", k.min_sm},
            {"reference_id", k.reference_id}};
}

nlohmann::json to_json(const kernels::BenchRow& row) {
    const kernels::RunResult& r = row.result;
    const bool ran = r.skipped.empty() && r.error.empty();
    return {{"kernel", r.kernel_id},
            {"rung", row.rung},
            {"precision", kernels::precision_name(r.precision)},
            {"m", r.problem.m},
            {"n", r.problem.n},
            {"k", r.problem.k},
            {"skipped", r.skipped.empty() ? nlohmann::json() : nlohmann::json(r.skipped)},
            {"error", r.error.empty() ? nlohmann::json() : nlohmann::json(r.error)},
            {"verified", r.check.passed},
            {"rel_rms_error", ran ? nlohmann::json(r.check.rel_rms_error) : nlohmann::json()},
            {"error_bound", r.check.bound},
            {"reference", r.check.reference},
            {"reference_rel_rms", known(r.check.reference_rel_rms)},
            {"nan_count", r.check.nan_count},
            {"input_sets", r.input_sets},
            {"timed_runs", r.timed_runs},
            {"median_ms", known(r.median_ms)},
            {"min_ms", known(r.min_ms)},
            {"max_ms", known(r.max_ms)},
            {"tflops", known(r.tflops)},
            {"cublas_id", row.reference_id.empty() ? r.kernel_id : row.reference_id},
            {"pct_of_cublas", known(row.pct_of_reference)},
            {"speedup_vs_sgemm", known(row.speedup_vs_sgemm)},
            {"pct_of_peak", known(row.pct_of_peak)}};
}

nlohmann::json to_json(const kernels::BenchReport& report) {
    nlohmann::json peaks = nlohmann::json::array();
    for (const kernels::PeakMeasurement& peak : report.peaks) {
        peaks.push_back({{"precision", kernels::precision_name(peak.precision)},
                         {"instruction", peak.instruction},
                         {"tflops", peak.tflops}});
    }
    nlohmann::json rows = nlohmann::json::array();
    for (const kernels::BenchRow& row : report.rows) rows.push_back(to_json(row));
    return {{"peaks", peaks},
            {"peak_error", report.peak_error.empty() ? nlohmann::json() : nlohmann::json(report.peak_error)},
            {"results", rows}};
}

}  // namespace tclens::profiling
