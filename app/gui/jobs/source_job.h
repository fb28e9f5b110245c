#pragma once
// "Profile on GPU" of the Source panel on the job runner: one source profile of a kernel on a
// size, taken in the worker (a `source` request: profiling/source/source_collector.h there, never
// in this process), published whole into AppContext::source_profile. What fails (no GPU where the
// worker runs, a size the kernel cannot run, a worker lost) is published as the profile's error,
// one line; never an exception into the runner.

#include <memory>
#include <string>

#include "app/gui/jobs/job_runner.h"
#include "app/worker/client.h"
#include "kernels/gemm.h"

namespace tclens::gui {

struct AppContext;

// Posts the job for a registry kernel ("Source profile"); the panel follows it through the
// handle.
JobHandle request_source_profile(AppContext& context, const std::string& kernel_id,
                                 const kernels::GemmProblem& problem);

// A worker of the GUI's kind (AppContext::worker_options) for one source profile, not the GUI's
// worker: in a process where a kernel already ran (a bench, a trace), CUPTI 13.0 gives it no PC
// samples (tests/gpu/results/2026-11-29_h200_session15/). It shuts down when it goes.
std::unique_ptr<worker::WorkerClient> source_worker(const AppContext& context);

// On the job runner: takes the source profile of `worker_id` (a registry id, or the id a `load`
// gave a kernel of yours) at `problem` in `client` (a source_worker) and publishes it, or a
// profile of `shown_id` whose error says why not. Publishes nothing when the job was cancelled.
void publish_worker_source_profile(AppContext& context, worker::WorkerClient& client,
                                   JobProgress& progress, const std::string& worker_id,
                                   const std::string& shown_id,
                                   const kernels::GemmProblem& problem);

// Publishes a profile of `kernel_id` at `problem` that failed with `message` (one line).
void publish_source_failure(AppContext& context, const std::string& kernel_id,
                            const kernels::GemmProblem& problem, std::string message);

}  // namespace tclens::gui
