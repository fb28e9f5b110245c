#include "profiling/source/sass_metrics.h"

#include <cupti_sass_metrics.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <utility>

#include "common/elapsed.h"
#include "common/text.h"
#include "profiling/cupti_call.h"
#include "profiling/open_once.h"
#include "profiling/source/per_pc.h"

namespace tclens::profiling {
namespace {

using detail::from_cuda;
using detail::from_cupti;

// The SASS metrics configuration of each device, set once per process and kept: CUPTI 13.0 answers
// a second cuptiSassMetricsSetConfig on a device with CUPTI_ERROR_OUT_OF_MEMORY even after
// cuptiSassMetricsUnsetConfig (measured on an H200: the second source profile of one worker had
// no counts, tests/gpu/results/2026-11-29_h200_session15/). A collection with the same metrics
// reuses the configuration; another set is unset and set (which may fail that way: one line).
ProfilerError configure_device(std::uint32_t device,
                               std::vector<CUpti_SassMetrics_Config>& configs) {
    static std::mutex mutex;
    static std::map<std::uint32_t, std::vector<std::uint64_t>> configured;  // device -> metric ids
    std::vector<std::uint64_t> ids;
    for (const CUpti_SassMetrics_Config& config : configs) ids.push_back(config.metricId);
    std::lock_guard<std::mutex> lock(mutex);
    const auto found = configured.find(device);
    if (found != configured.end()) {
        if (found->second == ids) return ProfilerError{};
        auto unset = TCLENS_PARAMS(CUpti_SassMetricsUnsetConfig_Params);
        unset.deviceIndex = device;
        cuptiSassMetricsUnsetConfig(&unset);
        configured.erase(found);
    }
    auto params = TCLENS_PARAMS(CUpti_SassMetricsSetConfig_Params);
    params.numOfMetricConfig = configs.size();
    params.pConfigs = configs.data();
    params.deviceIndex = device;
    TCLENS_CUPTI(cuptiSassMetricsSetConfig(&params));
    configured[device] = ids;
    return ProfilerError{};
}

// Enable on a context, Disable when it goes out of scope unless disable() ran.
class EnabledContext {
  public:
    explicit EnabledContext(CUcontext context) : context_(context) {}
    ~EnabledContext() {
        std::uint64_t dropped = 0;
        disable(dropped);
    }
    EnabledContext(const EnabledContext&) = delete;
    EnabledContext& operator=(const EnabledContext&) = delete;

    ProfilerError enable() {
        auto params = TCLENS_PARAMS(CUpti_SassMetricsEnable_Params);
        params.ctx = context_;
        params.enableLazyPatching = 1;  // patch only what the workload launches
        TCLENS_CUPTI(cuptiSassMetricsEnable(&params));
        enabled_ = true;
        return ProfilerError{};
    }
    ProfilerError disable(std::uint64_t& dropped) {
        if (!enabled_) return ProfilerError{};
        enabled_ = false;
        auto params = TCLENS_PARAMS(CUpti_SassMetricsDisable_Params);
        params.ctx = context_;
        TCLENS_CUPTI(cuptiSassMetricsDisable(&params));
        dropped = params.numOfDroppedRecords;
        return ProfilerError{};
    }

  private:
    CUcontext context_ = nullptr;
    bool enabled_ = false;
};

}  // namespace

struct SassMetricsCollector::State {
    int device = 0;
    detail::OpenOnce once;
    std::unique_ptr<detail::CuptiProfilerUse> cupti;
    CUcontext context = nullptr;
    std::string chip;
    std::vector<std::string> available;

