#pragma once
// "Run" of the Kernels panel: a benchmark session (a worker's bench request) in the worker
// (AppContext::worker, maybe on another host), one size per request
// (app/worker/bench_spread.h), with progress per run; cancel stops the worker at once and keeps
// the sizes that finished. Over several workers, the sizes are spread over the GUI's worker and
// more started for the job, each on a GPU of its own, and every row names the GPU it ran on. The
// report replaces context.bench_results.

#include <string>
#include <vector>

#include "app/gui/jobs/job_runner.h"
#include "app/worker/requests.h"
#include "kernels/bench_result.h"
#include "profiling/recording.h"

namespace tclens::gui {

struct AppContext;

struct BenchResults {
    worker::BenchRequest request;  // what was asked
    std::string device;            // the worker's GPU name; "" when there is none
    // One line saying why nothing ran, or why the bench stopped (no GPU on the worker's host,
    // no worker, an unknown kernel, a worker lost); "" when it ran. `report` holds what finished.
    std::string error;
    bool cancelled = false;  // stopped early: `report` holds the runs that finished
    kernels::BenchReport report;
    // Who ran the rows: each worker's host and device report, and per row of `report` its index
    // in `workers` (as a recording keeps them, profiling/recording.h). Empty: the rows name no
    // worker.
    std::vector<profiling::RecordingWorker> workers;
    std::vector<int> row_worker;
    std::vector<std::string> notes;  // one line per worker lost during the bench
};

// Posts the bench ("Bench kernels"), registry kernels only (kernels of yours have their own job).
// The request is copied; the job's cancel (JobHandle::cancel) stops it, and the sizes that
// finished are published with `cancelled` set. Progress: fraction
// index / total, message "3/24 wmma.f16 4096x4096x4096".
// `workers` (1-64): the sizes are spread over the GUI's worker and workers - 1 more started for
// this job as AppContext::worker_options says, the i-th pinned to GPU i of its host
// (worker::worker_on_gpu: a --worker command of the user's is started as it is), ended with it.
// A worker lost during the bench gives its size to the others (`notes` says so).
JobHandle request_bench(AppContext& context, worker::BenchRequest request, int workers = 1);

}  // namespace tclens::gui
