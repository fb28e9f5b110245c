#include "kernels/bench_selection.h"

#include <algorithm>

#include "common/text.h"
#include "kernels/registry.h"

namespace tclens::kernels {

std::vector<const KernelDescriptor*> bench_kernels(const std::vector<std::string>& ids,
                                                   std::string& error, bool with_references) {
    std::vector<std::string> wanted;
    for (const std::string& id : ids) {
        const KernelDescriptor* kernel = find_kernel(id);
        if (kernel == nullptr) {
            error =
                "unknown kernel '" + id + "'; valid: " +
                common::join(all_kernels(), ", ",
                             [](const KernelDescriptor& k) -> const std::string& { return k.id; });
            return {};
        }
        wanted.push_back(kernel->id);
        if (!with_references) continue;
        if (!kernel->reference_id.empty()) wanted.push_back(kernel->reference_id);
        if (kernel->precision == Precision::kTF32 && kernel->rung > 0)
            wanted.push_back("cublas.sgemm");
    }
    std::vector<const KernelDescriptor*> kernels;
    for (const KernelDescriptor& kernel : all_kernels()) {
        if (std::find(wanted.begin(), wanted.end(), kernel.id) != wanted.end())
            kernels.push_back(&kernel);
    }
    error.clear();
    return kernels;
}

}  // namespace tclens::kernels
