#include "kernels/run_result.h"

#include <cstdio>

namespace tclens::kernels {

void RunResult::refuse(const std::string& why) {
    refused = why;
    median_ms = min_ms = max_ms = tflops = 0;
}

std::string run_status(const RunResult& r) {
    if (!r.skipped.empty()) return "skipped: " + r.skipped;
    if (!r.error.empty()) return "error: " + r.error;
    char text[200];
    if (!r.check.out_of_bounds.empty()) return "NOT VERIFIED: " + r.check.out_of_bounds;
    if (!r.check.passed) {
        if (r.check.nan_count > 0) {
            std::snprintf(text, sizeof text, "NOT VERIFIED: %lld elements not written (NaN)",
                          static_cast<long long>(r.check.nan_count));
        } else {
            std::snprintf(text, sizeof text, "NOT VERIFIED: rel. RMS error %.2e > bound %.0e vs %s",
                          r.check.rel_rms_error, r.check.bound, r.check.reference.c_str());
        }
        return text;
    }
    if (!r.refused.empty()) return "REFUSED: " + r.refused;
    if (r.timed_runs <= 0) return "NOT TIMED: verified only";
    return "ok";
}

}  // namespace tclens::kernels
