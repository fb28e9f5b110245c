#pragma once
// The runner: everything between "run kernel K on M x N x K" and a number that may be shown.
//
// For one (kernel, problem) it
//   1. checks the kernel can run and that its buffers fit in free GPU memory (registry:
//      why_not_runnable with the free memory; else a skip reason naming the bytes needed);
//   2. fills fresh random inputs, uniform in [-1, 1) (seeded; never all zero), as the kernel's
//      storage type, in `input_sets` copies whose total exceeds the L2 several times over;
//   3. poisons C with NaN and surrounds A, B and C of the first input copy with guard zones
//      (guard_zone_bytes, filled with kGuardByte), runs the kernel once, checks the guard zones
//      (a kernel that wrote outside its buffers fails verification with one line naming the
//      buffer, the side and the bytes) and compares C with a higher-precision
//      reference by relative RMS error (verification_bound() per precision and K):
//        small problems (M*N*K <= kCpuReferenceMaxWork): fp64 on the CPU, every element;
//        larger ones: cuBLAS FP32 with tensor cores off, every element, and that reference is
//        itself checked against fp64 on the CPU at sampled elements;
//      A failed comparison also gives an error map (viz/error_map.h): where the wrong elements
//      are, per element, 16x8 tile or block tile;
//   4. only if verified: warm-up runs, then `timed_runs` launches each timed by CUDA events,
//      rotating through the input copies so no run finds its inputs in L2; the median counts.
//      A kernel of yours (KernelDescriptor::checked_timing) is checked as well as timed: C is
//      poisoned before each timed launch and its unwritten elements counted right after it (in
//      stream order, outside the events), the last timed launch reads the verified inputs and its
//      C is compared with their reference, and once the whole GPU is idle C is looked at again.
//      What that catches (timed_launches_caught) refuses the result with one line: work left
//      running on another stream past the launch's return, timed launches that skip work they
//      did before (the first call only, a C filled before), a last C that is wrong.
// TFLOP/s = 2 M N K / median time.

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/gemm.h"
#include "kernels/registry.h"
#include "kernels/run_result.h"

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
    GpuStream stream_ = nullptr;  // a cudaStream_t
    DeviceLimits limits_;
    std::int64_t l2_bytes_ = 0;
};

}  // namespace tclens::kernels
