#include "app/gui/jobs/trace_job.h"

#include <algorithm>
#include <memory>

#include "app/gui/jobs/app_context.h"
#include "app/gui/jobs/user_kernel_job.h"
#include "kernels/problem_text.h"
#include "kernels/registry.h"
#include "kernels/trace_capture.h"

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

// A kernel of yours traced in the worker: its file loaded (a new build of it), then traced.
// "" with `trace` filled, or why not in one line.
std::string trace_in_worker(AppContext& context, const std::string& ref,
                            const kernels::GemmProblem& problem, int blocks, JobProgress& progress,
                            viz::WarpTrace& trace) {
    worker::WorkerClient& client = worker_client(context);
    const worker::Reply loaded = client.call(worker::LoadRequest{ref, false, {}},
                                             job_progress(progress), &progress.cancel_flag());
    worker::LoadResult load;
    std::string error;
    if (!loaded.ok()) return loaded.message;
    if (!worker::load_from_json(loaded.result, load, error)) return "the worker's load: " + error;
    worker::TraceRequest request{load.id, problem, blocks, 1};
    worker::Reply reply = client.call(request, job_progress(progress), &progress.cancel_flag());
    worker::TraceResult result;
    if (!worker::read_result(reply, "trace", worker::trace_from_json, result)) return reply.message;
    trace = std::move(result.trace);
    return "";
}

}  // namespace

JobHandle request_traces(AppContext& context, std::vector<std::string> kernel_ids,
                         const kernels::GemmProblem& problem, int blocks) {
    return context.jobs.post(
        "Trace", [&context, kernel_ids, problem, blocks](JobProgress& progress) {
            const auto before = context.live_traces.latest();
            auto result =
                before ? std::make_shared<LiveTraces>(*before) : std::make_shared<LiveTraces>();
            result->error.clear();
            // Rungs run here, kernels of yours in the worker (which may have the GPU this
            // process lacks).
            const bool rungs =
                std::any_of(kernel_ids.begin(), kernel_ids.end(),
                            [&](const auto& id) { return user_kernel_ref(context, id).empty(); });
            std::unique_ptr<kernels::GemmRunner> runner;
            const auto system = context.system.latest();
            if (rungs && (!system || !system->has_gpu())) {
                result->error = "a trace needs an NVIDIA GPU" +
                                (system ? " (" + system->no_gpu_reason + ")" : std::string()) +
                                "; open a recording with traces or a trace file (tclens trace "
                                "--json) instead";
                context.live_traces.publish(std::move(result));
                return;
            }
            if (rungs) runner = std::make_unique<kernels::GemmRunner>();
            if (runner && !runner->init_error().empty()) {
                result->error = runner->init_error();
                context.live_traces.publish(std::move(result));
                return;
            }
            for (std::size_t i = 0; i < kernel_ids.size() && !progress.cancelled(); ++i) {
                const std::string& id = kernel_ids[i];
                progress.report(static_cast<float>(i) / static_cast<float>(kernel_ids.size()),
                                "tracing " + id + " " + kernels::problem_text(problem));
                viz::WarpTrace trace;
                std::string error;
                if (const std::string ref = user_kernel_ref(context, id); !ref.empty()) {
                    error = trace_in_worker(context, ref, problem, blocks, progress, trace);
                } else {
                    const kernels::KernelDescriptor* kernel = kernels::find_kernel(id);
                    error = kernel ? kernels::trace_blocks_error(*kernel, problem, blocks)
                                   : "no kernel '" + id + "'";
                    if (error.empty()) error = kernel->can_run(problem);
                    if (error.empty()) {
                        kernels::TraceCapture capture =
                            kernels::capture_trace(*runner, *kernel, problem, blocks, {});
                        error = capture.error;
                        trace = std::move(capture.trace);
                    }
                }
                if (error.empty()) {
                    auto& traces = result->traces;
                    traces.erase(
                        std::remove_if(traces.begin(), traces.end(),
                                       [&](const viz::WarpTrace& t) { return t.kernel == id; }),
                        traces.end());
                    traces.push_back(std::move(trace));
                }
                if (!error.empty()) result->error = id + ": " + error;
            }
            if (progress.cancelled()) return;
            context.live_traces.publish(std::move(result));
        });
}

}  // namespace tclens::gui
