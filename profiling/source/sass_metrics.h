#pragma once
// SassMetricsCollector: the one owner of CUPTI's SASS Metrics API (cupti_sass_metrics.h) in
// tclens (docs/architecture.md: one owner per CUPTI API). CUPTI patches the kernel's instructions
// so that, over one run, every instruction counts its own metrics (instructions executed,
// shared-memory wavefronts and bank conflicts, global sectors); the result is plain records:
// (function, pc offset) -> one value per metric, summed over the GPU.
//
// Call order (CUPTI's sass_metrics sample):
//   cudaSetDevice + cudaFree(0) -> cuptiProfilerInitialize -> cuptiDeviceGetChipName ->
//   cuptiSassMetricsGetNumOfMetrics + GetMetrics (the chip's names) -> per metric
//   GetProperties (its id) -> SetConfig(device, GPU granularity) -> Enable(ctx, lazy patching)
//   -> workload -> cudaDeviceSynchronize -> GetDataProperties -> FlushData -> Disable ->
//   UnsetConfig.
// Every CUPTI and CUDA return code is checked; a failure is a ProfilerError of one line with the
// fix (cupti_errors.h). No CUPTI type in this header. Patched code runs slower: the counts are
// exact, timings taken meanwhile are not. Not thread-safe; one collection at a time per process,
// and no other CUPTI profiler (range profiler, PC sampling) active on the device meanwhile.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "profiling/profiler_error.h"
#include "profiling/range_profiler.h"

namespace tclens::profiling {

// One instruction's counts.
struct SassMetricRecord {
    std::string function;               // mangled
    std::uint64_t pc = 0;               // byte offset from the function's start
    std::vector<std::uint64_t> values;  // per metric, indexed like SassMetricsResult::metrics
};

struct SassMetricsResult {
    ProfilerError error;
    std::vector<std::string> metrics;       // the names asked for, in that order
    std::vector<SassMetricRecord> records;  // sorted by (function, pc)
    std::uint64_t dropped_records = 0;      // CUPTI could not keep (reported at Disable)
    double collect_ms = 0;
};

class SassMetricsCollector {
  public:
    explicit SassMetricsCollector(int device = 0);
    ~SassMetricsCollector();
    SassMetricsCollector(const SassMetricsCollector&) = delete;
    SassMetricsCollector& operator=(const SassMetricsCollector&) = delete;

    // Starts CUDA, initialises CUPTI's profiler and reads the chip's SASS metric names. Again after
    // success: nothing; after a failure: the same error.
    ProfilerError open();

    // The chip's SASS metric names, sorted ("" chip until open() succeeded).
    const std::vector<std::string>& available_metrics() const;
    const std::string& chip_name() const;

    // Counts `metrics` (each must be in available_metrics(), else kBadMetric naming it) per
    // instruction over one call of `workload`.
    SassMetricsResult collect(const std::vector<std::string>& metrics, const Workload& workload);

  private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace tclens::profiling
