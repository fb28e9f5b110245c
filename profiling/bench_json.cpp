#include "profiling/bench_json.h"

#include "profiling/json_reader.h"

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
            {"accumulate", kernels::precision_name(k.accumulate)},
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
            {"refused", r.refused.empty() ? nlohmann::json() : nlohmann::json(r.refused)},
            {"verified", r.check.passed},
            {"rel_rms_error", ran ? nlohmann::json(r.check.rel_rms_error) : nlohmann::json()},
            {"error_bound", r.check.bound},
            {"reference", r.check.reference},
            {"reference_rel_rms", known(r.check.reference_rel_rms)},
            {"nan_count", r.check.nan_count},
            {"wrong_elements", r.check.wrong_elements},
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

nlohmann::json to_json(const kernels::PeakMeasurement& peak) {
    return {{"precision", kernels::precision_name(peak.precision)},
            {"instruction", peak.instruction},
            {"tflops", peak.tflops}};
}

nlohmann::json to_json(const kernels::BenchReport& report) {
    nlohmann::json peaks = nlohmann::json::array();
    for (const kernels::PeakMeasurement& peak : report.peaks) peaks.push_back(to_json(peak));
    nlohmann::json instruction_peaks = nlohmann::json::array();
    for (const kernels::PeakMeasurement& peak : report.instruction_peaks) {
        instruction_peaks.push_back(to_json(peak));
    }
    nlohmann::json rows = nlohmann::json::array();
    for (const kernels::BenchRow& row : report.rows) rows.push_back(to_json(row));
    return {{"peaks", peaks},
            {"instruction_peaks", instruction_peaks},
            {"peak_error",
             report.peak_error.empty() ? nlohmann::json() : nlohmann::json(report.peak_error)},
            {"shared_gpu",
             report.shared_gpu.empty() ? nlohmann::json() : nlohmann::json(report.shared_gpu)},
            {"results", rows}};
}

bool bench_row_from_json(const nlohmann::json& in, kernels::BenchRow& row, std::string& error) {
    error.clear();
    JsonReader read(error);
    kernels::BenchRow out;
    kernels::RunResult& r = out.result;
    std::string precision;
    std::string cublas_id;
    read(in, "kernel", r.kernel_id);
    read(in, "rung", out.rung);
    read(in, "precision", precision);
    read(in, "m", r.problem.m);
    read(in, "n", r.problem.n);
    read(in, "k", r.problem.k);
    read.nullable(in, "skipped", r.skipped);
    read.nullable(in, "error", r.error);
    read.optional(in, "refused", r.refused);
    read(in, "verified", r.check.passed);
    if (r.skipped.empty() && r.error.empty()) {
        read(in, "rel_rms_error", r.check.rel_rms_error);  // null: NaN (a broken kernel's)
    } else {
        read.nullable(in, "rel_rms_error", r.check.rel_rms_error);
    }
    read(in, "error_bound", r.check.bound);
    read(in, "reference", r.check.reference);
    read.nullable(in, "reference_rel_rms", r.check.reference_rel_rms);
    read(in, "nan_count", r.check.nan_count);
    read.optional(in, "wrong_elements", r.check.wrong_elements);  // added with per-element checks
    read(in, "input_sets", r.input_sets);
    read(in, "timed_runs", r.timed_runs);
    read.nullable(in, "median_ms", r.median_ms);
    read.nullable(in, "min_ms", r.min_ms);
    read.nullable(in, "max_ms", r.max_ms);
    read.nullable(in, "tflops", r.tflops);
    read(in, "cublas_id", cublas_id);
    read.nullable(in, "pct_of_cublas", out.pct_of_reference);
    read.nullable(in, "speedup_vs_sgemm", out.speedup_vs_sgemm);
    read.nullable(in, "pct_of_peak", out.pct_of_peak);
    if (read.ok() && !parse_precision(precision, r.precision)) {
        read.fail("unknown precision '" + precision + "'");
    }
    if (!read.ok()) return false;
    out.reference_id = cublas_id == r.kernel_id ? "" : cublas_id;
    row = std::move(out);
    return true;
}

bool peak_from_json(const nlohmann::json& in, kernels::PeakMeasurement& peak, std::string& error) {
    error.clear();
    JsonReader read(error);
    kernels::PeakMeasurement out;
    std::string precision;
    read(in, "precision", precision);
    read(in, "instruction", out.instruction);
    read(in, "tflops", out.tflops);
    if (read.ok() && !parse_precision(precision, out.precision)) {
        read.fail("unknown precision '" + precision + "'");
    }
    if (!read.ok()) return false;
    peak = std::move(out);
    return true;
}

bool bench_report_from_json(const nlohmann::json& in, kernels::BenchReport& report,
                            std::string& error) {
    error.clear();
    JsonReader read(error);
    kernels::BenchReport out;
    read.list(in, "peaks", out.peaks, peak_from_json);
    read.list(in, "instruction_peaks", out.instruction_peaks, peak_from_json);
    read.nullable(in, "peak_error", out.peak_error);
    read.optional(in, "shared_gpu", out.shared_gpu);  // added with GPU turns
    read.list(in, "results", out.rows, bench_row_from_json);
    if (!read.ok()) return false;
    report = std::move(out);
    return true;
}

}  // namespace tclens::profiling
