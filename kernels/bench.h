#pragma once
// A benchmark session: kernels x sizes, each next to its same-run cuBLAS reference and the
// device's measured peak. Shared by `tclens bench` and the Kernels panel.

#include <functional>
#include <string>
#include <vector>

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

struct BenchRow {
    RunResult result;
    int rung = 0;
    std::string reference_id;     // same-precision cuBLAS descriptor ("" for cuBLAS rows)
    double pct_of_reference = 0;  // 100 * TFLOP/s / the reference's at the same size; 0 if unknown
    double speedup_vs_sgemm =
        0;                   // TFLOP/s / cublas.sgemm's at the same size (TF32 rows); 0 if unknown
    double pct_of_peak = 0;  // 100 * TFLOP/s / measured peak of the precision; 0 if unknown
};

// How close `result` came to the memory roof: 100 x the bandwidth it needed at least
// (viz::compulsory_bytes: A and B read once in their storage type, C written once in f32, over
// its median time) / `dram_bytes_per_s`. 0 unless the result counts and the bandwidth is known.
// Example: 16x8192x8192 bf16 in 0.040 ms moves 135.0 MB, 3.38 TB/s: 70 % of 4.8 TB/s.
double pct_of_memory_roof(const RunResult& result, double dram_bytes_per_s);

struct BenchReport {
    std::vector<BenchRow> rows;                      // problem-major, kernels in registry order
    std::vector<PeakMeasurement> peaks;              // per precision: the best of instruction_peaks
    std::vector<PeakMeasurement> instruction_peaks;  // every instruction measured, e.g. mma.sync
                                                     // bf16 beside the wgmma that sets the peak
    std::string peak_error;  // why peaks are missing ("" when measured or not asked for)
    // Who else used the GPU while this was timed, one line (app/worker/gpu_neighbours.h); ""
    // when nobody was seen.
    std::string shared_gpu;
};

// Problems of the presets: "lab6" (M = 3072, 2048, ..., 16 with N = K = 3072, the lab's table),
// "square" (512, 1024, 2048, 3072, 4096, 8192 cubed) and "llm" (transformer layers, M the tokens
// in flight, MxNxK: prefill 4096x14336x4096 (an 8B model's MLP up-projection) and
// 4096x4096x14336 (its down-projection), 8192x8192x1024 (a wide layer over a short K), decode
// 16x8192x8192 and 128x8192x8192 (a few tokens through a 8192-wide projection)). Empty for an
// unknown name.
std::vector<GemmProblem> preset_problems(const std::string& name);
// The preset names, in this order: lab6, llm, square.
const std::vector<std::string>& preset_list();
// The same for error messages: "lab6, llm, square".
std::string preset_names();

// The sizes a request names: each of `sizes` ("MxNxK", parse_problem), in order, then the
// problems of `preset` unless it is "". On the first bad size or an unknown preset returns {}
// and sets `error` to one line naming it and what is allowed (problem_error; "unknown preset
// 'NAME'; valid: lab6, llm, square"); else `error` is "". No sizes and no preset give {}.
// Example: ({"16x16x16"}, "square") -> 16x16x16, 512^3, 1024^3, ..., 8192^3.
std::vector<GemmProblem> parse_problems(const std::vector<std::string>& sizes,
                                        const std::string& preset, std::string& error);

// The kernels a request runs, in registry order: the requested ones and, with references, the
// cuBLAS reference of each and cublas.sgemm for TF32 rungs (the lab's "beat FP32 cuBLAS" goal).
// On an unknown id returns {} and sets `error` to one line listing the valid ids.
std::vector<const KernelDescriptor*> bench_kernels(const std::vector<std::string>& ids,
                                                   std::string& error, bool with_references = true);

// Every kernel `request` runs at each size, in order: bench_kernels of its ids plus the
// references of its loaded kernels (registry order), then the loaded kernels. On an unknown id
// returns {} and sets `error` as bench_kernels does.
std::vector<const KernelDescriptor*> request_kernels(const BenchRequest& request,
                                                     std::string& error);

// "" unless `result` counts at a rate above the measured peak of its precision in `peaks`
// (best_per_precision), which no kernel can reach: then one line, "impossible: 74051.0 TFLOP/s is
// 75.90x this GPU's measured bf16 peak of 975.6 TFLOP/s (wgmma.m64n256k16.f32.bf16.bf16): the
// time does not hold the work". run_bench refuses such a row (RunResult::refuse).
std::string above_peak(const RunResult& result, const std::vector<PeakMeasurement>& peaks);

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
