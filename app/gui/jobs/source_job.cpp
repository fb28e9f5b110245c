#include "app/gui/jobs/source_job.h"

#include <memory>

#include "app/gui/jobs/app_context.h"
#include "app/gui/jobs/gui_worker.h"
#include "app/worker/gpu_calls.h"
#include "kernels/problem_text.h"

namespace tclens::gui {

void publish_source_failure(AppContext& context, const std::string& kernel_id,
                            const kernels::GemmProblem& problem, std::string message) {
    auto profile = std::make_shared<profiling::SourceProfile>();
    profile->kernel_id = kernel_id;
    profile->problem = problem;
    profile->error =
        profiling::profiler_error(profiling::ProfilerProblem::kFailed, std::move(message));
    context.source_profile.publish(std::move(profile));
}

std::unique_ptr<worker::WorkerClient> source_worker(const AppContext& context) {
    return std::make_unique<worker::WorkerClient>(context.worker_options);
}

void publish_worker_source_profile(AppContext& context, worker::WorkerClient& client,
                                   JobProgress& progress, const std::string& worker_id,
                                   const std::string& shown_id,
                                   const kernels::GemmProblem& problem) {
    worker::WorkerSourceRequest request;
    request.kernel = worker_id;
    request.problem = problem;
    worker::SourceResult result;
    const worker::Reply reply = worker::take_source_profile(
        client, request, result, job_progress(progress), &progress.cancel_flag());
    if (reply.outcome == worker::Reply::Outcome::kCancelled) return;
    if (!reply.ok()) return publish_source_failure(context, shown_id, problem, failure_line(reply));
    context.source_profile.publish(
        std::make_shared<profiling::SourceProfile>(std::move(result.profile)));
}

JobHandle request_source_profile(AppContext& context, const std::string& kernel_id,
                                 const kernels::GemmProblem& problem) {
    return context.jobs.post("Source profile", [&context, kernel_id,
                                                problem](JobProgress& progress) {
        progress.report(0.1f, "sampling " + kernel_id + " " + kernels::problem_text(problem));
        const auto client = source_worker(context);
        publish_worker_source_profile(context, *client, progress, kernel_id, kernel_id, problem);
    });
}

}  // namespace tclens::gui
