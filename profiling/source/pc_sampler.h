#pragma once
// PcSampler: the one owner of CUPTI's PC Sampling API (cupti_pcsampling.h) in tclens
// (docs/architecture.md: one owner per CUPTI API). It samples, every 2^period cycles on every SM
// sub-partition, which instruction a warp is at and why it is stalled, over one run of a workload,
// and hands back plain records: (function, pc offset) -> samples per stall reason.
//
// Call order (CUPTI's pc_sampling_start_stop sample; the PC sampling APIs all need the context's
// PC sampling object, so every call comes after Enable):
//   cudaSetDevice + cudaFree(0) -> cuptiPCSamplingEnable(ctx) -> GetNumStallReasons ->
//   GetStallReasons -> SetConfigurationAttribute(stall reasons, period, scratch and hardware
//   buffers, continuous collection, start/stop control, parsed output, data buffer) ->
//   cudaDeviceSynchronize -> cuptiPCSamplingStart -> workload -> cudaDeviceSynchronize ->
//   cuptiPCSamplingStop -> the data buffer's records, then cuptiPCSamplingGetData until no PCs
//   remain -> (close) cuptiPCSamplingDisable.
// Every CUPTI and CUDA return code is checked; a failure is a ProfilerError of one line with the
// fix (cupti_errors.h: permission, busy, another tool, unsupported). No CUPTI type in this header.
//
// Enable PC sampling (open()) before the workload's kernels are first launched in the process
// where possible: CUPTI learns the functions of the modules it sees loaded. Not thread-safe; use it
// on the thread that launches the workload, and close() it before another CUPTI profiler (range
// profiler, SASS metrics) takes the device.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "profiling/profiler_error.h"
#include "profiling/range_profiler.h"

namespace tclens::profiling {

// The samples of one instruction.
struct PcSampleRecord {
    std::string function;                // mangled, as the cubin names it
    std::uint64_t pc = 0;                // byte offset from the function's start
    std::vector<std::uint64_t> samples;  // per stall reason, indexed like PcSamplingResult::reasons
};

struct PcSamplingResult {
    ProfilerError error;
    std::vector<std::string> reasons;       // CUPTI stall reason names (stall_reasons.h)
    std::vector<PcSampleRecord> records;    // sorted by (function, pc)
    std::uint64_t cupti_total_samples = 0;  // CUPTI's count, non-user kernels and drops included
    std::uint64_t dropped_samples = 0;      // dropped by the hardware (back-pressure)
    std::uint64_t non_user_samples = 0;     // in kernels CUPTI gives no records for
    int period_log2 = 0;                    // sampling every 2^period_log2 cycles; 0: CUPTI's
    double collect_ms = 0;                  // start to the last record read
};

struct PcSamplingOptions {
    int period_log2 = 0;  // 5..31; 0 keeps CUPTI's default (chosen from the SM count)
    std::size_t scratch_buffer_bytes = 64ull << 20;    // decoded records, ~16 bytes per reason
    std::size_t hardware_buffer_bytes = 512ull << 20;  // raw samples on the GPU
};

// The smallest period (5..31) at which a kernel of `kernel_ms` on `sm_count` SMs of
// `sub_partitions_per_sm` sub-partitions at `sm_clock_khz` gives at most `target_samples`
// samples: each sub-partition samples once per 2^period cycles. Unknown inputs (<= 0) give 5, the
// most samples. E.g. 1 ms on 132 SMs x 4 at 1,980 MHz, target 500,000:
// 1.98e6 cycles x 528 = 1.05e9 / 2^p <= 5e5 -> 2^p >= 2091 -> p = 12.
int choose_sampling_period(double kernel_ms, int sm_count, int sub_partitions_per_sm,
                           int sm_clock_khz, std::uint64_t target_samples);

class PcSampler {
  public:
    explicit PcSampler(int device = 0);
    ~PcSampler();  // close()
    PcSampler(const PcSampler&) = delete;
    PcSampler& operator=(const PcSampler&) = delete;

    // Starts CUDA on the device, enables PC sampling on its primary context and reads the stall
    // reasons. Again after success: nothing; after a failure: the same error.
    // Errors: kNoGpu, kPermission, kBusy, kOtherTool, kUnsupported, kFailed.
    ProfilerError open();

    // Samples one call of `workload` (which launches on the current device; the device is
    // synchronised before and after it). Opens first. A full hardware buffer is an error that says
    // to sample less often.
    PcSamplingResult sample(const Workload& workload, const PcSamplingOptions& options = {});

    // Disables PC sampling; open() enables it again.
    void close();

  private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace tclens::profiling
