#include "profiling/chip_counters.h"

#include <utility>

#include "common/text.h"

namespace tclens::profiling::detail {

ChipCounters::ChipCounters(CUpti_ProfilerType type, int device, std::string rejection)
    : type_(type), device_(device), rejection_(std::move(rejection)) {}

ProfilerError ChipCounters::open(const std::function<ProfilerError()>& own_steps,
                                 const std::function<ProfilerError(ProfilerError)>& explain) {
    return once_.open([&] {
        ProfilerError error = start_cuda(device_);
        if (error.ok()) error = CuptiProfilerUse::acquire(cupti_);
        if (error.ok()) error = chip_name(device_, chip_);
        if (error.ok()) error = own_steps();
        if (explain) error = explain(error);
        return error;
    });
}

std::vector<MetricCheck> ChipCounters::check_metrics(const ProfilerError& opened,
                                                     const std::vector<std::string>& metrics) {
    std::vector<MetricCheck> checks;
    for (const std::string& name : metrics) {
        MetricCheck check;
        check.name = name;
        if (!opened.ok()) {
            check.reason = opened.message;
        } else if (const auto cached = checked_.find(name); cached != checked_.end()) {
            check = cached->second;
        } else {
            const ProfilerError error = check_one_metric(type_, chip_, availability_, name);
            check.accepted = error.ok();
            if (!check.accepted) {
                check.reason =
                    "metric " + name + " " + rejection_ + " " + chip_ + ": " + error.message;
            }
            if (check.accepted || error.problem == ProfilerProblem::kBadMetric) {
                checked_[name] = check;  // an answer about the metric, not a passing failure
            }
        }
        checks.push_back(check);
    }
    return checks;
}

std::string ChipCounters::rejected_names(const std::vector<MetricCheck>& checks) {
    std::vector<std::string> rejected;
    for (const MetricCheck& check : checks) {
        if (!check.accepted) rejected.push_back(check.name);
    }
    return common::join(rejected, ", ");
}

ProfilerError evaluate_metrics(const HostObject& host, std::vector<std::uint8_t>& counter_data,
                               std::size_t index, const std::vector<const char*>& names,
                               double* values) {
    auto evaluate = TCLENS_PARAMS(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
    evaluate.pHostObject = host.get();
    evaluate.pCounterDataImage = counter_data.data();
    evaluate.counterDataImageSize = counter_data.size();
    evaluate.rangeIndex = index;
    evaluate.ppMetricNames = const_cast<const char**>(names.data());
    evaluate.numMetrics = names.size();
    evaluate.pMetricValues = values;
    TCLENS_CUPTI(cuptiProfilerHostEvaluateToGpuValues(&evaluate));
    return ProfilerError{};
}

}  // namespace tclens::profiling::detail
