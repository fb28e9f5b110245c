#pragma once
// A benchmark session: kernels x sizes, each next to its same-run cuBLAS reference and the
// device's measured peak. Shared by `tclens bench` and the Kernels panel. Its report, the sizes
// it names and their texts: bench_result.h (plain C++, what a client reads).

#include <functional>
#include <string>
#include <vector>

#include "kernels/bench_result.h"
#include "kernels/bench_selection.h"
#include "kernels/gemm.h"
#include "kernels/peak_probe.h"
#include "kernels/runner.h"

namespace tclens::kernels {

struct BenchRequest {
    std::vector<std::string> kernel_ids;  // registry ids; references are added as needed
    // Kernels outside the registry (users' kernels the worker loaded: kernels/user), run after
    // the registry's at each size, each with its reference (and cublas.sgemm for TF32) added
    // like a rung's. Not owned; they must outlive run_bench.
    std::vector<const KernelDescriptor*> loaded;
    std::vector<GemmProblem> problems;
    RunOptions run;
    bool measure_peaks = true;
    // With measure_peaks: this GPU's instruction peaks measured before (by an earlier bench of
    // the same process), used instead of measuring again; empty: measure.
    std::vector<PeakMeasurement> measured_instruction_peaks;
    bool with_references = true;  // false: only the requested ids (no % of cuBLAS)
};

// Every kernel `request` runs at each size, in order, as the GPU registry holds them (with their
// launches): bench_kernels (bench_selection.h) of its ids plus the references of its loaded
// kernels (registry order), then the loaded kernels. On an unknown id returns {} and sets `error`
// as bench_kernels does.
std::vector<const KernelDescriptor*> request_kernels(const BenchRequest& request,
                                                     std::string& error);

// Called before each run: index (0-based) of the run about to start, the number of runs, and
// the kernel and problem.
using BenchProgress = std::function<void(int index, int total, const KernelDescriptor& kernel,
                                         const GemmProblem& problem)>;

// Runs the request on `runner`'s device. Precondition: request_kernels(request) is valid. Stops
// early (remaining rows absent) when request.run.cancel is set. Every row is held to the measured
// peaks (above_peak): those of the report, or, for a request with a kernel of yours that asks for
// none, peaks measured once per process and left out of the report.
BenchReport run_bench(const BenchRequest& request, GemmRunner& runner,
                      const BenchProgress& progress);

}  // namespace tclens::kernels
