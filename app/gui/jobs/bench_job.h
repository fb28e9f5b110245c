#pragma once
// "Run" of the Kernels panel: a benchmark session (kernels/bench.h) on the job runner, with a
// GemmRunner created on the runner's thread, progress per run and cancel between launches. The
// report replaces context.bench_results.

#include <string>

#include "app/gui/jobs/job_runner.h"
#include "kernels/bench.h"

namespace tclens::gui {

struct AppContext;

struct BenchResults {
    kernels::BenchRequest request;  // what was asked (request.run.cancel is cleared)
    std::string device;             // GPU name; "" when there is none
    // One line saying why nothing ran (no GPU, CUDA initialisation failed, unknown kernel);
    // "" when the bench ran. `report` is then empty.
    std::string error;
    bool cancelled = false;  // stopped early: `report` holds the runs that finished
    kernels::BenchReport report;
};

// Posts the bench ("Bench kernels"). The request is copied, and its run.cancel is ignored: the
// job's own cancel (JobHandle::cancel) stops it between launches, and the runs that finished are
// published with `cancelled` set. Progress: fraction index / total, message
// "3/24 wmma.f16 4096x4096x4096".
JobHandle request_bench(AppContext& context, kernels::BenchRequest request);

}  // namespace tclens::gui
