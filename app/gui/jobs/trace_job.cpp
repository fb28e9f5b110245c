#include "app/gui/jobs/trace_job.h"

#include <algorithm>

#include "app/gui/jobs/app_context.h"
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

JobHandle request_traces(AppContext& context, std::vector<std::string> kernel_ids,
                         const kernels::GemmProblem& problem, int blocks) {
    return context.jobs.post(
        "Trace", [&context, kernel_ids, problem, blocks](JobProgress& progress) {
            const auto before = context.live_traces.latest();
            auto result =
                before ? std::make_shared<LiveTraces>(*before) : std::make_shared<LiveTraces>();
            result->error.clear();
            const auto system = context.system.latest();
            if (!system || !system->has_gpu()) {
                result->error = "a trace needs an NVIDIA GPU" +
                                (system ? " (" + system->no_gpu_reason + ")" : std::string()) +
                                "; open a recording with traces or a trace file (tclens trace "
                                "--json) instead";
                context.live_traces.publish(std::move(result));
                return;
            }
            kernels::GemmRunner runner;
            if (!runner.init_error().empty()) {
                result->error = runner.init_error();
                context.live_traces.publish(std::move(result));
                return;
            }
            for (std::size_t i = 0; i < kernel_ids.size() && !progress.cancelled(); ++i) {
                const std::string& id = kernel_ids[i];
                progress.report(static_cast<float>(i) / static_cast<float>(kernel_ids.size()),
                                "tracing " + id + " " + kernels::problem_text(problem));
                const kernels::KernelDescriptor* kernel = kernels::find_kernel(id);
                std::string error = kernel ? kernels::trace_blocks_error(*kernel, problem, blocks)
                                           : "no kernel '" + id + "'";
                if (error.empty()) error = kernel->can_run(problem);
                if (error.empty()) {
                    kernels::TraceCapture capture =
                        kernels::capture_trace(runner, *kernel, problem, blocks, {});
                    error = capture.error;
                    if (error.empty()) {
                        auto& traces = result->traces;
                        traces.erase(
                            std::remove_if(traces.begin(), traces.end(),
                                           [&](const viz::WarpTrace& t) { return t.kernel == id; }),
                            traces.end());
                        traces.push_back(std::move(capture.trace));
                    }
                }
                if (!error.empty()) result->error = id + ": " + error;
            }
            if (progress.cancelled()) return;
            context.live_traces.publish(std::move(result));
        });
}

}  // namespace tclens::gui
