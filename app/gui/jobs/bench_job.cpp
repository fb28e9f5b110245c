#include "app/gui/jobs/bench_job.h"

#include "app/gui/jobs/app_context.h"
#include "kernels/fault_injection.h"
#include "kernels/problem_text.h"

namespace tclens::gui {
namespace {

// "" when the request names at least one known kernel and one size, else why not.
std::string request_error(const kernels::BenchRequest& request) {
    if (request.kernel_ids.empty()) return "no kernels selected";
    if (request.problems.empty()) return "no sizes given";
    std::string error;
    kernels::bench_kernels(request.kernel_ids, error);
    return error;
}

}  // namespace

JobHandle request_bench(AppContext& context, kernels::BenchRequest request) {
    request.run.cancel = nullptr;
    return context.jobs.post("Bench kernels", [&context, request](JobProgress& progress) {
        auto result = std::make_shared<BenchResults>();
        result->request = request;
        const auto system = context.system.latest();
        if (system && system->has_gpu()) result->device = system->devices.front().name;
        result->error = request_error(request);
        if (!result->error.empty()) {
            context.bench_results.publish(std::move(result));
            return;
        }
        progress.report(0.0f, "initialising CUDA");
        kernels::GemmRunner runner;
        // An injected launch failure is reported on every row, GPU or not (fault_injection.h).
        if (!runner.init_error().empty() &&
            kernels::injected_fault() != kernels::Fault::kLaunchFailure) {
            result->error = runner.init_error();
            context.bench_results.publish(std::move(result));
            return;
        }
        kernels::BenchRequest run = request;
        run.run.cancel = &progress.cancel_flag();  // checked between launches, not only runs
        if (run.measure_peaks) progress.report(0.0f, "measuring peaks");
        result->report = kernels::run_bench(
            run, runner,
            [&progress](int index, int total, const kernels::KernelDescriptor& kernel,
                        const kernels::GemmProblem& problem) {
                progress.report(float(index) / float(total),
                                std::to_string(index + 1) + "/" + std::to_string(total) + " " +
                                    kernel.id + " " + kernels::problem_text(problem));
            });
        result->cancelled = progress.cancelled();
        context.bench_results.publish(std::move(result));
    });
}

}  // namespace tclens::gui
