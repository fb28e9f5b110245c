#include "app/gui/views/compare_runs.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>

#include "app/gui/panels/panel_settings.h"
#include "app/gui/views/recording_view.h"
#include "kernels/problem_text.h"
#include "kernels/runner.h"
#include "profiling/metric_catalogue.h"

namespace tclens::gui {
namespace {

constexpr const char* kDurationMetric = "gpu__time_duration.sum";
constexpr const char* kDramReadMetric = "dram__bytes_read.sum";
constexpr const char* kDramWriteMetric = "dram__bytes_write.sum";
constexpr int kOutputBytes = 4;  // C is f32 in every rung (kernels/gemm.h)

const double kNan = std::numeric_limits<double>::quiet_NaN();

std::string format(const char* pattern, double value) {
    char text[64];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

// The run's profile when it read its metrics and the kernel passed its check, else nullptr: a
// failed or unverified profile's numbers are never shown.
const profiling::KernelProfile* verified_profile(const CompareRun& run) {
    return run.profile && run.profile->ok() && run.profile->check.passed ? &*run.profile : nullptr;
}

// Fills tflops and status from what the run has (see the header comment of compare_runs.h).
void settle(CompareRun& run) {
    run.tflops = 0;
    run.tflops_from_profile = false;
    run.status.clear();
    if (run.bench && run.bench->result.counts()) {
        run.tflops = run.bench->result.tflops;
        return;
    }
    if (const profiling::KernelProfile* profile = verified_profile(run)) {
        const profiling::MetricValue* duration = profile->find(kDurationMetric);
        if (duration && duration->value > 0) {
            run.tflops = viz::gemm_flops(run.problem.m, run.problem.n, run.problem.k) /
                         (duration->value * 1e3);
            run.tflops_from_profile = true;
        }
        return;
    }
    if (run.bench) {
        run.status = kernels::run_status(run.bench->result);
    } else if (!run.profile->ok()) {
        run.status = "profile failed: " + run.profile->error.message;
    } else {
        run.status = "profile not verified";
    }
}

CompareRun& run_of(std::vector<CompareRun>& runs, const std::string& kernel_id,
                   kernels::Precision precision, const kernels::GemmProblem& problem) {
    const std::string id = compare_run_id(kernel_id, problem);
    for (CompareRun& run : runs) {
        if (run.id == id) return run;
    }
    CompareRun run;
    run.id = id;
    run.kernel_id = kernel_id;
    run.precision = precision;
    run.problem = problem;
    runs.push_back(std::move(run));
    return runs.back();
}

void add_bench_rows(std::vector<CompareRun>& runs, const std::vector<kernels::BenchRow>& rows) {
    for (const kernels::BenchRow& row : rows) {
        CompareRun& run =
            run_of(runs, row.result.kernel_id, row.result.precision, row.result.problem);
        if (!run.bench) run.bench = row;
    }
}

void add_profile(std::vector<CompareRun>& runs, const profiling::KernelProfile& profile) {
    CompareRun& run = run_of(runs, profile.kernel_id, profile.precision, profile.problem);
    if (!run.profile) run.profile = profile;
}

// Which way is better for a profile metric; kNeither for any metric not named here.
viz::Better metric_better(const std::string& name) {
    if (name == kDurationMetric || name == kDramReadMetric || name == kDramWriteMetric ||
        name.rfind("l1tex__data_bank_conflicts", 0) == 0) {
        return viz::Better::kLower;
    }
    if (name.rfind("sm__pipe_tensor", 0) == 0 || name == "lts__t_sector_hit_rate.pct") {
        return viz::Better::kHigher;
    }
    return viz::Better::kNeither;
}

// A row filled by `value_of` (NaN: no value) and `text_of` for the runs that have a value.
template <typename ValueOf, typename TextOf>
viz::CompareRow make_row(const std::string& label, viz::Better better,
                         const std::vector<const CompareRun*>& runs, ValueOf value_of,
                         TextOf text_of) {
    viz::CompareRow row{label, better, {}, {}};
    for (const CompareRun* run : runs) {
        const double value = value_of(*run);
        row.values.push_back(value);
        row.texts.push_back(std::isnan(value) ? "-" : text_of(*run, value));
    }
    return row;
}

bool any_value(const viz::CompareRow& row) {
    return std::any_of(row.values.begin(), row.values.end(),
                       [](double value) { return !std::isnan(value); });
}

const kernels::BenchRow* counted_bench(const CompareRun& run) {
    return run.bench && run.bench->result.counts() ? &*run.bench : nullptr;
}

}  // namespace

const char* compare_source_name(CompareSourceKind kind) {
    return kind == CompareSourceKind::kRecording ? "recording" : "live";
}

std::string compare_run_id(const std::string& kernel_id, const kernels::GemmProblem& problem) {
    return kernel_id + "@" + kernels::problem_text(problem);
}

std::string check_compare_run_id(std::string_view text) {
    const auto at = text.find('@');
    const std::string_view kernel = text.substr(0, at);
    const bool kernel_ok =
        !kernel.empty() && kernel.find_first_of(" \t,") == std::string_view::npos;
    if (at == std::string_view::npos || !kernel_ok ||
        !kernels::parse_problem(text.substr(at + 1))) {
        return "'" + std::string(text) +
               "' is not a run id KERNEL@MxNxK (e.g. wmma.f16@4096x4096x4096)";
    }
    return "";
}

std::vector<std::string> parse_compare_run_ids(std::string_view text, std::string& error) {
    std::vector<std::string> ids;
    for (const std::string& item : split_list(text)) {
        error = check_compare_run_id(item);
        if (!error.empty()) return {};
        if (std::find(ids.begin(), ids.end(), item) == ids.end()) ids.push_back(item);
    }
    return ids;
}

CompareSource recording_compare_source(const profiling::Recording& recording,
                                       const std::string& path) {
    CompareSource source;
    source.kind = CompareSourceKind::kRecording;
    const std::string name = std::filesystem::path(path).filename().string();
    source.caption = (name.empty() ? "recording" : name) + ": " + recording_caption(recording);
    add_bench_rows(source.runs, recording.bench);
    for (const profiling::KernelProfile& profile : recording.profiles)
        add_profile(source.runs, profile);
    for (CompareRun& run : source.runs) settle(run);
    source.peaks = recording.peaks;
    source.peak_error = recording.peaks.empty() && recording.peak_error.empty()
                            ? "the recording has no measured peaks"
                            : recording.peak_error;
    if (recording.dram_bandwidth.bytes_per_s > 0) {
        source.dram_bytes_per_s = recording.dram_bandwidth.bytes_per_s;
        source.dram_origin = "measured";
        source.dram_method = recording.dram_bandwidth.method;
    } else if (recording.system.has_gpu()) {
        const profiling::DeviceFacts& device = recording.system.devices.front();
        source.dram_bytes_per_s =
            profiling::peak_dram_bandwidth(device.mem_clock_khz, device.mem_bus_width_bits);
        source.dram_origin = "theoretical";
        source.dram_method = "not measured in this recording: 2 x memory clock x bus width";
    }
    return source;
}

CompareSource live_compare_source(const BenchResults* bench, const LiveProfile* live,
                                  const profiling::SystemReport* system) {
    CompareSource source;
    source.kind = CompareSourceKind::kLive;
    std::string device;
    if (bench) {
        add_bench_rows(source.runs, bench->report.rows);
        source.peaks = bench->report.peaks;
        source.peak_error = bench->report.peak_error;
        device = bench->device;
    } else {
        source.peak_error = "no bench in this session (Kernels > Run measures the peaks)";
    }
    if (live && live->has_profile()) {
        for (const KernelLive& kernel : live->kernels) {
            if (kernel.latest && kernel.latest->ok()) add_profile(source.runs, *kernel.latest);
        }
        if (device.empty()) device = live->device;
    }
    for (CompareRun& run : source.runs) settle(run);
    if (system && system->has_gpu()) {
        const profiling::DeviceFacts& gpu = system->devices.front();
        if (device.empty()) device = gpu.name;
        source.dram_bytes_per_s =
            profiling::peak_dram_bandwidth(gpu.mem_clock_khz, gpu.mem_bus_width_bits);
        source.dram_origin = "theoretical";
        source.dram_method = "2 x memory clock x bus width (the GUI does not measure it)";
    }
    source.caption = "live: " + (device.empty() ? std::string("no GPU") : device);
    return source;
}

const CompareRun* find_compare_run(const CompareSource& source, const std::string& id) {
    for (const CompareRun& run : source.runs) {
        if (run.id == id) return &run;
    }
    return nullptr;
}

RunIntensity run_intensity(const CompareRun& run) {
    const double flops = viz::gemm_flops(run.problem.m, run.problem.n, run.problem.k);
    if (const profiling::KernelProfile* profile = verified_profile(run)) {
        const profiling::MetricValue* read = profile->find(kDramReadMetric);
        const profiling::MetricValue* written = profile->find(kDramWriteMetric);
        if (read && written && read->value + written->value > 0) {
            const double bytes = read->value + written->value;
            return {viz::arithmetic_intensity(flops, bytes), bytes, false};
        }
    }
    const double bytes = viz::compulsory_bytes(run.problem.m, run.problem.n, run.problem.k,
                                               kernels::storage_bytes(run.precision), kOutputBytes);
    return {viz::arithmetic_intensity(flops, bytes), bytes, true};
}

std::vector<viz::CompareColumn> compare_columns(const std::vector<const CompareRun*>& runs) {
    std::vector<viz::CompareColumn> columns;
    for (size_t i = 0; i < runs.size(); ++i) {
        columns.push_back({runs[i]->kernel_id, kernels::problem_text(runs[i]->problem), int(i)});
    }
    return columns;
}

std::vector<viz::CompareRow> compare_rows(const std::vector<const CompareRun*>& runs) {
    using viz::Better;
    std::vector<viz::CompareRow> rows;
    rows.push_back(make_row(
        "time (ms)", Better::kLower, runs,
        [](const CompareRun& r) { return counted_bench(r) ? r.bench->result.median_ms : kNan; },
        [](const CompareRun&, double v) { return format("%.3f", v); }));
    rows.push_back(make_row(
        "TFLOP/s", Better::kHigher, runs,
        [](const CompareRun& r) { return r.tflops > 0 ? r.tflops : kNan; },
        [](const CompareRun& r, double v) {
            return format("%.1f", v) + (r.tflops_from_profile ? " (profiled)" : "");
        }));
    rows.push_back(make_row(
        "% of cuBLAS", Better::kHigher, runs,
        [](const CompareRun& r) {
            return counted_bench(r) && r.bench->pct_of_reference > 0 ? r.bench->pct_of_reference
                                                                     : kNan;
        },
        [](const CompareRun&, double v) { return format("%.1f%%", v); }));
    rows.push_back(make_row(
        "% of peak", Better::kHigher, runs,
        [](const CompareRun& r) {
            return counted_bench(r) && r.bench->pct_of_peak > 0 ? r.bench->pct_of_peak : kNan;
        },
        [](const CompareRun&, double v) { return format("%.1f%%", v); }));
    rows.push_back(make_row(
        "rel. error", Better::kLower, runs,
        [](const CompareRun& r) {
            if (counted_bench(r)) return r.bench->result.check.rel_rms_error;
            const profiling::KernelProfile* profile = verified_profile(r);
            return profile ? profile->check.rel_rms_error : kNan;
        },
        [](const CompareRun&, double v) { return format("%.1e", v); }));
    rows.push_back(make_row(
        "intensity (FLOP/B)", Better::kNeither, runs,
        [](const CompareRun& r) {
            const double value = run_intensity(r).flop_per_byte;
            return r.comparable() && value > 0 ? value : kNan;
        },
        [](const CompareRun& r, double v) {
            return format("%.1f", v) + (run_intensity(r).estimated ? " est." : "");
        }));
    rows.erase(std::remove_if(rows.begin(), rows.end(),
                              [](const viz::CompareRow& row) { return !any_value(row); }),
               rows.end());

    // Profile metrics, in order of first appearance over the runs.
    std::vector<const profiling::MetricValue*> metrics;
    for (const CompareRun* run : runs) {
        const profiling::KernelProfile* profile = verified_profile(*run);
        if (!profile) continue;
        for (const profiling::MetricValue& metric : profile->metrics) {
            const bool seen = std::any_of(
                metrics.begin(), metrics.end(),
                [&](const profiling::MetricValue* m) { return m->name == metric.name; });
            if (!seen) metrics.push_back(&metric);
        }
    }
    for (const profiling::MetricValue* metric : metrics) {
        const std::string name = metric->name;
        const std::string unit = metric->unit;
        const std::string label = (metric->label.empty() ? name : metric->label) +
                                  (unit.empty() ? "" : " (" + unit + ")");
        rows.push_back(make_row(
            label, metric_better(name), runs,
            [&name](const CompareRun& r) {
                const profiling::MetricValue* value =
                    verified_profile(r) ? verified_profile(r)->find(name) : nullptr;
                return value ? value->value : kNan;
            },
            [&unit](const CompareRun&, double v) {
                return profiling::format_metric_value(v, unit);
            }));
    }
    return rows;
}

viz::Roofline compare_roofline(const CompareSource& source,
                               const std::vector<const CompareRun*>& runs) {
    viz::Roofline roofline;
    for (const kernels::PeakMeasurement& peak : source.peaks) {
        const std::string precision = kernels::precision_name(peak.precision);
        const std::string unit = peak.precision == kernels::Precision::kF32 ? " FMA" : " tensor";
        roofline.compute.push_back({precision, precision + unit, peak.tflops, "measured"});
    }
    roofline.memory = {"DRAM", source.dram_bytes_per_s, source.dram_origin};
    for (size_t i = 0; i < runs.size(); ++i) {
        const CompareRun& run = *runs[i];
        const RunIntensity intensity = run_intensity(run);
        const std::string label = run.kernel_id + " " + kernels::problem_text(run.problem) +
                                  (run.tflops_from_profile ? " (profiled)" : "");
        roofline.points.push_back({label, kernels::precision_name(run.precision),
                                   intensity.flop_per_byte, run.tflops, intensity.estimated,
                                   int(i)});
    }
    return roofline;
}

}  // namespace tclens::gui
