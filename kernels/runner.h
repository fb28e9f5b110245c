#pragma once
// The runner: everything between "run kernel K on M x N x K" and a number that may be shown.
//
// For one (kernel, problem) it
//   1. checks the kernel can run and that its buffers fit in free GPU memory (registry:
//      why_not_runnable with the free memory; else a skip reason naming the bytes needed);
//   2. fills fresh random inputs, uniform in [-1, 1) (seeded; never all zero), as the kernel's
//      storage type, in `input_sets` copies whose total exceeds the L2 several times over;
//   3. poisons C with NaN, runs the kernel once and compares C with a higher-precision
//      reference by relative RMS error (verification_bound() per precision and K):
//        small problems (M*N*K <= kCpuReferenceMaxWork): fp64 on the CPU, every element;
//        larger ones: cuBLAS FP32 with tensor cores off, every element, and that reference is
//        itself checked against fp64 on the CPU at sampled elements;
//   4. only if verified: warm-up runs, then `timed_runs` launches each timed by CUDA events,
//      rotating through the input copies so no run finds its inputs in L2; the median counts.
// TFLOP/s = 2 M N K / median time.

#include <atomic>
#include <cstdint>
#include <string>

#include "kernels/gemm.h"
#include "kernels/registry.h"

namespace tclens::kernels {

// Work (M*N*K multiply-adds) up to which the CPU computes the whole fp64 reference (~0.3 s).
constexpr std::int64_t kCpuReferenceMaxWork = std::int64_t{1} << 28;

// Largest relative RMS error a verified result of depth `k` may have: f32 2e-6, tf32 1e-3,
// f16 and bf16 1e-2 up to K = 4096, then growing as sqrt(K / 4096), as the rounding error of a
// K-long sum of random terms does. Measured maxima on an H100 (bench/results/
// 2026-11-22_h100_ladder, K <= 8192): f32 1.1e-6, tf32 2.6e-4, f16/bf16 9.8e-6 (f16/bf16 inputs
// are exact in f32, so only the order of the f32 accumulation differs from the reference; tf32
// rounds each input to 10 mantissa bits).
double verification_bound(Precision precision, std::int64_t k);

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
    double tflops = 0;  // 2 M N K / median; 0 unless timed and verified

    // True when the result may be shown as a number: it ran, no error, verified, timed.
    bool counts() const {
        return skipped.empty() && error.empty() && check.passed && timed_runs > 0;
    }
};

// The outcome of a run in words: "ok", "skipped: <reason>", "error: <CUDA error, or
// cancelled>", "NOT VERIFIED: <n> elements not written (NaN)" / "NOT VERIFIED: rel. RMS error
// 3.10e-01 > bound 1e-02 vs cpu.fp64", or "NOT TIMED: verified only".
std::string run_status(const RunResult& result);

// Runs kernels on the current CUDA device, on a stream of its own. Not thread-safe: use one
// runner per thread. Holds no device memory between runs.
class GemmRunner {
  public:
    GemmRunner();
    ~GemmRunner();
    GemmRunner(const GemmRunner&) = delete;
    GemmRunner& operator=(const GemmRunner&) = delete;

    // "" when the runner has a device and a stream, else why not (no GPU, driver too old ...).
    const std::string& init_error() const { return init_error_; }

    RunResult run(const KernelDescriptor& kernel, const GemmProblem& problem,
                  const RunOptions& options);

  private:
    std::string init_error_;
    cudaStream_t stream_ = nullptr;
    DeviceLimits limits_;
    std::int64_t l2_bytes_ = 0;
};

}  // namespace tclens::kernels
