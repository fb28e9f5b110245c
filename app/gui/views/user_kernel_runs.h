#pragma once
// Kernels of yours (app/gui/jobs/user_kernel_job.h) as the results the rest of the GUI already
// draws: the one place where the worker's versions become bench rows and profiles. Each built
// version is named "<kernel id>.v<number>" ("yours.matmul_3.v2": no blank, so it is a valid
// Compare run id, yours.matmul_3.v2@4096x4096x4096), so that
//   - Compare lists every kept version next to the rungs and cuBLAS (compare_runs.h's live
//     source), "v7 next to v6" and "mine next to rung 8";
//   - File > Save recording as keeps them (recording_view.h's session_recording), and such a
//     recording opens with those rows;
//   - the Profile panel shows a version's profile cards like a rung's.
// Pure: no ImGui, no CUDA, no worker.

#include <memory>
#include <string>
#include <vector>

#include "app/gui/jobs/profile_job.h"
#include "app/gui/jobs/user_kernel_job.h"
#include "kernels/bench.h"
#include "profiling/kernel_profile.h"

namespace tclens::gui {

// "yours.matmul_3" and 2 -> "yours.matmul_3.v2".
std::string user_version_id(const std::string& kernel_id, int number);

struct UserKernelResults {
    // Per kernel, per version that has a bench row, in build order: the version's row (renamed),
    // then its same-run cuBLAS reference row as the worker measured it (once per reference id
    // and size: the first version's).
    std::vector<kernels::BenchRow> rows;
    // Every version's profile (renamed), in the same order.
    std::vector<profiling::KernelProfile> profiles;
    bool empty() const { return rows.empty() && profiles.empty(); }
};
UserKernelResults user_kernel_results(const UserKernels& kernels);

// The ids of the versions that have a profile, in the order of user_kernel_results.
std::vector<std::string> user_profiled_versions(const UserKernels& kernels);

// The Profile panel's snapshot of version `version_id`'s profile, drawn as a recorded one is
// (recording_view.h's recorded_profile: not running, one update, one history value per metric),
// device "<GPU of the profile>, yours (worker)". nullptr when no version of that id has a
// profile.
std::shared_ptr<const LiveProfile> user_version_profile(const UserKernels& kernels,
                                                        const std::string& version_id);

}  // namespace tclens::gui
