#include "profiling/bank_measure.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "profiling/range_profiler.h"

namespace tclens::profiling {
namespace {

using kernels::SharedAccessKind;

// Reports profiled together in one session: 2 ranges each. Keeps the counter data image small.
constexpr std::size_t kReportsPerSession = 32;

bool starts_with(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

bool ends_with(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

ProfilerError no_gpu_error() {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status == cudaSuccess && count > 0) {
        return ProfilerError{};
    }
    cudaGetLastError();
    return profiler_error(
        ProfilerProblem::kNoGpu,
        std::string("measuring needs an NVIDIA GPU and none is usable (") +
            (status == cudaSuccess ? "no CUDA device" : cudaGetErrorString(status)) +
            "); check nvidia-smi and CUDA_VISIBLE_DEVICES");
}

// Measures reports[first, first + count) whose probes prepared; fills their results.
void measure_session(RangeProfiler& profiler, const std::vector<viz::BankReport>& reports,
                     std::size_t first, std::size_t count, int iterations,
                     const std::map<SharedAccessKind, bool>& instruction_ok,
                     const std::set<SharedAccessKind>& wavefront_ok,
                     std::vector<BankMeasurement>& results) {
    std::vector<std::unique_ptr<kernels::BankProbe>> probes;
    std::vector<std::size_t> measured;  // report indices with a prepared probe, in launch order
    std::set<std::string> metric_set;
    for (std::size_t index = first; index < first + count; ++index) {
        BankMeasurement& result = results[index];
        const kernels::BankProbeSpec spec = bank_probe_spec(reports[index]);
        if (result.wavefront_metric.empty()) {
            result.error = profiler_error(ProfilerProblem::kUnsupported, kCpAsyncNotMeasurable);
            continue;
        }
        if (wavefront_ok.count(spec.kind) == 0) {
            result.error = profiler_error(ProfilerProblem::kBadMetric,
                                          "CUPTI does not accept " + result.wavefront_metric +
                                              " on " + profiler.chip_name() +
                                              ", so this access cannot be measured here");
            continue;
        }
        auto probe = std::make_unique<kernels::BankProbe>();
        const std::string failure = probe->prepare(spec);
        if (!failure.empty()) {
            result.error =
                profiler_error(probe->too_much_shared_memory() ? ProfilerProblem::kInvalidRequest
                                                               : ProfilerProblem::kFailed,
                               failure);
            continue;
        }
        metric_set.insert(result.wavefront_metric);
        if (instruction_ok.at(spec.kind)) {
            metric_set.insert(result.instruction_metric);
        } else {
            result.instruction_metric.clear();
        }
        probes.push_back(std::move(probe));
        measured.push_back(index);
    }
    if (probes.empty()) {
        return;
    }

    const std::vector<std::string> metrics(metric_set.begin(), metric_set.end());
    const Workload workload = [&probes, iterations]() -> std::string {
        for (const auto& probe : probes) {
            for (const int launch_iterations : {0, iterations}) {
                const std::string failure = probe->run(launch_iterations);
                if (!failure.empty()) {
                    return failure;
                }
            }
        }
        return "";
    };
    const int ranges = static_cast<int>(2 * probes.size());
    RangeProfileRequest request;
    request.metrics = metrics;
    request.workload = workload;
    request.mode = RangeMode::kPerKernel;
    request.max_ranges = ranges;
    const ProfileResult profile = profiler.profile(request);
    ProfilerError error = profile.error;
    if (error.ok() && profile.ranges.size() != static_cast<std::size_t>(ranges)) {
        error = profiler_error(ProfilerProblem::kFailed,
                               "expected " + std::to_string(ranges) +
                                   " profiled kernel launches, "
                                   "got " +
                                   std::to_string(profile.ranges.size()) + " (" +
                                   std::to_string(profile.dropped_ranges) + " dropped)");
    }
    for (std::size_t slot = 0; slot < measured.size(); ++slot) {
        BankMeasurement& result = results[measured[slot]];
        result.passes = profile.passes;
        if (!error.ok()) {
            result.error = error;
            continue;
        }
        const std::map<std::string, double>& baseline = profile.ranges[2 * slot].metrics;
        const std::map<std::string, double>& run = profile.ranges[2 * slot + 1].metrics;
        result.baseline_wavefronts = baseline.at(result.wavefront_metric);
        result.run_wavefronts = run.at(result.wavefront_metric);
        result.wavefronts_per_request = (result.run_wavefronts - result.baseline_wavefronts) /
                                        (static_cast<double>(iterations) * result.requests);

        if (!result.instruction_metric.empty()) {
            result.instructions_per_iteration =
                (run.at(result.instruction_metric) - baseline.at(result.instruction_metric)) /
                iterations;
        }
    }
}

}  // namespace

kernels::BankProbeSpec bank_probe_spec(const viz::BankReport& report) {
    const viz::Pattern& pattern = report.pattern;
    kernels::BankProbeSpec spec;
    spec.access_bytes = pattern.access_bytes;
    if (pattern.mapping == viz::LaneMapping::kLdmatrix) {
        spec.kind = SharedAccessKind::kLdmatrix;
        spec.matrices = std::max(1, pattern.active_lanes / 8);
        spec.transposed = ends_with(pattern.name, ".trans");
    } else if (starts_with(pattern.name, "cp.async")) {
        spec.kind = SharedAccessKind::kCpAsync;
    } else {
        spec.kind = pattern.is_store ? SharedAccessKind::kStore : SharedAccessKind::kLoad;
    }
    spec.smem_bytes = viz::storage_bytes(report.swizzle, report.tile);
    for (const viz::RequestReport& request : report.requests) {
        kernels::BankProbeRequest probe_request;
        probe_request.active_lanes = 0;
        for (const viz::LaneBanks& lane : request.lanes) {
            probe_request.byte_addr[lane.lane] = static_cast<std::uint32_t>(lane.byte_addr);
            probe_request.active_lanes |= 1u << lane.lane;
        }
        spec.requests.push_back(probe_request);
    }
    return spec;
}

std::string wavefront_metric(SharedAccessKind kind) {
    switch (kind) {
        case SharedAccessKind::kLoad:
        case SharedAccessKind::kLdmatrix:
            return "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
        case SharedAccessKind::kStore:
            return "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
        case SharedAccessKind::kCpAsync:
            return "";  // no counter sees it: kCpAsyncNotMeasurable
    }
    return "";
}

std::string instruction_metric(SharedAccessKind kind) {
    switch (kind) {
        case SharedAccessKind::kLoad:
            return "smsp__inst_executed_op_shared_ld.sum";
        case SharedAccessKind::kLdmatrix:
            return "smsp__inst_executed_op_ldsm.sum";
        case SharedAccessKind::kStore:
            return "smsp__inst_executed_op_shared_st.sum";
        case SharedAccessKind::kCpAsync:
            return "smsp__inst_executed_op_ldgsts.sum";
    }
    return "";
}

std::vector<BankMeasurement> measure_bank_reports(const std::vector<viz::BankReport>& reports,
                                                  int iterations) {
    std::vector<BankMeasurement> results(reports.size());
    std::set<SharedAccessKind> kinds;
    for (std::size_t index = 0; index < reports.size(); ++index) {
        const SharedAccessKind kind = bank_probe_spec(reports[index]).kind;
        kinds.insert(kind);
        results[index].iterations = iterations;
        results[index].requests = static_cast<int>(reports[index].requests.size());
        results[index].wavefront_metric = wavefront_metric(kind);
        results[index].instruction_metric = instruction_metric(kind);
    }
    auto fail_all = [&results](const ProfilerError& error) {
        for (BankMeasurement& result : results) {
            result.error = error;
        }
        return results;
    };
    if (reports.empty()) {
        return results;
    }
    if (iterations < 1) {
        return fail_all(
            profiler_error(ProfilerProblem::kInvalidRequest,
                           "iterations must be at least 1, not " + std::to_string(iterations)));
    }
    const ProfilerError gpu = no_gpu_error();
    if (!gpu.ok()) {
        return fail_all(gpu);
    }
    RangeProfiler profiler(0);
    const ProfilerError opened = profiler.open();
    if (!opened.ok()) {
        return fail_all(opened);
    }

    // Which counters this chip has, asked once for every kind in use.
    std::vector<std::string> candidates;
    for (const SharedAccessKind kind : kinds) {
        if (wavefront_metric(kind).empty()) continue;
        candidates.push_back(wavefront_metric(kind));
        candidates.push_back(instruction_metric(kind));
    }
    std::map<std::string, bool> accepted;
    for (const MetricCheck& check : profiler.check_metrics(candidates)) {
        accepted[check.name] = check.accepted;
    }
    std::map<SharedAccessKind, bool> instruction_ok;
    std::set<SharedAccessKind> wavefront_ok;
    for (const SharedAccessKind kind : kinds) {
        instruction_ok[kind] = accepted[instruction_metric(kind)];
        if (accepted[wavefront_metric(kind)]) {
            wavefront_ok.insert(kind);
        }
    }

    for (std::size_t first = 0; first < reports.size(); first += kReportsPerSession) {
        const std::size_t count = std::min(kReportsPerSession, reports.size() - first);
        measure_session(profiler, reports, first, count, iterations, instruction_ok, wavefront_ok,
                        results);
    }
    return results;
}

BankMeasurement measure_bank_report(const viz::BankReport& report, int iterations) {
    return measure_bank_reports({report}, iterations).front();
}

}  // namespace tclens::profiling
