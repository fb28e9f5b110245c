#include "profiling/built_in_mixes.h"

#include "kernels/instruction_mix.h"
#include "kernels/registry.h"

namespace tclens::profiling {

std::vector<RecordedInstructionMix> built_in_mixes(const std::vector<std::string>& kernel_ids,
                                                   int sm, std::string& missing) {
    std::vector<RecordedInstructionMix> mixes;
    missing.clear();
    for (const std::string& id : kernel_ids) {
        if (find_mix(mixes, id)) continue;
        if (const kernels::InstructionMix* mix = kernels::instruction_mix(id, sm)) {
            mixes.push_back({id, sm, *mix});
        } else if (missing.empty()) {
            const kernels::KernelDescriptor* kernel = kernels::find_kernel(id);
            if (!kernel || kernel->rung != 0) missing = kernels::instruction_mix_missing(id, sm);
        }
    }
    if (!mixes.empty()) missing.clear();
    return mixes;
}

}  // namespace tclens::profiling
