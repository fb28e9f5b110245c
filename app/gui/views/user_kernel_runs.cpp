#include "app/gui/views/user_kernel_runs.h"

#include <algorithm>

#include "app/gui/views/recording_view.h"
#include "profiling/recording.h"

namespace tclens::gui {
namespace {

bool same_run(const kernels::BenchRow& a, const kernels::BenchRow& b) {
    const kernels::GemmProblem& p = a.result.problem;
    const kernels::GemmProblem& q = b.result.problem;
    return a.result.kernel_id == b.result.kernel_id && p.m == q.m && p.n == q.n && p.k == q.k;
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
        }
    }
    return results;
}

std::vector<std::string> user_profiled_versions(const UserKernels& kernels) {
    std::vector<std::string> ids;
    for (const profiling::KernelProfile& profile : user_kernel_results(kernels).profiles) {
        ids.push_back(profile.kernel_id);
    }
    return ids;
}

std::shared_ptr<const LiveProfile> user_version_profile(const UserKernels& kernels,
                                                        const std::string& version_id) {
    profiling::Recording holder;
    holder.profiles = user_kernel_results(kernels).profiles;
    const auto recorded = recorded_profile(holder, {version_id});
    if (!recorded || recorded->kernels.empty()) return nullptr;
    auto live = std::make_shared<LiveProfile>(*recorded);
    const std::string& gpu = live->kernels.front().latest->device;
    live->device = (gpu.empty() ? std::string("the worker's GPU") : gpu) + ", yours (worker)";
    return live;
}

}  // namespace tclens::gui
