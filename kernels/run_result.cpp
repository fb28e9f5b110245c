#include "kernels/run_result.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tclens::kernels {

double verification_bound(Precision precision, std::int64_t k) {
    constexpr double kDepthOfBase = 4096;
    const double growth = std::sqrt(std::max(1.0, static_cast<double>(k) / kDepthOfBase));
    switch (precision) {
        case Precision::kF32:
            return 2e-6 * growth;
        case Precision::kTF32:
            return 1e-3 * growth;
        case Precision::kF16:
        case Precision::kBF16:
            return 1e-2 * growth;
        case Precision::kE4M3:
            return kE4M3BoundAt4096 * growth;
    }
    return 0;
}

std::int64_t guard_zone_bytes(std::int64_t row_bytes) {
    constexpr std::int64_t kMin = 64 * 1024;
    constexpr std::int64_t kMax = 16 * 1024 * 1024;
    const std::int64_t wanted = std::clamp<std::int64_t>(256 * row_bytes, kMin, kMax);
    return (wanted + 255) / 256 * 256;
}

std::string guard_violation_text(const std::string& buffer, bool after, std::int64_t changed,
                                 std::int64_t first, std::int64_t guard_bytes) {
    return "wrote outside " + buffer + ": " + std::to_string(changed) + " bytes in the " +
           std::to_string(guard_bytes) + "-byte guard zone " +
           (after ? "after its end (nearest: " + std::to_string(first) + " bytes past the end)"
                  : "before its start (nearest: " + std::to_string(first) +
                        " bytes before the start)");
}

std::string timed_launches_caught(const std::vector<std::uint64_t>& unwritten_after_launch,
                                  std::int64_t unwritten_when_idle, std::int64_t c_elements,
                                  double last_error, double bound) {
    const std::string runs = std::to_string(unwritten_after_launch.size());
    std::size_t first = 0;
    while (first < unwritten_after_launch.size() && unwritten_after_launch[first] == 0) ++first;
    const std::string launch = std::to_string(first + 1) + " of " + runs;
    if (unwritten_when_idle > 0) {
        const std::uint64_t elements = first < unwritten_after_launch.size()
                                           ? unwritten_after_launch[first]
                                           : static_cast<std::uint64_t>(unwritten_when_idle);
        return "timed launch " + launch + " left " + std::to_string(elements) + " of " +
               std::to_string(c_elements) +
               " elements of C unwritten: the launcher skipped work (done on an earlier call, or "
               "for a C it had filled before)";
    }
    if (first < unwritten_after_launch.size()) {
        return "the launcher returned before its work ran: work left on another stream (C was not "
               "written when timed launch " +
               launch + " returned; it was once the GPU was idle)";
    }
    if (!(last_error <= bound)) {
        char text[160];
        std::snprintf(text, sizeof text,
                      "the last timed launch's C is wrong: rel. RMS error %.1e > bound %.0e "
                      "against the reference of its inputs",
                      last_error, bound);
        return text;
    }
    return "";
}

void RunResult::refuse(const std::string& why) {
    refused = why;
    median_ms = min_ms = max_ms = tflops = 0;
}

std::string run_status(const RunResult& r) {
    if (!r.skipped.empty()) return "skipped: " + r.skipped;
    if (!r.error.empty()) return "error: " + r.error;
    char text[320];
    if (!r.check.out_of_bounds.empty()) return "NOT VERIFIED: " + r.check.out_of_bounds;
    if (!r.check.passed) {
        if (r.check.nan_count > 0) {
            std::snprintf(text, sizeof text, "NOT VERIFIED: %lld elements not written (NaN)",
                          static_cast<long long>(r.check.nan_count));
        } else if (r.check.wrong_elements > 0 && r.check.rel_rms_error <= r.check.bound) {
            std::snprintf(text, sizeof text,
                          "NOT VERIFIED: %lld of %lld elements wrong (beyond the element "
                          "tolerance; rel. RMS error %.1e within bound %.0e vs %s)",
                          static_cast<long long>(r.check.wrong_elements),
                          static_cast<long long>(r.problem.m * r.problem.n), r.check.rel_rms_error,
                          r.check.bound, r.check.reference.c_str());
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
