#pragma once
// What one run of a kernel on one size gave (kernels/runner.h makes it): its verification, its
// times and the one line that says why a number is not shown. Plain C++ (tclens_kernels_model):
// a client reads it from a worker's bench JSON (profiling/bench_json.h) and formats it.

#include <cstdint>
#include <optional>
#include <string>

#include "kernels/gemm.h"
#include "viz/error_map.h"

namespace tclens::kernels {

struct Verification {
    bool passed = false;
    double rel_rms_error = 0;      // sqrt(sum (c - ref)^2 / sum ref^2)
    double bound = 0;              // verification_bound(precision, K) (runner.h)
    std::string reference;         // "cpu.fp64" or "cublas.sgemm"
    double reference_rel_rms = 0;  // cuBLAS reference vs fp64 at sampled elements (else 0)
    std::int64_t nan_count = 0;    // elements left NaN (unwritten or broken)
    // Writes outside A, B or C (guard zones): one line each (guard_violation_text, runner.h),
    // "; "-joined; "" when none. Non-empty means not passed.
    std::string out_of_bounds;
    // Where C is wrong; set when the comparison ran and did not pass (kErrorMapSlack x bound x
    // RMS(reference) as the tolerance, cells from the kernel's block tile).
    std::optional<viz::ErrorMap> error_map;
};

struct RunResult {
    std::string kernel_id;
    Precision precision = Precision::kF32;
    GemmProblem problem;
    std::string skipped;  // why it did not run (kernel cannot, too little memory); "" if it ran
    std::string error;    // CUDA error text, or "cancelled"; "" if none
    Verification check;
    int input_sets = 0;  // rotated input copies
    int timed_runs = 0;
    double median_ms = 0;
    double min_ms = 0;
    double max_ms = 0;
    double tflops = 0;  // 2 M N K / median; 0 unless timed, verified and not refused
    // Why the timed launches do not count though the first launch verified: what the checks of a
    // kernel of yours caught (timed_launches_caught), or a rate above the measured peak of its
    // precision (bench.h); one line. Non-empty: the times and TFLOP/s are 0, nothing is shown.
    std::string refused;
    double verify_ms = 0;  // host wall time of steps 1-3: inputs, the run, the reference, the check
    double time_ms = 0;    // host wall time of step 4: warm-up and timed launches (0 if not timed)

    // True when the result may be shown as a number: it ran, no error, verified, timed, and
    // nothing refused its times.
    bool counts() const {
        return skipped.empty() && error.empty() && check.passed && timed_runs > 0 &&
               refused.empty();
    }

    // It ran and did not count for a fault of its own: an error, a failed verification or
    // refused times (a skip is none of these).
    bool failed() const {
        return skipped.empty() && (!error.empty() || !check.passed || !refused.empty());
    }

    // Refuses the result for `why` (one line): keeps the line, drops every number of its times.
    void refuse(const std::string& why);
};

// The outcome of a run in words: "ok", "skipped: <reason>", "error: <CUDA error, or
// cancelled>", "NOT VERIFIED: <out_of_bounds>", "NOT VERIFIED: <n> elements not written (NaN)" /
// "NOT VERIFIED: rel. RMS error
// 3.10e-01 > bound 1e-02 vs cpu.fp64", "REFUSED: <refused>", or "NOT TIMED: verified only".
std::string run_status(const RunResult& result);

}  // namespace tclens::kernels
