#include "app/worker/watch_versions.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/text.h"
#include "kernels/problem_text.h"
#include "profiling/bench_json.h"
#include "profiling/metric_catalogue.h"
#include "profiling/profile_json.h"
#include "profiling/recorded_mix.h"

namespace tclens::worker {
namespace {

// "+5.3 %" for 581.4 -> 612.3.
std::string change_text(double before, double after) {
    return common::format_text("%+.1f %%", 100.0 * (after / before - 1.0));
}

}  // namespace

std::string version_result_text(const WatchVersion& v) {
    std::string text = "v" + std::to_string(v.number) + "  ";
    if (!v.error.empty()) return text + v.error;
    if (!v.row) return text + "no result";
    const kernels::RunResult& r = v.row->result;
    text += r.kernel_id + " " + kernels::problem_text(r.problem) + ": ";
    if (!r.counts()) return text + kernels::run_status(r);
    text += common::format_text("%.1f TFLOP/s", r.tflops);
    if (v.reference && v.reference->result.counts()) {
        text += ", " + common::format_text("%.1f %%", v.row->pct_of_reference) + " of " +
                v.reference->result.kernel_id +
                common::format_text(" (%.1f)", v.reference->result.tflops);
    }
    text += common::format_text(", %.3f ms", r.median_ms) +
            common::format_text(", rel. err %.1e", r.check.rel_rms_error);
    return text;
}

std::string version_times_text(const WatchVersion& v) {
    std::vector<std::string> parts;
    auto add = [&](const char* what, double seconds) {
        if (seconds > 0)
            parts.push_back(std::string(what) + common::format_text(" %.2f s", seconds));
    };
    add("compile", v.compile_s);
    add("load", v.load_s);
    add("verify", v.verify_s);
    add("time", v.time_s);
    add("profile", v.profile_s);
    if (parts.empty()) return "";
    std::string text = "times:";
    for (std::size_t i = 0; i < parts.size(); ++i) text += (i == 0 ? " " : ", ") + parts[i];
    if (v.save_to_result_s >= 0)
        text += common::format_text("; saved -> TFLOP/s %.2f s", v.save_to_result_s);
    return text;
}

std::string version_change_text(const WatchVersion& before, const WatchVersion& after,
                                double min_change_pct, int max_metrics) {
    std::string text = "vs v" + std::to_string(before.number) + ":";
    if (!before.good() || !after.good()) return text + " no comparison (not both verified)";
    const double was = before.row->result.tflops, is = after.row->result.tflops;
    text += common::format_text(" TFLOP/s %.1f", was) + common::format_text(" -> %.1f", is) + " (" +
            change_text(was, is) + ")";
    if (!before.profile || !after.profile) return text;
    struct Change {
        const profiling::MetricValue* before;
        const profiling::MetricValue* after;
        double pct;
    };
    std::vector<Change> changes;
    for (const profiling::MetricValue& metric : after.profile->metrics) {
        const profiling::MetricValue* old = before.profile->find(metric.name);
        if (old == nullptr || old->value == 0 || !std::isfinite(old->value) ||
            !std::isfinite(metric.value))
            continue;
        const double pct = 100.0 * (metric.value / old->value - 1.0);
        if (std::fabs(pct) >= min_change_pct) changes.push_back({old, &metric, pct});
    }
    std::stable_sort(changes.begin(), changes.end(), [](const Change& a, const Change& b) {
        return std::fabs(a.pct) > std::fabs(b.pct);
    });
    if (changes.size() > static_cast<std::size_t>(std::max(0, max_metrics)))
        changes.resize(static_cast<std::size_t>(std::max(0, max_metrics)));
    for (std::size_t i = 0; i < changes.size(); ++i) {
        const Change& c = changes[i];
        text += (i == 0 ? "; " : ", ") + c.after->label + " " +
                profiling::format_metric_value(c.before->value, c.before->unit) + " -> " +
                profiling::format_metric_value(c.after->value, c.after->unit) +
                common::format_text(" (%+.1f %%)", c.pct);
    }
    if (changes.empty())
        text += common::format_text("; no profile metric moved by %g %% or more", min_change_pct);
    return text;
}

nlohmann::json to_json(const WatchVersion& v) {
    return {{"version", v.number},
            {"ok", v.good()},
            {"error", v.error},
            {"times",
             {{"compile_s", v.compile_s},
              {"load_s", v.load_s},
              {"verify_s", v.verify_s},
              {"time_s", v.time_s},
              {"profile_s", v.profile_s},
              {"save_to_result_s",
               v.save_to_result_s >= 0 ? nlohmann::json(v.save_to_result_s) : nlohmann::json()}}},
            {"result", v.row ? profiling::to_json(*v.row) : nlohmann::json()},
            {"reference", v.reference ? profiling::to_json(*v.reference) : nlohmann::json()},
            {"profile", v.profile ? profiling::to_json(*v.profile) : nlohmann::json()},
            {"profile_error", v.profile_error},
            {"instruction_mix", v.mix ? profiling::to_json(*v.mix) : nlohmann::json()},
            {"instruction_mix_missing", v.mix_missing}};
}

}  // namespace tclens::worker
