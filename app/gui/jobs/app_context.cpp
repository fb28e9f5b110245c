#include "app/gui/jobs/app_context.h"

#include "app/gui/jobs/gui_worker.h"

namespace tclens::gui {

void request_system_query(AppContext& context) {
    context.jobs.post("Query GPU", [&context](JobProgress& progress) {
        progress.report(0.0f, "asking the worker");
        worker::WorkerClient& client = worker_client(context);
        const worker::Reply hello = client.connect(&progress.cancel_flag());
        if (hello.outcome == worker::Reply::Outcome::kCancelled) return;
        auto report = std::make_shared<profiling::SystemReport>();
        if (hello.ok()) {
            *report = client.worker().system;
        } else {
            report->no_gpu_reason = hello.message;
        }
        context.system.publish(std::move(report));
    });
}

}  // namespace tclens::gui
