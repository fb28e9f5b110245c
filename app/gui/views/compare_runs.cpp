#include "app/gui/views/compare_runs.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include "app/gui/views/recording_view.h"
#include "app/gui/views/user_kernel_runs.h"
#include "common/text.h"
#include "kernels/problem_text.h"
#include "kernels/registry.h"
#include "kernels/run_result.h"
#include "profiling/metric_catalogue.h"

namespace tclens::gui {
namespace {

constexpr const char* kDurationMetric = "gpu__time_duration.sum";
constexpr const char* kDramReadMetric = "dram__bytes_read.sum";
constexpr const char* kDramWriteMetric = "dram__bytes_write.sum";
constexpr int kOutputBytes = 4;  // C is f32 in every rung (kernels/gemm.h)

const double kNan = std::numeric_limits<double>::quiet_NaN();

// format_metric_value without a trailing " unit" that its row's label already names: "1,048,576"
// for 1048576 instructions, "45.6" for 45.6 %, but "230 kB" (a scaled unit stays).
std::string value_without_unit(double value, const std::string& unit) {
    std::string text = profiling::format_metric_value(value, unit);
    const std::string suffix = " " + unit;
    const bool ends_in_unit = !unit.empty() && text.size() > suffix.size() &&
                              text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
    if (ends_in_unit) text.erase(text.size() - suffix.size());
    return text;
}

// The run's profile when it read its metrics and the kernel passed its check, else nullptr: a
// failed or unverified profile's numbers are never shown.
const profiling::KernelProfile* verified_profile(const CompareRun& run) {
    return run.profile && run.profile->ok() && run.profile->check.passed ? &*run.profile : nullptr;
}

// Fills tflops and status from what the run has (see the header comment of compare_runs.h), and
// where it comes from.
void settle(CompareRun& run, const CompareSource& source) {
    run.source_key = source.key;
    run.source_label = source.label;
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

// Adds each row as its run's bench row (the first of each id), row i's GPU `gpus[i]` where given.
void add_bench_rows(std::vector<CompareRun>& runs, const std::vector<kernels::BenchRow>& rows,
                    const std::vector<std::string>& gpus = {}) {
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const kernels::BenchRow& row = rows[i];
        CompareRun& run =
            run_of(runs, row.result.kernel_id, row.result.precision, row.result.problem);
        if (run.bench) continue;
        run.bench = row;
        if (i < gpus.size()) run.gpu = gpus[i];
    }
}

// Runs that have no GPU yet (profiles, kernels of yours) ran on `gpu`.
void default_gpu(std::vector<CompareRun>& runs, const std::string& gpu) {
    for (CompareRun& run : runs) {
        if (run.gpu.empty()) run.gpu = gpu;
    }
}

// The GPU of each row of `row_worker` (indices in `workers`), as worker_gpu_text names it.
std::vector<std::string> worker_gpus(const std::vector<profiling::RecordingWorker>& workers,
                                     const std::vector<int>& row_worker) {
    std::vector<std::string> gpus;
    for (const int w : row_worker) {
        const bool known = w >= 0 && std::size_t(w) < workers.size();
        gpus.push_back(known ? profiling::worker_gpu_text(workers[std::size_t(w)].host,
                                                          workers[std::size_t(w)].system)
                             : std::string());
    }
    return gpus;
}

// The GPU of a recording's own parts (its `system`), named with the host of the worker that has
// that GPU (the per-kernel parts are taken on one of them), else without a host.
std::string recording_gpu(const profiling::Recording& recording) {
    if (!recording.system.has_gpu()) return "";
    const profiling::DeviceFacts& own = recording.system.devices.front();
    for (const profiling::RecordingWorker& worker : recording.workers) {
        if (!worker.system.has_gpu()) continue;
        const profiling::DeviceFacts& gpu = worker.system.devices.front();
        if (gpu.name == own.name && gpu.pci_bus_id == own.pci_bus_id)
            return profiling::worker_gpu_text(worker.host, worker.system);
    }
    return profiling::worker_gpu_text("", recording.system);
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

bool several_sources(const std::vector<const CompareRun*>& runs) {
    return std::any_of(runs.begin(), runs.end(), [&](const CompareRun* run) {
        return run->source_key != runs.front()->source_key;
    });
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
    for (const std::string& item : common::split_list(text)) {
        error = check_compare_run_id(item);
        if (!error.empty()) return {};
        if (std::find(ids.begin(), ids.end(), item) == ids.end()) ids.push_back(item);
    }
    return ids;
}

CompareSource recording_compare_source(const profiling::Recording& recording,
                                       const std::string& path, const std::string& key) {
    CompareSource source;
    source.kind = CompareSourceKind::kRecording;
    const std::string name = std::filesystem::path(path).filename().string();
    source.caption = (name.empty() ? "recording" : name) + ": " + recording_caption(recording);
    source.key = !key.empty() ? key : (name.empty() ? "recording" : name);
    source.label = recording_caption(recording);
    std::vector<std::string> gpus;
    for (std::size_t r = 0; r < recording.bench.size(); ++r)
        gpus.push_back(profiling::row_gpu_text(recording, r));
    add_bench_rows(source.runs, recording.bench, gpus);
    for (const profiling::KernelProfile& profile : recording.profiles)
        add_profile(source.runs, profile);
    default_gpu(source.runs, recording_gpu(recording));
    for (CompareRun& run : source.runs) settle(run, source);
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
                                  const profiling::SystemReport* system, const UserKernels* yours) {
    CompareSource source;
    source.kind = CompareSourceKind::kLive;
    std::string device;
    if (bench) {
        add_bench_rows(source.runs, bench->report.rows,
                       worker_gpus(bench->workers, bench->row_worker));
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
    if (yours) {
        const UserKernelResults results = user_kernel_results(*yours);
        add_bench_rows(source.runs, results.rows);
        for (const profiling::KernelProfile& profile : results.profiles) {
            if (profile.ok()) add_profile(source.runs, profile);
            if (device.empty()) device = profile.device;
        }
    }
    if (system && system->has_gpu()) {
        const profiling::DeviceFacts& gpu = system->devices.front();
        if (device.empty()) device = gpu.name;
        source.dram_bytes_per_s =
            profiling::peak_dram_bandwidth(gpu.mem_clock_khz, gpu.mem_bus_width_bits);
        source.dram_origin = "theoretical";
        source.dram_method = "2 x memory clock x bus width (the GUI does not measure it)";
    }
    if (bench && !bench->workers.empty()) {
        default_gpu(source.runs, profiling::worker_gpu_text(bench->workers.front().host,
                                                            bench->workers.front().system));
    } else if (system && system->has_gpu()) {
        default_gpu(source.runs, profiling::worker_gpu_text("", *system));
    }
    source.caption = "live: " + (device.empty() ? std::string("no GPU") : device);
    source.key = "live";
    source.label = (device.empty() ? std::string("no GPU") : device) + ", this session";
    for (CompareRun& run : source.runs) settle(run, source);
    return source;
}

std::vector<CompareSource> recording_compare_sources(
    const std::vector<std::pair<std::string, const profiling::Recording*>>& recordings) {
    std::vector<CompareSource> sources;
    for (const auto& [path, recording] : recordings) {
        std::string name = std::filesystem::path(path).filename().string();
        if (name.empty()) name = "recording";
        std::string key = name;
        for (int n = 2; std::any_of(sources.begin(), sources.end(),
                                    [&](const CompareSource& s) { return s.key == key; });
             ++n) {
            key = name + "#" + std::to_string(n);
        }
        sources.push_back(recording_compare_source(*recording, path, key));
    }
    return sources;
}

const CompareRun* find_compare_run(const CompareSource& source, const std::string& id) {
    for (const CompareRun& run : source.runs) {
        if (run.id == id) return &run;
    }
    return nullptr;
}

std::vector<ResolvedRun> resolve_compare_runs(const std::vector<CompareSource>& sources,
                                              const std::vector<std::string>& entries) {
    std::vector<ResolvedRun> resolved;
    for (const std::string& entry : entries) {
        const CompareRun* run = nullptr;
        for (const CompareSource& source : sources) {  // "KEY:ID"
            const std::string prefix = source.key + ":";
            if (entry.size() > prefix.size() && entry.compare(0, prefix.size(), prefix) == 0) {
                run = find_compare_run(source, entry.substr(prefix.size()));
                if (run) break;
            }
        }
        for (size_t i = 0; !run && i < sources.size(); ++i) {  // a bare "ID"
            run = find_compare_run(sources[i], entry);
        }
        ResolvedRun item{entry, nullptr, ""};
        if (run && run->comparable()) {
            item.run = run;
        } else if (run) {
            item.missing = entry + ": " + run->status;
        } else {
            const CompareSourceKind kind =
                sources.empty() ? CompareSourceKind::kRecording : sources.front().kind;
            item.missing = entry + ": not in the " + compare_source_name(kind) + " runs";
        }
        resolved.push_back(std::move(item));
    }
    return resolved;
}

std::vector<std::string> default_compare_runs(const std::vector<CompareSource>& sources) {
    using kernels::Precision;
    const auto counted_rung = [](const CompareRun& run) {
        const kernels::KernelDescriptor* kernel = kernels::find_kernel(run.kernel_id);
        return kernel && kernel->rung > 0 && counted_bench(run);
    };
    // Per precision of the first source with a counted rung: its best rung and its cuBLAS run.
    struct Pick {
        const CompareRun* rung;
        std::string cublas;  // "" when the source has no comparable cuBLAS run for it
    };
    std::vector<Pick> picks;
    const CompareSource* first = nullptr;
    for (const CompareSource& source : sources) {
        const auto found = std::find_if(source.runs.begin(), source.runs.end(), counted_rung);
        if (found == source.runs.end()) continue;
        first = &source;
        const kernels::GemmProblem size = found->problem;
        for (const Precision precision : {Precision::kF16, Precision::kBF16, Precision::kE4M3,
                                          Precision::kTF32, Precision::kF32}) {
            const CompareRun* best = nullptr;
            for (const CompareRun& run : source.runs) {
                if (counted_rung(run) && run.precision == precision &&
                    kernels::same_problem(run.problem, size) &&
                    (!best || run.tflops > best->tflops)) {
                    best = &run;
                }
            }
            if (!best) continue;
            const std::string reference = compare_run_id(best->bench->reference_id, size);
            const CompareRun* cublas = find_compare_run(source, reference);
            const bool has_cublas =
                !best->bench->reference_id.empty() && cublas && cublas->comparable();
            picks.push_back({best, has_cublas ? reference : ""});
        }
        break;
    }
    std::vector<std::string> ids;
    if (sources.size() > 1 && !picks.empty()) {
        // Several sources: the fastest of those rungs and its cuBLAS, from each source.
        picks = {*std::max_element(picks.begin(), picks.end(), [](const Pick& a, const Pick& b) {
            return a.rung->tflops < b.rung->tflops;
        })};
    }
    for (const Pick& pick : picks) {
        ids.push_back(pick.rung->id);
        if (!pick.cublas.empty()) ids.push_back(pick.cublas);
    }
    if (!first || sources.size() < 2) return ids;
    std::vector<std::string> keys;
    for (const std::string& id : ids) keys.push_back(first->key + ":" + id);
    for (const CompareSource& source : sources) {
        if (&source == first) continue;
        for (const std::string& id : ids) {
            const CompareRun* run = find_compare_run(source, id);
            if (run && run->comparable()) keys.push_back(run->key());
        }
    }
    return keys;
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

std::vector<std::string> compare_gpus(const std::vector<const CompareRun*>& runs) {
    std::vector<std::string> gpus;
    for (const CompareRun* run : runs) {
        if (std::find(gpus.begin(), gpus.end(), run->gpu) == gpus.end()) gpus.push_back(run->gpu);
    }
    return gpus;
}

std::vector<const CompareRun*> group_by_gpu(const std::vector<const CompareRun*>& runs) {
    std::vector<const CompareRun*> grouped;
    for (const std::string& gpu : compare_gpus(runs)) {
        for (const CompareRun* run : runs) {
            if (run->gpu == gpu) grouped.push_back(run);
        }
    }
    return grouped;
}

std::vector<viz::CompareColumn> compare_columns(const std::vector<const CompareRun*>& runs) {
    const bool several = several_sources(runs);
    // A source's label names its GPU, unless its runs here ran on more than one.
    const bool gpus_within_a_source = std::any_of(runs.begin(), runs.end(), [&](const auto* a) {
        return std::any_of(runs.begin(), runs.end(), [&](const auto* b) {
            return a->source_key == b->source_key && a->gpu != b->gpu;
        });
    });
    std::vector<viz::CompareColumn> columns;
    for (size_t i = 0; i < runs.size(); ++i) {
        std::string source = several ? runs[i]->source_label : "";
        if (gpus_within_a_source) {
            source = (runs[i]->gpu.empty() ? std::string("unknown GPU") : runs[i]->gpu) +
                     (several ? " | " + runs[i]->source_label : "");
        }
        columns.push_back(
            {runs[i]->kernel_id, kernels::problem_text(runs[i]->problem), int(i), source});
    }
    return columns;
}

std::vector<viz::CompareRow> compare_rows(const std::vector<const CompareRun*>& runs) {
    using viz::Better;
    std::vector<viz::CompareRow> rows;
    rows.push_back(make_row(
        "time (ms)", Better::kLower, runs,
        [](const CompareRun& r) { return counted_bench(r) ? r.bench->result.median_ms : kNan; },
        [](const CompareRun&, double v) { return common::format_text("%.3f", v); }));
    rows.push_back(make_row(
        "TFLOP/s", Better::kHigher, runs,
        [](const CompareRun& r) { return r.tflops > 0 ? r.tflops : kNan; },
        [](const CompareRun& r, double v) {
            return common::format_text("%.1f", v) + (r.tflops_from_profile ? " (profiled)" : "");
        }));
    rows.push_back(make_row(
        "% of cuBLAS", Better::kHigher, runs,
        [](const CompareRun& r) {
            return counted_bench(r) && r.bench->pct_of_reference > 0 ? r.bench->pct_of_reference
                                                                     : kNan;
        },
        [](const CompareRun&, double v) { return common::format_text("%.1f%%", v); }));
    rows.push_back(make_row(
        "% of peak", Better::kHigher, runs,
        [](const CompareRun& r) {
            return counted_bench(r) && r.bench->pct_of_peak > 0 ? r.bench->pct_of_peak : kNan;
        },
        [](const CompareRun&, double v) { return common::format_text("%.1f%%", v); }));
    rows.push_back(make_row(
        "rel. error", Better::kLower, runs,
        [](const CompareRun& r) {
            if (counted_bench(r)) return r.bench->result.check.rel_rms_error;
            const profiling::KernelProfile* profile = verified_profile(r);
            return profile ? profile->check.rel_rms_error : kNan;
        },
        [](const CompareRun&, double v) { return common::format_text("%.1e", v); }));
    rows.push_back(make_row(
        "intensity (FLOP/B)", Better::kNeither, runs,
        [](const CompareRun& r) {
            const double value = run_intensity(r).flop_per_byte;
            return r.comparable() && value > 0 ? value : kNan;
        },
        [](const CompareRun& r, double v) {
            return common::format_text("%.1f", v) + (run_intensity(r).estimated ? " est." : "");
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
            [&unit](const CompareRun&, double v) { return value_without_unit(v, unit); }));
    }
    return rows;
}

viz::Roofline compare_roofline(const std::vector<CompareSource>& sources,
                               const std::vector<const CompareRun*>& runs) {
    // The devices: each source a run comes from, in order of first appearance.
    std::vector<const CompareSource*> devices;
    std::vector<int> device_of_run;
    for (const CompareRun* run : runs) {
        int device = -1;
        for (size_t d = 0; d < devices.size() && device < 0; ++d) {
            if (devices[d]->key == run->source_key) device = int(d);
        }
        if (device < 0) {
            const auto source =
                std::find_if(sources.begin(), sources.end(),
                             [&](const CompareSource& s) { return s.key == run->source_key; });
            if (source != sources.end()) {
                device = int(devices.size());
                devices.push_back(&*source);
            }
        }
        device_of_run.push_back(std::max(device, 0));
    }
    if (devices.empty() && !sources.empty()) devices.push_back(&sources.front());

    viz::Roofline roofline;
    for (size_t d = 0; d < devices.size(); ++d) {
        const CompareSource& source = *devices[d];
        for (const kernels::PeakMeasurement& peak : source.peaks) {
            if (peak.tflops <= 0) continue;  // not measured here (e.g. e4m3 without sm_90a)
            const std::string precision = kernels::precision_name(peak.precision);
            const std::string unit =
                peak.precision == kernels::Precision::kF32 ? " FMA" : " tensor";
            roofline.compute.push_back(
                {precision, precision + unit, peak.tflops, "measured", int(d)});
        }
        roofline.memory.push_back({"DRAM", source.dram_bytes_per_s, source.dram_origin, int(d)});
        roofline.devices.push_back(source.label);
    }
    const bool several = devices.size() > 1;
    for (size_t i = 0; i < runs.size(); ++i) {
        const CompareRun& run = *runs[i];
        const RunIntensity intensity = run_intensity(run);
        const std::string label = run.kernel_id + " " + kernels::problem_text(run.problem) +
                                  (run.tflops_from_profile ? " (profiled)" : "") +
                                  (several ? " on " + run.source_label : "");
        roofline.points.push_back({label, kernels::precision_name(run.precision),
                                   intensity.flop_per_byte, run.tflops, intensity.estimated, int(i),
                                   device_of_run[i]});
    }
    return roofline;
}

}  // namespace tclens::gui
