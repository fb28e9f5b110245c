#pragma once
// The GUI's one worker (AppContext::worker, app/worker/client.h): every job that touches a GPU
// sends its requests there, on the job runner's one thread, so no two calls overlap. Where the
// worker runs (this machine, --remote, $TCLENS_WORKER, File > Connect to GPU server...) is
// AppContext::worker_options.

#include <string>

#include "app/gui/jobs/job_runner.h"
#include "app/worker/client.h"

namespace tclens::gui {

struct AppContext;

// The GUI's worker client, started at its first use. Job runner thread only.
worker::WorkerClient& worker_client(AppContext& context);

// The worker's progress as the job's message: "run: yours.x 4096x4096x4096".
worker::ProgressHandler job_progress(JobProgress& progress);

// The name of the first GPU the worker's hello named; "" before a hello or without a GPU.
std::string worker_gpu_name(const worker::WorkerClient& client);

// A failed reply as the one line a panel shows: its message, and when the worker is gone, that a
// fresh one starts at the next job.
std::string failure_line(const worker::Reply& reply);

}  // namespace tclens::gui
