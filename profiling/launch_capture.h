#pragma once
// Reading a workload's launch facts (launch_facts.h) from CUPTI activity records: the one owner
// of the CUPTI Activity API in tclens (docs/architecture.md). On the GPU side (tclens_profiling).

#include <vector>

#include "profiling/launch_facts.h"
#include "profiling/profiler_error.h"
#include "profiling/range_profiler.h"

namespace tclens::profiling {

struct LaunchCapture {
    ProfilerError error;
    std::vector<KernelLaunch> launches;  // in completion order
};

// Runs `workload` once with CUPTI kernel activity records on and returns the launches it made.
// Call it outside a Range Profiler or PM sampling session. Errors: kOtherTool when another tool
// already subscribed to CUPTI, kFailed otherwise; the workload's own failure comes back as
// kFailed with its text. Thread-safe (one capture at a time).
LaunchCapture capture_launches(const Workload& workload);

}  // namespace tclens::profiling
