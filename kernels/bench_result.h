#pragma once
// What a benchmark session (kernels/bench.h) gives and the sizes it names: its rows and report,
// the % of the memory roof, the refusal of an impossible rate, the size presets. Plain C++
// (tclens_kernels_model): a client names sizes, reads a worker's report (profiling/bench_json.h)
// and formats it without CUDA.

#include <string>
#include <vector>

#include "kernels/gemm.h"
#include "kernels/peak_measurement.h"
#include "kernels/run_result.h"

namespace tclens::kernels {

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

// "" unless `result` counts at a rate above the measured peak of its precision in `peaks`
// (best_per_precision), which no kernel can reach: then one line, "impossible: 74051.0 TFLOP/s is
// 75.90x this GPU's measured bf16 peak of 975.6 TFLOP/s (wgmma.m64n256k16.f32.bf16.bf16): the
// time does not hold the work". run_bench refuses such a row (RunResult::refuse).
std::string above_peak(const RunResult& result, const std::vector<PeakMeasurement>& peaks);

}  // namespace tclens::kernels
