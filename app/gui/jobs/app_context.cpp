#include "app/gui/jobs/app_context.h"

namespace tclens::gui {

void request_system_query(AppContext& context) {
    context.jobs.post("Query GPU", [&context](JobProgress& progress) {
        progress.report(0.0f, "initialising CUDA");
        context.system.publish(
            std::make_shared<const profiling::SystemReport>(profiling::query_system()));
    });
}

}  // namespace tclens::gui
