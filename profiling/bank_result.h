#pragma once
// What measuring a bank model on the GPU gives (bank_measure.h measures it, where the method
// and the counters are described): the measured wavefronts per request beside the model's, or
// why there is none. Plain C++ (tclens_profiling_model): a client reads it from a worker.

#include <cstddef>
#include <string>

#include "profiling/profiler_error.h"
#include "viz/bank_model.h"

namespace tclens::profiling {

constexpr int kDefaultBankIterations = 256;

// Why cp.async reports cannot be measured (ProfilerProblem::kUnsupported). Seen on an H100
// (tests/gpu/results/2026-11-22_h100_banks/): LDGSTS writes appear in no _op_ld/_op_st
// wavefront counter; l1tex__data_pipe_lsu_wavefronts_mem_shared.sum reads a constant 3 per
// LDGSTS whatever the addresses; and l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum
// reads 0 even when all 32 lanes write banks 0-3 (a 32-way conflict under any grouping).
inline constexpr const char* kCpAsyncNotMeasurable =
    "cp.async (LDGSTS) shared-memory wavefronts are not visible to CUPTI: on an H100 the "
    "shared-memory wavefront counter reads a constant 3 per LDGSTS and its bank-conflict counter "
    "reads 0 even for a 32-way conflict, so tclens shows the model only";

struct BankMeasurement {
    // ok(), or why there is no number: kInvalidRequest when the tile needs more shared memory
    // than this GPU gives a block; else the RangeProfiler's or the probe's error.
    ProfilerError error;
    double wavefronts_per_request = 0;  // measured; compare with the model's per-request count
    int iterations = 0;
    int requests = 0;
    std::string wavefront_metric;    // W of bank_measure.h
    std::string instruction_metric;  // "" when CUPTI rejected it on this chip
    double baseline_wavefronts = 0;  // W of the 0-iteration launch
    double run_wavefronts = 0;       // W of the `iterations` launch
    // (I(run) - I(baseline)) / iterations: the instructions the probe issued per iteration, which
    // must equal `requests`; -1 when instruction_metric is "".
    double instructions_per_iteration = -1;
    std::size_t passes = 0;  // replay passes CUPTI needed
};

// The model's wavefronts per request: report.total_wavefronts / number of requests.
double model_wavefronts_per_request(const viz::BankReport& report);

}  // namespace tclens::profiling
