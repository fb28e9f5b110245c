#include "app/worker/worker_mix.h"

#include "kernels/instruction_mix.h"
#include "kernels/registry.h"
#include "profiling/built_in_mixes.h"

namespace tclens::worker {
namespace {

// A cuBLAS reference: no census has its SASS (not our binary).
bool is_cublas(const std::string& kernel_id) {
    const kernels::KernelDescriptor* kernel = kernels::find_kernel(kernel_id);
    return kernel != nullptr && kernel->rung == 0;
}

// Why `hello`'s mixes hold none for `kernel_id`: what no census can have (an unknown id,
// cuBLAS), else the worker's reason, else that its census lacks the kernel's function.
std::string missing_in_hello(const HelloResult& hello, const std::string& kernel_id) {
    const int sm = mix_sm(hello.system);
    if (is_cublas(kernel_id) || kernels::find_kernel(kernel_id) == nullptr) {
        return kernels::instruction_mix_missing(kernel_id, sm);
    }
    if (!hello.mixes->missing.empty()) return hello.mixes->missing;
    return "the worker's build has no SASS of it for sm_" + std::to_string(sm);
}

}  // namespace

int mix_sm(const profiling::SystemReport& system) {
    if (!system.has_gpu()) return kernels::kDefaultMixSm;
    return system.devices.front().cc_major * 10 + system.devices.front().cc_minor;
}

WorkerMixes this_build_mixes(int sm) {
    std::vector<std::string> ids;
    for (const kernels::KernelDescriptor& kernel : kernels::all_kernels()) ids.push_back(kernel.id);
    WorkerMixes mixes;
    mixes.mixes = profiling::built_in_mixes(ids, sm, mixes.missing);
    return mixes;
}

KernelMix worker_mix(const HelloResult* hello, const std::string& kernel_id, int sm) {
    KernelMix shown;
    if (hello == nullptr || !hello->mixes) {
        if (const kernels::InstructionMix* mix = kernels::instruction_mix(kernel_id, sm)) {
            shown.mix = *mix;
        } else {
            shown.missing = kernels::instruction_mix_missing(kernel_id, sm);
        }
        shown.line = kernels::instruction_mix_line(kernel_id, sm);
        return shown;
    }
    if (const profiling::RecordedInstructionMix* told =
            profiling::find_mix(hello->mixes->mixes, kernel_id)) {
        shown.mix = told->mix;
        shown.line = "SASS of " + kernel_id + " (" + told->mix.arch +
                     ", the worker's build): " + kernels::instruction_mix_text(told->mix);
        return shown;
    }
    shown.missing = missing_in_hello(*hello, kernel_id);
    shown.line = "SASS of " + kernel_id + ": " + shown.missing;
    return shown;
}

std::vector<profiling::RecordedInstructionMix> worker_mixes(
    const HelloResult* hello, const std::vector<std::string>& kernel_ids, int sm,
    std::string& missing) {
    if (hello == nullptr || !hello->mixes)
        return profiling::built_in_mixes(kernel_ids, sm, missing);
    std::vector<profiling::RecordedInstructionMix> mixes;
    missing.clear();
    for (const std::string& id : kernel_ids) {
        if (profiling::find_mix(mixes, id)) continue;
        if (const profiling::RecordedInstructionMix* told =
                profiling::find_mix(hello->mixes->mixes, id)) {
            mixes.push_back(*told);
        } else if (missing.empty() && !is_cublas(id)) {
            missing = missing_in_hello(*hello, id);
        }
    }
    if (!mixes.empty()) missing.clear();
    return mixes;
}

}  // namespace tclens::worker
