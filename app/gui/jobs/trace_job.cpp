#include "app/gui/jobs/trace_job.h"

#include <algorithm>
#include <memory>

#include "app/gui/jobs/app_context.h"
#include "app/gui/jobs/gui_worker.h"
#include "app/gui/jobs/user_kernel_job.h"
#include "app/worker/gpu_calls.h"
#include "kernels/problem_text.h"

namespace tclens::gui {

const viz::WarpTrace* find_trace(const std::vector<viz::WarpTrace>& traces,
                                 const std::string& kernel_id) {
    const auto it = std::find_if(traces.begin(), traces.end(),
                                 [&](const viz::WarpTrace& t) { return t.kernel == kernel_id; });
    return it == traces.end() ? nullptr : &*it;
}

namespace {

// The ref a kernel of yours was opened from (context.user_kernels), or "" when `id` is none.
std::string user_kernel_ref(AppContext& context, const std::string& id) {
    const auto kernels = context.user_kernels.latest();
    if (!kernels) return "";
    for (const UserKernel& kernel : kernels->kernels) {
        if (kernel.id == id) return kernel.ref;
    }
    return "";
}

// `id` traced in the worker: a kernel of yours (`ref` not "") loaded first (a new build of its
// file), then the `trace` request. "" with `trace` filled, or why not in one line; `cancelled`
// set when the job's cancel stopped it.
std::string trace_in_worker(AppContext& context, const std::string& id, const std::string& ref,
                            const kernels::GemmProblem& problem, int blocks, JobProgress& progress,
                            viz::WarpTrace& trace, bool& cancelled) {
    worker::WorkerClient& client = worker_client(context);
    worker::TraceRequest request{id, problem, blocks, 1};
    if (!ref.empty()) {
        worker::Reply loaded = client.call(worker::LoadRequest{ref, false, {}},
                                           job_progress(progress), &progress.cancel_flag());
        worker::LoadResult load;
        cancelled = loaded.outcome == worker::Reply::Outcome::kCancelled;
        if (!worker::read_result(loaded, "load", worker::load_from_json, load))
            return failure_line(loaded);
        request.kernel = load.id;
    }
    worker::TraceResult result;
    const worker::Reply reply = worker::take_trace(client, request, result, job_progress(progress),
                                                   &progress.cancel_flag());
    cancelled = reply.outcome == worker::Reply::Outcome::kCancelled;
    if (!reply.ok()) return failure_line(reply);
    trace = std::move(result.trace);
    return "";
}

// `traces` with `trace` in place of the one of its kernel.
void keep_newest(std::vector<viz::WarpTrace>& traces, viz::WarpTrace trace) {
    traces.erase(std::remove_if(traces.begin(), traces.end(),
                                [&](const viz::WarpTrace& t) { return t.kernel == trace.kernel; }),
                 traces.end());
    traces.push_back(std::move(trace));
}

}  // namespace

JobHandle request_traces(AppContext& context, std::vector<std::string> kernel_ids,
                         const kernels::GemmProblem& problem, int blocks) {
    return context.jobs.post("Trace", [&context, kernel_ids, problem,
                                       blocks](JobProgress& progress) {
        const auto before = context.live_traces.latest();
        auto result =
            before ? std::make_shared<LiveTraces>(*before) : std::make_shared<LiveTraces>();
        result->error.clear();
        for (std::size_t i = 0; i < kernel_ids.size(); ++i) {
            const std::string& id = kernel_ids[i];
            progress.report(static_cast<float>(i) / static_cast<float>(kernel_ids.size()),
                            "tracing " + id + " " + kernels::problem_text(problem));
            viz::WarpTrace trace;
            bool cancelled = false;
            const std::string error = trace_in_worker(context, id, user_kernel_ref(context, id),
                                                      problem, blocks, progress, trace, cancelled);
            if (cancelled) return;
            if (error.empty()) {
                keep_newest(result->traces, std::move(trace));
            } else {
                result->error = id + ": " + error;
            }
        }
        context.live_traces.publish(std::move(result));
    });
}

}  // namespace tclens::gui
