#pragma once
// What PM sampling (pm_sampler.h) gives: samples of a device-wide timeline and a snapshot of
// them, as a live view or a recording holds them. Plain C++ (tclens_profiling_model): a client
// reads them from a worker's live updates.

#include <cstdint>
#include <string>
#include <vector>

#include "profiling/profiler_error.h"

namespace tclens::profiling {

// One PM sample: the metric values over [start_ns, end_ns) of the GPU's clock.
struct PmSample {
    std::uint64_t sequence = 0;  // 0, 1, 2 ... since start(), in decode order
    std::uint64_t start_ns = 0;
    std::uint64_t end_ns = 0;
    std::vector<double> values;  // one per metric, in the order of PmSamplerConfig::metrics
};

enum class PmTrigger { kGpuTime, kSysClock };
// "gpu-time" or "sysclk".
const char* pm_trigger_name(PmTrigger trigger);

struct PmSnapshot {
    std::vector<std::string> metrics;  // the names the values follow
    std::vector<PmSample> samples;     // oldest first
    std::uint64_t next_sequence = 0;   // pass it to snapshot() to get only newer samples
    // Samples with sequence >= the one asked for that the ring dropped before this snapshot:
    // samples.front().sequence == first_sequence + skipped whenever samples is not empty.
    std::uint64_t skipped = 0;
    std::uint64_t dropped = 0;  // samples pushed out of the ring
    std::uint64_t lost = 0;     // samples CUPTI returned without timestamps
    bool overflow = false;      // the hardware buffer overflowed: samples are missing
    bool running = false;
    ProfilerError error;  // the decode thread's first failure; sampling stopped
    PmTrigger trigger = PmTrigger::kGpuTime;
    std::uint64_t interval_ns = 0;  // as requested
};

}  // namespace tclens::profiling
