#include "app/cli/profiler_args.h"

#include "common/text.h"
#include "kernels/registry.h"
#include "profiling/metric_catalogue.h"

namespace tclens::cli {

std::string unknown_kernel_message(const std::string& id) {
    std::string closest;
    std::size_t best = id.size() / 2 + 2;
    for (const kernels::KernelDescriptor& kernel : kernels::all_kernels()) {
        const std::size_t distance = profiling::edit_distance(id, kernel.id);
        if (distance < best) {
            best = distance;
            closest = kernel.id;
        }
    }
    return "unknown kernel '" + id + "'" +
           (closest.empty() ? "" : "; did you mean " + closest + "?") +
           " (valid: " + kernels::kernel_ids_text() + ")";
}

}  // namespace tclens::cli
