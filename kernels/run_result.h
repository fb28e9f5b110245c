#pragma once
// What one run of a kernel found (kernels/runner.h runs it on a GPU), and the rules a result is
// judged by: the verification bound, the guard zones, the checks of a kernel of yours' timed
// launches, the outcome in words. Plain C++: a client without CUDA reads and shows these (a
// worker's bench and profile results carry them).

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/gemm.h"
#include "viz/error_map.h"

namespace tclens::kernels {

// Work (M*N*K multiply-adds) up to which the CPU computes the whole fp64 reference (~0.3 s).
constexpr std::int64_t kCpuReferenceMaxWork = std::int64_t{1} << 28;

// Largest relative RMS error a verified result of depth `k` may have: f32 2e-6, tf32 1e-3,
// f16 and bf16 1e-2 up to K = 4096, then growing as sqrt(K / 4096), as the rounding error of a
// K-long sum of random terms does. Measured maxima on an H100 (bench/results/
// 2026-11-22_h100_ladder, K <= 8192): f32 1.1e-6, tf32 2.6e-4, f16/bf16 9.8e-6 (f16/bf16 inputs
// are exact in f32, so only the order of the f32 accumulation differs from the reference; tf32
// rounds each input to 10 mantissa bits).
// e4m3 (rung 13 and cuBLASLt): kE4M3BoundAt4096 up to K = 4096, then the same sqrt(K / 4096).
double verification_bound(Precision precision, std::int64_t k);

// Where e4m3's bound comes from. An e4m3 value has 4 significant bits, so every input is exact
// in f32 and so is every product of two (8 significant bits; exponents 2^-18..2^17): the fp64
// reference of the FP8-rounded inputs differs from the GPU's C only by how the K products are
// summed. In f32 that would be the 16-bit rungs' 1e-5. Hopper's FP8 wgmma is reported to keep
// only about 14 significant bits of the running sum (DeepSeek-V3 technical report, 3.3.2; it is
// why cuBLASLt's default promotes partial sums, and why the e4m3 rows run it with fast
// accumulation, as rung 13 does). Model: each of the K adds to a running sum S_j loses up to
// eps = 2^-13 of |S_j|, independently. Inputs uniform in [-1, 1) give products of variance
// 1/9, so RMS(S_j) = sqrt(j / 9) and the error's RMS is eps sqrt(sum_j j / 9) = eps K / sqrt(18)
// against RMS(C) = sqrt(K / 9): a relative RMS error of eps sqrt(K / 2), 5.5e-3 at K = 4096,
// growing as sqrt(K) as the bound does. The bound is twice the model. A wrong layout or a
// missing K step gives errors of order 1.
inline constexpr double kE4M3BoundAt4096 = 1.1e-2;

// Guard zones: bytes before and after each guarded buffer, all kGuardByte. 256 rows of the
// buffer's row (`row_bytes`), at least 64 KiB and at most 16 MiB, rounded up to 256 bytes, so a
// kernel writing a whole tile of rows past its matrix still lands in the guard.
// guard_zone_bytes(16384) = 4 MiB (a 4096-column f32 C); guard_zone_bytes(4) = 64 KiB.
inline constexpr unsigned char kGuardByte = 0xA5;
std::int64_t guard_zone_bytes(std::int64_t row_bytes);

// One line about a guard zone a kernel wrote into, e.g. "wrote outside C: 3072 bytes in the
// 65536-byte guard zone after its end (nearest: 0 bytes past the end)". `buffer` is "A", "B" or
// "C", `after` says which side; `changed` the bytes that differ from kGuardByte, `first` the
// distance from the buffer of the one nearest to it.
std::string guard_violation_text(const std::string& buffer, bool after, std::int64_t changed,
                                 std::int64_t first, std::int64_t guard_bytes);

struct RunOptions {
    int warmup_runs = 5;
    int timed_runs = 30;  // >= 1; the bench uses >= 20
    std::uint64_t seed = 1;
    bool time = true;                           // false: verify only
    const std::atomic<bool>* cancel = nullptr;  // checked between launches
};

struct Verification {
    bool passed = false;
    double rel_rms_error = 0;      // sqrt(sum (c - ref)^2 / sum ref^2)
    double bound = 0;              // verification_bound(precision, K)
    std::string reference;         // "cpu.fp64" or "cublas.sgemm"
    double reference_rel_rms = 0;  // cuBLAS reference vs fp64 at sampled elements (else 0)
    std::int64_t nan_count = 0;    // elements left NaN (unwritten or broken)
    // Elements of C farther from the reference than viz::element_tolerance (kErrorMapSlack x
    // bound x RMS(reference), at least 1e-3 x RMS; viz/error_map.h), NaN included. Any one fails
    // the check: a few wrong tiles of a large C stay far inside the RMS bound (1904 wrong of 33.6
    // M: rel. RMS 3e-3).
    std::int64_t wrong_elements = 0;
    // Writes outside A, B or C (guard zones), one guard_violation_text line each, "; "-joined;
    // "" when none. Non-empty means not passed.
    std::string out_of_bounds;
    // Where C is wrong; set when the comparison ran and did not pass (viz::element_tolerance as
    // the tolerance, cells from the kernel's block tile).
    std::optional<viz::ErrorMap> error_map;
};

// What the checks of a kernel of yours' timed launches caught (step 4), "" when nothing:
// `unwritten_after_launch[r]` counts the elements of C still NaN right after timed launch r
// returned (C poisoned before each), `unwritten_when_idle` those once the whole GPU was idle after
// the last launch, `last_error` the last launch's relative RMS error against the reference of its
// inputs (the verified ones), `bound` the verification bound. First match:
//   unwritten when idle  "timed launch 2 of 30 left 1048576 of 1048576 elements of C unwritten:
//                        the launcher skipped work (done on an earlier call, or for a C it had
//                        filled before)"
//   unwritten after a launch only
//                        "the launcher returned before its work ran: work left on another stream
//                        (C was not written when timed launch 1 of 30 returned; it was once the
//                        GPU was idle)"
//   last error > bound   "the last timed launch's C is wrong: rel. RMS error 5.0e-01 > bound
//                        1e-02 against the reference of its inputs"
std::string timed_launches_caught(const std::vector<std::uint64_t>& unwritten_after_launch,
                                  std::int64_t unwritten_when_idle, std::int64_t c_elements,
                                  double last_error, double bound);

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
// 3.10e-01 > bound 1e-02 vs cpu.fp64", "NOT VERIFIED: 1904 of 33620480 elements wrong (off by
// more than 4 x bound x RMS of C; rel. RMS error 3.1e-03 within bound 1e-02 vs cublas.sgemm)",
// "REFUSED: <refused>", or "NOT TIMED: verified only".
std::string run_status(const RunResult& result);

}  // namespace tclens::kernels
