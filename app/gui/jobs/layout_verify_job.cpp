#include "app/gui/jobs/layout_verify_job.h"

#include "app/gui/jobs/app_context.h"
#include "app/gui/jobs/gui_worker.h"
#include "app/worker/gpu_calls.h"

namespace tclens::gui {

JobHandle request_layout_verification(AppContext& context, const viz::FragmentLayout& model) {
    const std::string id = model.id;
    return context.jobs.post("Verify " + id, [&context, id](JobProgress& progress) {
        progress.report(0.1f, "probing " + id + " in the worker");
        auto verification = std::make_shared<LayoutVerification>();
        verification->id = id;
        worker::WorkerClient& client = worker_client(context);
        worker::LayoutVerifyResult result;
        const worker::Reply reply = worker::verify_layout(
            client, id, result, job_progress(progress), &progress.cancel_flag());
        if (reply.outcome == worker::Reply::Outcome::kCancelled) return;
        if (reply.ok()) {
            verification->device = result.device;
            verification->comparison = std::move(result.comparison);
        } else {
            verification->device = worker_gpu_name(client);
            verification->error = failure_line(reply);
        }
        context.layout_verification.publish(std::move(verification));
    });
}

}  // namespace tclens::gui
