#pragma once
// The runner: everything between "run kernel K on M x N x K" and a number that may be shown.
//
// For one (kernel, problem) it
//   0. refuses a descriptor without a launch (missing_launch_text), GPU or not;
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
//      copy 0's inputs are read back and the reference made before the kernel runs (so a
//      kernel that writes into its inputs cannot spoil them), both kept for the next run of the
//      same problem, input precision and seed (a bench runs each kernel of a size in turn on the
//      same inputs, which it then reads back no more);
//      A failed comparison also gives an error map (viz/error_map.h): where the wrong elements
//      are, per element, 16x8 tile or block tile;
//   4. only if verified: warm-up runs, then `timed_runs` launches each timed by CUDA events,
//      rotating through the input copies so no run finds its inputs in L2; the median counts.
//      The timed launches are enqueued behind a closed stream gate (kernels/stream_gate.h), in
//      batches, so they run back to back: the events time the GPU, not the host's enqueue of a
//      launch shorter than it (rung 14 at 512^3 takes ~8 us).
//      A kernel of yours (KernelDescriptor::checked_timing) is checked as well as timed: C is
//      poisoned before each timed launch and its unwritten elements counted right after it (in
//      stream order, outside the events), the last timed launch reads the verified inputs and its
//      C is compared with their reference, and once the whole GPU is idle C is looked at again.
//      What that catches (timed_launches_caught) refuses the result with one line: work left
//      running on another stream past the launch's return, timed launches that skip work they
//      did before (the first call only, a C filled before), a last C that is wrong.
// TFLOP/s = 2 M N K / median time.

#include <memory>
#include <string>

#include "kernels/gemm.h"
#include "kernels/registry.h"
#include "kernels/run_result.h"

namespace tclens::kernels {

// What run() answers (as the result's error) for a descriptor without a launch: one of the
// model's registry (kernels/registry.h), which describes kernels only. Names the kernel and the
// registry whose descriptors launch (kernels/gpu_registry.h).
std::string missing_launch_text(const std::string& kernel_id);

// A reference C for one problem's inputs (runner.cu).
struct VerificationReference;

// Runs kernels on the current CUDA device, on a stream of its own. Not thread-safe: use one
// runner per thread. Holds no device memory between runs; on the host, the last run's input
// copy 0 and its reference.
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
    std::shared_ptr<const VerificationReference> reference_;  // the last run's
};

}  // namespace tclens::kernels
