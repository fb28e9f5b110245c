#pragma once
// "Trace on GPU" of the Timeline panel on the job runner: the traced variant of each asked kernel
// traced in the worker (a `trace` request: kernels/trace_capture.h there, verified, timed, its
// first N blocks' phases read back; never in this process), published into
// AppContext::live_traces together with the traces taken before (the newest per kernel), so rung
// 9 and rung 10 can be traced one after the other and shown side by side. A kernel of yours (an
// id of context.user_kernels) is loaded from its file first. A request the worker refuses (no GPU
// where it runs, no trace points, too many blocks) or a worker that is lost publishes the error,
// one line, with the traces kept; never an exception into the runner.

#include <memory>
#include <string>
#include <vector>

#include "app/gui/jobs/job_runner.h"
#include "kernels/gemm.h"
#include "viz/warp_trace.h"

namespace tclens::gui {

struct AppContext;

// The traces taken in the worker in this session.
struct LiveTraces {
    std::vector<viz::WarpTrace> traces;  // one per kernel id, the newest
    std::string error;                   // why the last job left a kernel untraced, or ""
};

// The trace of `kernel_id` in `traces`, nullptr when there is none.
const viz::WarpTrace* find_trace(const std::vector<viz::WarpTrace>& traces,
                                 const std::string& kernel_id);

// Posts the job for `kernel_ids` (in order) on `problem`, tracing the first `blocks` blocks.
JobHandle request_traces(AppContext& context, std::vector<std::string> kernel_ids,
                         const kernels::GemmProblem& problem, int blocks);

}  // namespace tclens::gui
