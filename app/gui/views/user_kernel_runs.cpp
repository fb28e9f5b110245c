#include "app/gui/views/user_kernel_runs.h"

#include <algorithm>

#include "app/gui/views/recording_view.h"
#include "kernels/instruction_mix.h"
#include "profiling/recording.h"

namespace tclens::gui {
namespace {

bool same_run(const kernels::BenchRow& a, const kernels::BenchRow& b) {
    const kernels::GemmProblem& p = a.result.problem;
    const kernels::GemmProblem& q = b.result.problem;
    return a.result.kernel_id == b.result.kernel_id && kernels::same_problem(p, q);
}

}  // namespace

std::string user_version_id(const std::string& kernel_id, int number) {
    return kernel_id + ".v" + std::to_string(number);
}

UserKernelResults user_kernel_results(const UserKernels& kernels) {
    UserKernelResults results;
    for (const UserKernel& kernel : kernels.kernels) {
        for (const worker::WatchVersion& version : kernel.versions) {
            if (version.row) {
                kernels::BenchRow row = *version.row;
                row.result.kernel_id = user_version_id(row.result.kernel_id, version.number);
                results.rows.push_back(std::move(row));
            }
            if (version.reference && std::none_of(results.rows.begin(), results.rows.end(),
                                                  [&](const kernels::BenchRow& r) {
                                                      return same_run(r, *version.reference);
                                                  })) {
                results.rows.push_back(*version.reference);
            }
            if (version.profile) {
                profiling::KernelProfile profile = *version.profile;
                profile.kernel_id = user_version_id(profile.kernel_id, version.number);
                results.profiles.push_back(std::move(profile));
            }
            if (version.timeline) {
                profiling::KernelTimeline timeline = *version.timeline;
                timeline.kernel_id = user_version_id(timeline.kernel_id, version.number);
                results.timelines.push_back(std::move(timeline));
            }
            if (version.mix) {
                profiling::RecordedInstructionMix mix = *version.mix;
                mix.kernel_id = user_version_id(mix.kernel_id, version.number);
                results.mixes.push_back(std::move(mix));
            }
        }
    }
    return results;
}

namespace {

// The versions' profiles and timelines as a recording holds them, for recording_view.h's readers.
profiling::Recording profiles_holder(const UserKernels& kernels) {
    profiling::Recording holder;
    UserKernelResults results = user_kernel_results(kernels);
    holder.profiles = std::move(results.profiles);
    holder.timelines = std::move(results.timelines);
    return holder;
}

}  // namespace

std::vector<std::string> user_profiled_versions(const UserKernels& kernels) {
    std::vector<std::string> ids;
    for (const UserKernel& kernel : kernels.kernels) {
        for (const worker::WatchVersion& version : kernel.versions) {
            if (version.profile || version.timeline)
                ids.push_back(user_version_id(kernel.id, version.number));
        }
    }
    return ids;
}

std::shared_ptr<const LiveProfile> user_version_profile(const UserKernels& kernels,
                                                        const std::string& version_id) {
    const auto recorded = recorded_profile(profiles_holder(kernels), {version_id});
    if (!recorded) return nullptr;
    auto live = std::make_shared<LiveProfile>(*recorded);
    const std::string& gpu =
        live->kernels.empty() ? live->timeline->device : live->kernels.front().latest->device;
    live->device = (gpu.empty() ? std::string("the worker's GPU") : gpu) + ", yours (worker)";
    return live;
}

ShownMix user_version_mix(const UserKernels& kernels, const std::string& version_id) {
    for (const UserKernel& kernel : kernels.kernels) {
        for (const worker::WatchVersion& version : kernel.versions) {
            if (user_version_id(kernel.id, version.number) != version_id) continue;
            if (version.mix) {
                return {version.mix->mix,
                        "SASS of " + version_id + " (" + version.mix->mix.arch +
                            ", its cubin): " + kernels::instruction_mix_text(version.mix->mix)};
            }
            return {std::nullopt, "SASS of " + version_id + ": " +
                                      (version.mix_missing.empty() ? std::string("not read")
                                                                   : version.mix_missing)};
        }
    }
    return {std::nullopt, "SASS of " + version_id + ": no such version"};
}

}  // namespace tclens::gui
