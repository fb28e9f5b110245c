#pragma once
// "Run" of the Kernels panel: a benchmark session (kernels/bench.h) in the worker
// (AppContext::worker, maybe on another host), one size per request
// (app/worker/bench_spread.h), with progress per run; cancel stops the worker at once and keeps
// the sizes that finished. The report replaces context.bench_results.

#include <string>

#include "app/gui/jobs/job_runner.h"
#include "kernels/bench.h"

namespace tclens::gui {

struct AppContext;

struct BenchResults {
    kernels::BenchRequest request;  // what was asked (request.run.cancel is cleared)
    std::string device;             // the worker's GPU name; "" when there is none
    // One line saying why nothing ran, or why the bench stopped (no GPU on the worker's host,
    // no worker, an unknown kernel, a worker lost); "" when it ran. `report` holds what finished.
    std::string error;
    bool cancelled = false;  // stopped early: `report` holds the runs that finished
    kernels::BenchReport report;
};

// Posts the bench ("Bench kernels"). The request is copied, and its run.cancel and loaded are
// ignored (kernels of yours have their own job): the job's own cancel (JobHandle::cancel) stops
// it, and the sizes that finished are published with `cancelled` set. Progress: fraction
// index / total, message "3/24 wmma.f16 4096x4096x4096".
JobHandle request_bench(AppContext& context, kernels::BenchRequest request);

}  // namespace tclens::gui
