#pragma once
// Kernels of yours (app/gui/jobs/user_kernel_job.h) as the results the rest of the GUI already
// draws: the one place where the worker's versions become bench rows and profiles. Each built
// version is named "<kernel id>.v<number>" ("yours.matmul_3.v2": no blank, so it is a valid
// Compare run id, yours.matmul_3.v2@4096x4096x4096), so that
//   - Compare lists every kept version next to the rungs and cuBLAS (compare_runs.h's live
//     source), "v7 next to v6" and "mine next to rung 8";
//   - File > Save recording as keeps them (recording_view.h's session_recording) with their
//     profiles, PM timelines and instruction mixes, and such a recording opens with those rows;
//   - the Profile panel shows a version's profile cards, PM timeline and instruction mix like a
//     rung's.
// Pure: no ImGui, no CUDA, no worker.

#include <memory>
#include <string>
#include <vector>

#include "app/gui/jobs/profile_job.h"
#include "app/gui/jobs/user_kernel_job.h"
#include "app/gui/views/recording_view.h"
#include "kernels/bench_result.h"
#include "profiling/profile_result.h"

namespace tclens::gui {

// "yours.matmul_3" and 2 -> "yours.matmul_3.v2".
std::string user_version_id(const std::string& kernel_id, int number);

struct UserKernelResults {
    // Per kernel, per version that has a bench row, in build order: the version's row (renamed),
    // then its same-run cuBLAS reference row as the worker measured it (once per reference id
    // and size: the first version's).
    std::vector<kernels::BenchRow> rows;
    // Every version's profile, PM timeline and instruction mix (renamed), in the same order.
    std::vector<profiling::KernelProfile> profiles;
    std::vector<profiling::KernelTimeline> timelines;
    std::vector<profiling::RecordedInstructionMix> mixes;
    bool empty() const { return rows.empty() && profiles.empty() && timelines.empty(); }
};
UserKernelResults user_kernel_results(const UserKernels& kernels);

// The ids of the versions that have a profile or a timeline, in build order.
std::vector<std::string> user_profiled_versions(const UserKernels& kernels);

// The Profile panel's snapshot of version `version_id`'s profile and PM timeline, drawn as a
// recorded one is (recording_view.h's recorded_profile: not running, one update, one history
// value per metric, the timeline's samples), device "<GPU of the profile>, yours (worker)".
// nullptr when no version of that id has either.
std::shared_ptr<const LiveProfile> user_version_profile(const UserKernels& kernels,
                                                        const std::string& version_id);

// The instruction mix the Profile panel shows for version `version_id` (recording_view.h's
// ShownMix): "SASS of yours.x.v2 (sm_90a, its cubin): HMMA 64, ..." with `mix` the one the
// worker read from its cubin, else "SASS of yours.x.v2: <why it is missing>".
ShownMix user_version_mix(const UserKernels& kernels, const std::string& version_id);

}  // namespace tclens::gui
