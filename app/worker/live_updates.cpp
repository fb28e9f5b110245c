#include "app/worker/live_updates.h"

#include <cmath>
#include <limits>

#include "app/worker/requests.h"
#include "app/worker/strict_fields.h"
#include "profiling/profile_json.h"

namespace tclens::worker {
namespace {

constexpr std::size_t kMaxSampleMetrics = 256;
constexpr std::size_t kMaxSampleMetricBytes = 256;
constexpr std::size_t kMaxKernelErrorBytes = 64 * 1024;
constexpr std::uint64_t kMaxLiveCount = std::uint64_t{1} << 53;

nlohmann::json sample_json(const profiling::PmSample& sample) {
    nlohmann::json values = nlohmann::json::array();
    for (const double value : sample.values) {
        values.push_back(std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr));
    }
    return {{"start_ns", sample.start_ns}, {"end_ns", sample.end_ns}, {"values", values}};
}

// One sample of `metric_count` values; "" or why not.
std::string read_sample(const nlohmann::json& json, std::size_t metric_count,
                        profiling::PmSample& sample) {
    StrictFields f(json, "sample");
    // The GPU's own clock (%globaltimer, ns since an epoch: 1.8e18 on an H200), past 2^53.
    f.whole("start_ns", sample.start_ns, true, std::numeric_limits<std::uint64_t>::max());
    f.whole("end_ns", sample.end_ns, true, std::numeric_limits<std::uint64_t>::max());
    f.known("values");
    f.finish();
    if (!f.ok()) return f.error();
    const auto values = json.find("values");
    if (values == json.end() || !values->is_array() || values->size() != metric_count) {
        return "sample: field 'values' must be an array of " + std::to_string(metric_count) +
               " numbers (one per metric), got " +
               (values == json.end() ? std::string("none") : shown_value(*values));
    }
    for (const nlohmann::json& value : *values) {
        if (!value.is_number() && !value.is_null())
            return "sample: a value must be a number or null, got " + shown_value(value);
        sample.values.push_back(value.is_null() ? std::numeric_limits<double>::quiet_NaN()
                                                : value.get<double>());
    }
    return "";
}

}  // namespace

nlohmann::json to_json(const LiveUpdate& update) {
    switch (update.kind) {
        case LiveUpdate::Kind::kProfile:
            return {{"kernel", update.kernel}, {"profile", profiling::to_json(update.profile)}};
        case LiveUpdate::Kind::kKernelError:
            return {{"kernel", update.kernel},
                    {"kind", error_kind_name(update.error_kind)},
                    {"error", update.error}};
        case LiveUpdate::Kind::kSamples: {
            nlohmann::json samples = nlohmann::json::array();
            for (const profiling::PmSample& sample : update.samples)
                samples.push_back(sample_json(sample));
            return {{"metrics", update.metrics}, {"samples", samples}};
        }
    }
    return nlohmann::json::object();
}

nlohmann::json to_json(const LiveProfileResult& result) {
    return {{"updates", result.updates},
            {"stopped", result.stopped},
            {"timeline", result.timeline ? profiling::to_json(*result.timeline) : nullptr}};
}

bool live_update_from_json(const nlohmann::json& json, LiveUpdate& update, std::string& error) {
    LiveUpdate out;
    StrictFields f(json, "live update");
    const bool samples = json.is_object() && json.contains("samples");
    if (samples) {
        out.kind = LiveUpdate::Kind::kSamples;
        f.texts("metrics", out.metrics, true, 1, kMaxSampleMetrics, kMaxSampleMetricBytes);
        f.known("samples");
        f.finish();
        if (!f.ok()) return refuse(error, f.error());
        const nlohmann::json& list = json["samples"];
        if (!list.is_array())
            return refuse(
                error, "live update: field 'samples' must be an array, got " + shown_value(list));
        for (const nlohmann::json& item : list) {
            profiling::PmSample sample;
            const std::string bad = read_sample(item, out.metrics.size(), sample);
            if (!bad.empty()) return refuse(error, "live update: " + bad);
            out.samples.push_back(std::move(sample));
        }
        update = std::move(out);
        return true;
    }
    f.whole("kernel", out.kernel, true, 0, static_cast<int>(kMaxLiveKernels) - 1);
    const nlohmann::json* profile = f.object("profile", false, false);
    std::string kind;
    f.text("kind", kind, false, 64);
    f.text("error", out.error, false, kMaxKernelErrorBytes);
    if (f.ok() && (profile == nullptr) == out.error.empty())
        f.fail("needs exactly one of 'profile' and 'error'");
    if (f.ok() && profile != nullptr) {
        std::string inner;
        if (!profiling::kernel_profile_from_json(*profile, out.profile, inner)) {
            f.fail("field 'profile': " + inner);
        } else if (!out.profile.ok()) {
            f.fail("field 'profile' holds a failed profile (" + out.profile.error.message +
                   "); a kernel's failure is an 'error'");
        }
    }
    if (f.ok() && !out.error.empty()) {
        out.kind = LiveUpdate::Kind::kKernelError;
        const std::optional<ErrorKind> known = error_kind_from_name(kind);
        if (!known) {
            f.fail("field 'kind' must be one of " + error_kind_names() + ", got " +
                   shown_value(kind));
        } else {
            out.error_kind = *known;
        }
    } else if (f.ok() && !kind.empty()) {
        f.fail("field 'kind' goes with 'error', not with 'profile'");
    }
    f.finish();
    if (!f.ok()) return refuse(error, f.error());
    update = std::move(out);
    return true;
}

bool live_result_from_json(const nlohmann::json& json, LiveProfileResult& result,
                           std::string& error) {
    LiveProfileResult out;
    StrictFields f(json, "live_profile result");
    f.whole("updates", out.updates, true, kMaxLiveCount);
    f.flag("stopped", out.stopped, true);
    if (const nlohmann::json* timeline = f.object("timeline", true, true)) {
        out.timeline.emplace();
        std::string inner;
        if (!profiling::kernel_timeline_from_json(*timeline, *out.timeline, inner))
            f.fail("field 'timeline': " + inner);
    }
    f.finish();
    if (!f.ok()) return refuse(error, f.error());
    result = std::move(out);
    return true;
}

}  // namespace tclens::worker
