#include "app/gui/jobs/gui_worker.h"

#include <memory>

#include "app/gui/jobs/app_context.h"

namespace tclens::gui {

worker::WorkerClient& worker_client(AppContext& context) {
    if (!context.worker)
        context.worker = std::make_unique<worker::WorkerClient>(context.worker_options);
    return *context.worker;
}

worker::ProgressHandler job_progress(JobProgress& progress) {
    return [&progress](const worker::Progress& p) {
        const float fraction = p.index >= 0 && p.total > 0 ? float(p.index) / float(p.total) : 0;
        progress.report(fraction, p.stage + ": " + p.text);
    };
}

std::string worker_gpu_name(const worker::WorkerClient& client) {
    const auto& devices = client.worker().system.devices;
    return devices.empty() ? "" : devices.front().name;
}

std::string failure_line(const worker::Reply& reply) {
    return reply.message + (reply.worker_lost() ? "; a fresh worker starts at the next run" : "");
}

}  // namespace tclens::gui
