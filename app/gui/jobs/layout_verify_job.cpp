#include "app/gui/jobs/layout_verify_job.h"

#include "app/gui/jobs/app_context.h"

namespace tclens::gui {

JobHandle request_layout_verification(AppContext& context, const viz::FragmentLayout& model) {
    return context.jobs.post("Verify " + model.id, [&context, model](JobProgress& progress) {
        progress.report(0.1f, "running the probe");
        auto result = std::make_shared<LayoutVerification>();
        result->id = model.id;
        const auto system = context.system.latest();
        if (system && system->has_gpu()) result->device = system->devices.front().name;
        result->measured = kernels::measure_fragment_layout(model);
        result->comparison = kernels::compare_layouts(model, result->measured);
        context.layout_verification.publish(std::move(result));
    });
}

}  // namespace tclens::gui
