#pragma once
// Internal to profiling/: the set-up every CUPTI counter profiler of tclens (the range profiler,
// the PM sampler) does once per device before it configures any metric, and the metric checks it
// answers from then on. Include it only from .cpp files of profiling/ (it pulls in CUPTI).
//
// open() runs, once: CUDA on the device (its primary context current, detail::start_cuda),
// CUPTI's profiler initialisation (detail::CuptiProfilerUse), the chip name, then the profiler's
// own steps, which read the counter availability image (each profiler has its own query) and
// whatever else it needs. The first answer is kept: later calls return it without a CUDA or
// CUPTI call.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "profiling/cupti_call.h"
#include "profiling/open_once.h"
#include "profiling/range_profiler.h"

namespace tclens::profiling::detail {

class ChipCounters {
  public:
    // `rejection` completes the line of a metric the chip rejects: "metric NAME <rejection>
    // CHIP: CUPTI's reason", e.g. "is not available on", "cannot be PM-sampled on".
    ChipCounters(CUpti_ProfilerType type, int device, std::string rejection);

    // The first call runs the set-up above with `own_steps` last, and hands its error to
    // `explain` (when given) before keeping it. Errors: start_cuda's, CUPTI's, own_steps'.
    ProfilerError open(const std::function<ProfilerError()>& own_steps,
                       const std::function<ProfilerError(ProfilerError)>& explain = {});
    bool opened() const { return once_.opened(); }

    // One check per name, in order: accepted, or why not. `opened` is what open() returned:
    // when it failed, every check carries its message. Asked on a fresh host object per name
    // (detail::check_one_metric) and cached: the chip's metrics do not change.
    std::vector<MetricCheck> check_metrics(const ProfilerError& opened,
                                           const std::vector<std::string>& metrics);

    // The names of the checks that were not accepted, ", "-separated; "" when all were.
    static std::string rejected_names(const std::vector<MetricCheck>& checks);

    int device() const { return device_; }
    const std::string& chip() const { return chip_; }
    // The counter availability image; own_steps fills it.
    std::vector<std::uint8_t>& availability() { return availability_; }
    const std::vector<std::uint8_t>& availability() const { return availability_; }

  private:
    CUpti_ProfilerType type_;
    int device_;
    std::string rejection_;
    OpenOnce once_;
    std::unique_ptr<CuptiProfilerUse> cupti_;
    std::string chip_;
    std::vector<std::uint8_t> availability_;
    std::map<std::string, MetricCheck> checked_;
};

// Reads a counter availability image the way both CUPTI queries work: once for its size, once
// for the bytes. `params` is the query's parameter struct, set up but for the image fields;
// `query` the CUPTI function; `call` names it in errors.
template <typename Params, typename Query>
ProfilerError read_availability(Params params, Query query, const char* call,
                                std::vector<std::uint8_t>& image) {
    ProfilerError error = from_cupti(query(&params), call);
    if (!error.ok()) return error;
    image.assign(params.counterAvailabilityImageSize, 0);
    params.pCounterAvailabilityImage = image.data();
    return from_cupti(query(&params), call);
}

// The values of `names` in range (or sample) `index` of a decoded counter data image, evaluated
// by `host` (which configured those names) into values[0 .. names.size() - 1].
ProfilerError evaluate_metrics(const HostObject& host, std::vector<std::uint8_t>& counter_data,
                               std::size_t index, const std::vector<const char*>& names,
                               double* values);

}  // namespace tclens::profiling::detail
