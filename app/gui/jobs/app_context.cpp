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
            context.worker_hello.publish(std::make_shared<worker::HelloResult>(client.worker()));
        } else {
            report->no_gpu_reason = hello.message;
            context.worker_hello.publish(nullptr);
        }
        context.system.publish(std::move(report));
    });
}

void request_worker_switch(AppContext& context, worker::ClientOptions options) {
    context.worker_options = std::move(options);
    context.system.publish(nullptr);
    context.worker_hello.publish(nullptr);
    context.worker_status.publish(nullptr);
    context.jobs.post("Connect", [&context](JobProgress& progress) {
        progress.report(0.0f, "ending the worker");
        context.worker.reset();  // asks it to shut down; the next job starts a fresh one
    });
    request_system_query(context);
}

}  // namespace tclens::gui
