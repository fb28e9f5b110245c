#pragma once
// Measures a bank model on the GPU: runs the exact shared-memory instructions of a
// viz::BankReport in the bank probe (kernels/probes/bank_probe.h) under the RangeProfiler and
// turns the counters into wavefronts per instruction, the number the model predicts
// (`tclens banks --measure`).
//
// For every report two probe launches are profiled, one range each (RangeMode::kPerKernel):
// a baseline with 0 iterations and a run with `iterations` iterations. Then
//   measured = (W(run) - W(baseline)) / (iterations x requests)
// where W is the wavefront counter for the instruction kind:
//   loads, ldmatrix  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum (counts LDS and LDSM)
//   stores           l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
//   cp.async         none: see kCpAsyncNotMeasurable
// and the instruction counter (smsp__inst_executed_op_shared_ld / _op_shared_st / _op_ldsm /
// _op_ldgsts .sum) checks that the probe issued exactly iterations x requests instructions.

#include <cstddef>
#include <string>
#include <vector>

#include "kernels/probes/bank_probe.h"
#include "profiling/bank_result.h"
#include "viz/bank_model.h"

namespace tclens::profiling {

// BankReport -> probe spec: the report's pattern picks the instruction (ldmatrix.xN[.trans] ->
// kLdmatrix, cp.async.* -> kCpAsync, other stores -> kStore, other loads -> kLoad, at the
// pattern's access width), each RequestReport becomes one probe request whose lane l uses that
// lane's physical byte_addr, and shared memory is viz::storage_bytes of the tile. Pure.
kernels::BankProbeSpec bank_probe_spec(const viz::BankReport& report);

// The wavefront and instruction metrics for a probe kind (see the table at the top).
std::string wavefront_metric(kernels::SharedAccessKind kind);
std::string instruction_metric(kernels::SharedAccessKind kind);

// Measures every report in one profiling session (reports that cannot be prepared, e.g. a tile
// larger than the GPU's shared memory, get their own error and do not stop the others).
// iterations >= 1. Results are in the order of `reports`. Runs on CUDA device 0.
std::vector<BankMeasurement> measure_bank_reports(const std::vector<viz::BankReport>& reports,
                                                  int iterations = kDefaultBankIterations);

// One report; see measure_bank_reports.
BankMeasurement measure_bank_report(const viz::BankReport& report,
                                    int iterations = kDefaultBankIterations);

}  // namespace tclens::profiling
