#include "app/gui/jobs/source_job.h"

#include <memory>

#include "app/gui/jobs/app_context.h"
#include "kernels/fault_injection.h"
#include "kernels/problem_text.h"
#include "profiling/source/source_collector.h"

namespace tclens::gui {

JobHandle request_source_profile(AppContext& context, const std::string& kernel_id,
                                 const kernels::GemmProblem& problem) {
    return context.jobs.post("Source profile", [&context, kernel_id,
                                                problem](JobProgress& progress) {
        const auto system = context.system.latest();
        // An injected launch or CUPTI fault is reported where it strikes, GPU or not
        // (fault_injection.h).
        if ((!system || !system->has_gpu()) &&
            !kernels::strikes_after_device_checks(kernels::injected_fault())) {
            auto refused = std::make_shared<profiling::SourceProfile>();
            refused->kernel_id = kernel_id;
            refused->problem = problem;
            refused->error = profiling::profiler_error(
                profiling::ProfilerProblem::kNoGpu,
                "a source profile needs an NVIDIA GPU" +
                    (system ? " (" + system->no_gpu_reason + ")" : std::string()) +
                    "; open a recording with source profiles instead (File > Open recording)");
            context.source_profile.publish(std::move(refused));
            return;
        }
        progress.report(0.1f, "sampling " + kernel_id + " " + kernels::problem_text(problem));
        profiling::SourceRequest request;
        request.kernel_id = kernel_id;
        request.problem = problem;
        auto profile =
            std::make_shared<profiling::SourceProfile>(profiling::collect_source_profile(request));
        if (progress.cancelled()) return;
        context.source_profile.publish(std::move(profile));
    });
}

}  // namespace tclens::gui