    ProfilerError open_once();
    ProfilerError metric_id(const std::string& name, std::uint64_t& id) const;
};

ProfilerError SassMetricsCollector::State::open_once() {
    ProfilerError error = detail::start_cuda(device);
    CUdevice cu_device = 0;
    if (error.ok()) error = detail::current_context(context, cu_device);
    if (error.ok()) error = detail::CuptiProfilerUse::acquire(cupti);
    if (error.ok()) error = detail::chip_name(device, chip);
    if (!error.ok()) return error;

    auto number = TCLENS_PARAMS(CUpti_SassMetrics_GetNumOfMetrics_Params);
    number.pChipName = chip.c_str();
    TCLENS_CUPTI(cuptiSassMetricsGetNumOfMetrics(&number));
    std::vector<CUpti_SassMetrics_MetricDetails> details(number.numOfMetrics);
    auto list = TCLENS_PARAMS(CUpti_SassMetrics_GetMetrics_Params);
    list.pChipName = chip.c_str();
    list.numOfMetrics = details.size();
    list.pMetricsList = details.data();
    TCLENS_CUPTI(cuptiSassMetricsGetMetrics(&list));
    for (const CUpti_SassMetrics_MetricDetails& metric : details) {
        if (metric.pMetricName != nullptr) available.emplace_back(metric.pMetricName);
    }
    std::sort(available.begin(), available.end());
    available.erase(std::unique(available.begin(), available.end()), available.end());
    if (available.empty()) {
        return profiler_error(ProfilerProblem::kUnsupported,
                              "cuptiSassMetricsGetMetrics: " + chip +
                                  " lists no SASS metrics, so per-instruction counts are "
                                  "unavailable on this GPU");
    }
    return ProfilerError{};
}

ProfilerError SassMetricsCollector::State::metric_id(const std::string& name,
                                                     std::uint64_t& id) const {
    auto properties = TCLENS_PARAMS(CUpti_SassMetrics_GetProperties_Params);
    properties.pChipName = chip.c_str();
    properties.pMetricName = name.c_str();
    TCLENS_CUPTI(cuptiSassMetricsGetProperties(&properties));
    id = properties.metric.metricId;
    return ProfilerError{};
}

SassMetricsCollector::SassMetricsCollector(int device) : state_(std::make_unique<State>()) {
    state_->device = device;
}

SassMetricsCollector::~SassMetricsCollector() = default;

ProfilerError SassMetricsCollector::open() {
    return state_->once.open([this] { return state_->open_once(); },
                             [this] { state_->available.clear(); });
}

const std::vector<std::string>& SassMetricsCollector::available_metrics() const {
    return state_->available;
}

const std::string& SassMetricsCollector::chip_name() const { return state_->chip; }

SassMetricsResult SassMetricsCollector::collect(const std::vector<std::string>& metrics,
                                                const Workload& workload) {
    SassMetricsResult result;
    result.metrics = metrics;
    auto run = [&]() -> ProfilerError {
        ProfilerError error = open();
        if (!error.ok()) return error;
        if (metrics.empty()) {
            return profiler_error(ProfilerProblem::kFailed, "no SASS metrics to collect");
        }
        std::vector<std::string> rejected;
        for (const std::string& name : metrics) {
            if (!std::binary_search(state_->available.begin(), state_->available.end(), name)) {
                rejected.push_back(name);
            }
        }
        if (!rejected.empty()) {
            return profiler_error(ProfilerProblem::kBadMetric, "CUPTI lists no SASS metric(s) " +
                                                                   common::join(rejected, ", ") +
                                                                   " on " + state_->chip);
        }
        std::vector<CUpti_SassMetrics_Config> configs;
        std::map<std::uint64_t, std::size_t> position_of;  // metric id -> position in `metrics`
        for (std::size_t i = 0; i < metrics.size(); ++i) {
            CUpti_SassMetrics_Config config{};
            error = state_->metric_id(metrics[i], config.metricId);
            if (!error.ok()) return error;
            config.outputGranularity = CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU;
            configs.push_back(config);
            position_of[config.metricId] = i;
        }
        error = from_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize before SASS metrics");
        if (!error.ok()) return error;
        const auto started = std::chrono::steady_clock::now();
        error = configure_device(static_cast<std::uint32_t>(state_->device), configs);
        if (!error.ok()) return error;
        EnabledContext enabled(state_->context);
        error = enabled.enable();
        if (!error.ok()) return error;

        const std::string failure = detail::run_workload(workload);
        if (!failure.empty()) {
            return profiler_error(ProfilerProblem::kFailed,
                                  "the workload under SASS metrics failed: " + failure);
        }

        auto properties = TCLENS_PARAMS(CUpti_SassMetricsGetDataProperties_Params);
        properties.ctx = state_->context;
        TCLENS_CUPTI(cuptiSassMetricsGetDataProperties(&properties));
        const std::size_t record_count = properties.numOfPatchedInstructionRecords;
        const std::size_t instances = properties.numOfInstances;
        detail::ValuesByPc by_pc;
        if (record_count > 0 && instances > 0) {
            std::vector<CUpti_SassMetrics_InstanceValue> values(record_count * instances);
            std::vector<CUpti_SassMetrics_Data> data(record_count);
            for (std::size_t i = 0; i < record_count; ++i) {
                data[i].structSize = sizeof(CUpti_SassMetrics_Data);
                data[i].pInstanceValues = values.data() + i * instances;
            }
            auto flush = TCLENS_PARAMS(CUpti_SassMetricsFlushData_Params);
            flush.ctx = state_->context;
            flush.numOfPatchedInstructionRecords = record_count;
            flush.numOfInstances = instances;
            flush.pMetricsData = data.data();
            TCLENS_CUPTI(cuptiSassMetricsFlushData(&flush));
            // A record holds `instances` values, each tagged with its metric: with GPU granularity
            // that is one value per metric or per (metric, record); summing by tag handles both.
            for (const CUpti_SassMetrics_Data& record : data) {
                const std::string function = record.functionName ? record.functionName : "";
                std::vector<std::uint64_t>& sums = by_pc[{function, record.pcOffset}];
                sums.resize(metrics.size(), 0);
                for (std::size_t v = 0; v < instances; ++v) {
                    const auto position = position_of.find(record.pInstanceValues[v].metricId);
                    if (position != position_of.end()) {
                        sums[position->second] += record.pInstanceValues[v].value;
                    }
                }
            }
        }
        std::uint64_t dropped = 0;
        error = enabled.disable(dropped);
        if (!error.ok()) return error;
        result.records = detail::records_by_pc<SassMetricRecord>(by_pc);
        result.collect_ms = common::ms_since(started);
        result.dropped_records = dropped;
        return ProfilerError{};
    };
    result.error = run();  // records only when it succeeded
    return result;
}

}  // namespace tclens::profiling
