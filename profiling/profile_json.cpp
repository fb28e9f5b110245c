#include "profiling/profile_json.h"

#include <algorithm>

#include "profiling/json_reader.h"

namespace tclens::profiling {
namespace {

using nlohmann::json;

const char* source_name(MetricSource source) {
    switch (source) {
        case MetricSource::kRangeProfiler:
            return "range_profiler";
        case MetricSource::kPmSampling:
            return "pm_sampling";
        case MetricSource::kLaunch:
            return "launch";
    }
    return "";
}

json triple(const int (&values)[3]) { return json::array({values[0], values[1], values[2]}); }

void read_triple(JsonReader& read, const json& in, const char* key, int (&values)[3]) {
    std::vector<int> parts;
    read(in, key, parts);
    if (read.ok() && parts.size() != 3) read.fail(std::string("'") + key + "' needs 3 numbers");
    if (read.ok()) std::copy(parts.begin(), parts.end(), values);
}

}  // namespace

void write_run_fields(json& out, const std::string& kernel, kernels::Precision precision,
                      const kernels::GemmProblem& problem, const std::string& device,
                      const std::string& chip, const kernels::Verification& check,
                      const ProfilerError& error) {
    out["kernel"] = kernel;
    out["precision"] = kernels::precision_name(precision);
    out["m"] = problem.m;
    out["n"] = problem.n;
    out["k"] = problem.k;
    out["device"] = device;
    out["chip"] = chip;
    out["verified"] = check.passed;
    out["rel_rms_error"] = check.rel_rms_error;
    out["error_bound"] = check.bound;
    out["reference"] = check.reference;
    out["error"] = error.message;
}

void read_run_fields(JsonReader& read, const json& in, std::string& kernel,
                     kernels::Precision& precision, kernels::GemmProblem& problem,
                     std::string& device, std::string& chip, kernels::Verification& check,
                     ProfilerError& error) {
    std::string precision_text;
    std::string error_text;
    read(in, "kernel", kernel);
    read(in, "precision", precision_text);
    read(in, "m", problem.m);
    read(in, "n", problem.n);
    read(in, "k", problem.k);
    read(in, "device", device);
    read(in, "chip", chip);
    read(in, "verified", check.passed);
    read(in, "rel_rms_error", check.rel_rms_error);
    read(in, "error_bound", check.bound);
    read(in, "reference", check.reference);
    read(in, "error", error_text);
    if (read.ok() && !parse_precision(precision_text, precision)) {
        read.fail("unknown precision '" + precision_text + "'");
    }
    error = profiler_error(error_text.empty() ? ProfilerProblem::kNone : ProfilerProblem::kFailed,
                           error_text);
}

json to_json(const KernelProfile& profile) {
    json out;
    write_run_fields(out, profile.kernel_id, profile.precision, profile.problem, profile.device,
                     profile.chip, profile.check, profile.error);
    out["passes"] = profile.passes;
    out["l2_flushed"] = profile.l2_flushed;
    out["per_kernel_range"] = profile.per_kernel_range;
    out["prepare_ms"] = profile.prepare_ms;
    out["profile_ms"] = profile.profile_ms;
    json metrics = json::array();
    for (const MetricValue& metric : profile.metrics) {
        metrics.push_back({{"name", metric.name},
                           {"label", metric.label},
                           {"unit", metric.unit},
                           {"value", metric.value}});
    }
    out["metrics"] = metrics;
    json unavailable = json::array();
    for (const UnavailableMetric& metric : profile.unavailable) {
        unavailable.push_back({{"name", metric.name}, {"reason", metric.reason}});
    }
    out["unavailable"] = unavailable;
    json launches = json::array();
    for (const KernelLaunch& launch : profile.launches) {
        launches.push_back({{"name", launch.name},
                            {"grid", triple(launch.grid)},
                            {"block", triple(launch.block)},
                            {"registers_per_thread", launch.registers_per_thread},
                            {"static_shared_bytes", launch.static_shared_bytes},
                            {"dynamic_shared_bytes", launch.dynamic_shared_bytes},
                            {"local_bytes_per_thread", launch.local_bytes_per_thread},
                            {"shared_carveout_bytes", launch.shared_carveout_bytes},
                            {"duration_ns", launch.duration_ns}});
    }
    out["launches"] = launches;
    const Occupancy& o = profile.occupancy;
    out["occupancy"] =
        profile.launches.empty()
            ? json(nullptr)
            : json{{"blocks_per_sm", o.blocks_per_sm},     {"limiter", o.limiter},
                   {"limit_registers", o.limit_registers}, {"limit_shared_mem", o.limit_shared_mem},
                   {"limit_warps", o.limit_warps},         {"limit_blocks", o.limit_blocks},
                   {"theoretical_pct", o.theoretical_pct}};
    out["launch_error"] = profile.launch_error;
    return out;
}

json to_json(const KernelTimeline& timeline) {
    json out;
    write_run_fields(out, timeline.kernel_id, timeline.precision, timeline.problem, timeline.device,
                     timeline.chip, timeline.check, timeline.error);
    out["metrics"] = timeline.metrics;
    json info = json::array();
    for (const std::string& name : timeline.metrics) {
        const MetricInfo* known = find_metric(name);
        info.push_back({{"name", name},
                        {"label", known ? known->label : name},
                        {"unit", known ? known->unit : ""}});
    }
    out["metric_info"] = info;
    out["trigger"] = pm_trigger_name(timeline.trigger);
    out["interval_ns"] = timeline.interval_ns;
    out["measured_interval_ns"] = timeline.measured_interval_ns;
    out["lost"] = timeline.lost;
    out["dropped"] = timeline.dropped;
    out["overflow"] = timeline.overflow;
    out["launches"] = timeline.launches;
    out["kernel_ms_alone"] = timeline.kernel_ms_alone;
    out["kernel_ms_sampled"] = timeline.kernel_ms_sampled;
    out["overhead_pct"] = timeline.overhead_pct();
    out["prepare_ms"] = timeline.prepare_ms;
    out["run_ms"] = timeline.run_ms;
    json samples = json::array();
    const std::uint64_t first = timeline.samples.empty() ? 0 : timeline.samples.front().start_ns;
    for (const PmSample& sample : timeline.samples) {
        samples.push_back({{"t_ns", sample.start_ns - first},
                           {"start_ns", sample.start_ns},
                           {"end_ns", sample.end_ns},
                           {"values", sample.values}});
    }
    out["samples"] = samples;
    return out;
}

json to_json(const MetricInfo& info) {
    return {{"name", info.name},
            {"label", info.label},
            {"unit", info.unit},
            {"meaning", info.meaning},
            {"source", source_name(info.source)},
            {"default", info.in_default_set},
            {"timeline", info.in_timeline_set}};
}

bool kernel_profile_from_json(const json& in, KernelProfile& profile, std::string& error) {
    error.clear();
    JsonReader read(error);
    KernelProfile out;
    read_run_fields(read, in, out.kernel_id, out.precision, out.problem, out.device, out.chip,
                    out.check, out.error);
    read(in, "passes", out.passes);
    read(in, "l2_flushed", out.l2_flushed);
    // Absent from files written before it existed (all of them user ranges).
    if (in.is_object() && in.contains("per_kernel_range")) {
        read(in, "per_kernel_range", out.per_kernel_range);
    }
    read(in, "prepare_ms", out.prepare_ms);
    read(in, "profile_ms", out.profile_ms);
    read.array(in, "metrics", [&](const json& m) {
        MetricValue metric;
        read(m, "name", metric.name);
        read(m, "label", metric.label);
        read(m, "unit", metric.unit);
        read(m, "value", metric.value);
        out.metrics.push_back(metric);
    });
    read.array(in, "unavailable", [&](const json& m) {
        UnavailableMetric metric;
        read(m, "name", metric.name);
        read(m, "reason", metric.reason);
        out.unavailable.push_back(metric);
    });
    read.array(in, "launches", [&](const json& l) {
        KernelLaunch launch;
        read(l, "name", launch.name);
        read_triple(read, l, "grid", launch.grid);
        read_triple(read, l, "block", launch.block);
        read(l, "registers_per_thread", launch.registers_per_thread);
        read(l, "static_shared_bytes", launch.static_shared_bytes);
        read(l, "dynamic_shared_bytes", launch.dynamic_shared_bytes);
        read(l, "local_bytes_per_thread", launch.local_bytes_per_thread);
        read(l, "shared_carveout_bytes", launch.shared_carveout_bytes);
        read(l, "duration_ns", launch.duration_ns);
        out.launches.push_back(launch);
    });
    if (read.ok() && in.contains("occupancy") && !in.at("occupancy").is_null()) {
        const json& o = in.at("occupancy");
        read(o, "blocks_per_sm", out.occupancy.blocks_per_sm);
        read(o, "limiter", out.occupancy.limiter);
        read(o, "limit_registers", out.occupancy.limit_registers);
        read(o, "limit_shared_mem", out.occupancy.limit_shared_mem);
        read(o, "limit_warps", out.occupancy.limit_warps);
        read(o, "limit_blocks", out.occupancy.limit_blocks);
        read(o, "theoretical_pct", out.occupancy.theoretical_pct);
    }
    read(in, "launch_error", out.launch_error);
    if (!read.ok()) return false;
    profile = std::move(out);
    return true;
}

bool kernel_timeline_from_json(const json& in, KernelTimeline& timeline, std::string& error) {
    error.clear();
    JsonReader read(error);
    KernelTimeline out;
    read_run_fields(read, in, out.kernel_id, out.precision, out.problem, out.device, out.chip,
                    out.check, out.error);
    read(in, "metrics", out.metrics);
    std::string trigger;
    read(in, "trigger", trigger);
    if (read.ok() && trigger != pm_trigger_name(PmTrigger::kGpuTime) &&
        trigger != pm_trigger_name(PmTrigger::kSysClock)) {
        read.fail("unknown trigger '" + trigger + "'");
    }
    out.trigger = trigger == pm_trigger_name(PmTrigger::kSysClock) ? PmTrigger::kSysClock
                                                                   : PmTrigger::kGpuTime;
    read(in, "interval_ns", out.interval_ns);
    read(in, "measured_interval_ns", out.measured_interval_ns);
    read(in, "lost", out.lost);
    read(in, "dropped", out.dropped);
    read(in, "overflow", out.overflow);
    read(in, "launches", out.launches);
    read(in, "kernel_ms_alone", out.kernel_ms_alone);
    read(in, "kernel_ms_sampled", out.kernel_ms_sampled);
    read(in, "prepare_ms", out.prepare_ms);
    read(in, "run_ms", out.run_ms);
    std::uint64_t sequence = 0;
    read.array(in, "samples", [&](const json& s) {
        PmSample sample;
        sample.sequence = sequence++;
        read(s, "start_ns", sample.start_ns);
        read(s, "end_ns", sample.end_ns);
        read(s, "values", sample.values);
        if (read.ok() && sample.values.size() != out.metrics.size()) {
            read.fail("a sample has " + std::to_string(sample.values.size()) + " values for " +
                      std::to_string(out.metrics.size()) + " metrics");
        }
        out.samples.push_back(sample);
    });
    if (!read.ok()) return false;
    timeline = std::move(out);
    return true;
}

}  // namespace tclens::profiling
