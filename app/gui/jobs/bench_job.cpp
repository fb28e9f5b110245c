#include "app/gui/jobs/bench_job.h"

#include <memory>
#include <vector>

#include "app/gui/jobs/app_context.h"
#include "app/gui/jobs/gui_worker.h"
#include "app/worker/bench_spread.h"
#include "kernels/bench_selection.h"

namespace tclens::gui {
namespace {

// "" when the request names at least one known kernel and one size, else why not.
std::string request_error(const worker::BenchRequest& request) {
    if (request.kernels.empty()) return "no kernels selected";
    if (request.problems.empty()) return "no sizes given";
    std::string error;
    kernels::bench_kernels(request.kernels, error);
    return error;
}

}  // namespace

JobHandle request_bench(AppContext& context, worker::BenchRequest request, int workers) {
    return context.jobs.post("Bench kernels", [&context, request, workers](JobProgress& progress) {
        auto result = std::make_shared<BenchResults>();
        result->request = request;
        result->error = request_error(request);
        if (!result->error.empty()) {
            context.bench_results.publish(std::move(result));
            return;
        }
        // Every run is announced by the worker ("run" progress): counted here across the sizes.
        std::string unused;
        const int total =
            int(kernels::bench_kernels(request.kernels, unused, request.references).size() *
                request.problems.size());
        int started = 0;
        progress.report(0.0f, "starting the worker");
        worker::BorrowedSpreadWorker own(worker_client(context));
        std::vector<std::unique_ptr<worker::ClientSpreadWorker>> more;
        std::vector<worker::SpreadWorker*> spread_over = {&own};
        const bool users_command =
            context.worker_options.command != worker::default_worker_command();
        for (int gpu = 1; gpu < workers; ++gpu) {
            more.push_back(std::make_unique<worker::ClientSpreadWorker>(
                worker::worker_on_gpu(context.worker_options, gpu, users_command)));
            spread_over.push_back(more.back().get());
        }
        const worker::SpreadBench spread = worker::spread_bench(
            spread_over, request,
            [&](int, const worker::Progress& p) {
                if (p.stage != "run") return progress.report(0.0f, p.stage + ": " + p.text);
                ++started;
                progress.report(
                    float(started - 1) / float(total),
                    std::to_string(started) + "/" + std::to_string(total) + " " + p.text);
            },
            &progress.cancel_flag());
        const worker::HelloResult& hello = spread.workers.front();
        if (!hello.system.devices.empty()) result->device = hello.system.devices.front().name;
        result->report = spread.report;
        for (const worker::HelloResult& worker : spread.workers)
            result->workers.push_back({worker.host, worker.system});
        result->row_worker = spread.row_worker;
        result->notes = spread.notes;
        result->cancelled = progress.cancelled();
        if (spread.failure && !result->cancelled) result->error = spread.failure->message;
        context.bench_results.publish(std::move(result));
    });
}

}  // namespace tclens::gui
