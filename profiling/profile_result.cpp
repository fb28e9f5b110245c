#include "profiling/profile_result.h"

namespace tclens::profiling {

const MetricValue* KernelProfile::find(const std::string& name) const {
    for (const MetricValue& metric : metrics) {
        if (metric.name == name) return &metric;
    }
    return nullptr;
}

double KernelTimeline::overhead_pct() const {
    if (kernel_ms_alone <= 0 || kernel_ms_sampled <= 0) return 0;
    return 100.0 * (kernel_ms_sampled / kernel_ms_alone - 1.0);
}

}  // namespace tclens::profiling
