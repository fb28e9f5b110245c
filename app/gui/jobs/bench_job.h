#pragma once
// "Run" of the Kernels panel: a benchmark session (kernels/bench.h) on the job runner, with a
// GemmRunner created on the runner's thread, progress per run and cancel between launches. The
// report replaces context.bench_results.

#include <cstdint>
#include <string>

#include "kernels/bench.h"

namespace tclens::gui {

struct AppContext;

// Title of the bench job in JobStatus, so a panel can tell its job from others.
inline constexpr const char* kBenchJobTitle = "Bench kernels";

struct BenchResults {
    kernels::BenchRequest request;  // what was asked (request.run.cancel is cleared)
    std::string device;             // GPU name; "" when there is none
    // One line saying why nothing ran (no GPU, CUDA initialisation failed, unknown kernel);
    // "" when the bench ran. `report` is then empty.
    std::string error;
    bool cancelled = false;  // stopped early: `report` holds the runs that finished
    kernels::BenchReport report;
};

// Posts the bench; returns the job id (JobRunner::post). The request is copied, and its
// run.cancel is ignored: the job's own cancel (JobRunner::cancel_current) stops it between
// launches. Progress: fraction index / total, message "3/24 wmma.f16 4096x4096x4096".
std::uint64_t request_bench(AppContext& context, kernels::BenchRequest request);

}  // namespace tclens::gui
